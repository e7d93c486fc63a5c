import Foundation
import Stitching

/// Why a store could not answer. The in-memory store never fails; a store behind a network
/// (a database several replicas share) can.
package enum SessionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case unavailable(reason: String)
    /// The store holds the session, but it could not be taken up on this replica (its live
    /// channel's origin failed, say): the error the player hears.
    case notRevived(SeamError)

    package var description: String {
        switch self {
        case .unavailable(let reason): return "the session store is unavailable: \(reason)"
        case .notRevived(let error): return "the session could not be taken up on this replica: \(error.message)"
        }
    }
}

/// A session as a store holds it: its record (when read), the version of that record, and its
/// expiry.
package struct StoredSession: Sendable {
    /// Nil when the stored version was not above the one the load asked to read above.
    package var record: SessionRecord?
    /// Counts the writes of a live session's record (`replaceLive`); 0 when inserted, and for VOD.
    package var version: Int64
    package var expiresAt: Date
}

/// What a store answers for a session id.
package enum StoredLookup: Sendable {
    case found(StoredSession)
    /// The store held it, but its time to live had passed: it is removed now (`410`).
    case expired
    /// The store does not hold it: never stored, deleted, or swept (`404` or `410`: the id's
    /// keyed check tells whether this deployment issued it, see `SessionIDKey`).
    case notFound
}

/// A session's expiry moved by requests this replica answered from its own map, to be written to
/// the store (`SessionStore.touch(_:)`).
package struct SessionActivity: Sendable, Equatable {
    package var id: SessionID
    package var expiresAt: Date
}

/// How long what a replica read from the store may be served without asking it again
/// (`SessionRuntime`'s map follows it).
package enum SessionTrust: Sendable, Equatable {
    /// The store lives in this process and only this replica writes it: what the map holds is
    /// the truth until its local expiry passes.
    case always
    /// Other replicas write the store: an entry is trusted for `seconds` after the store last
    /// confirmed it, or, while the store's change notifications are heard (`watch`), until one
    /// names it.
    case confirmed(seconds: Double)
    /// Nothing is held: every request takes its session up from its record (a store that keeps
    /// encoded records only, to prove them).
    case never
}

/// Hears what other replicas changed in a shared store (`SessionStore.watch`): the runtime's map
/// drops what they rewrote or removed.
package protocol SessionChangeListening: Sendable {
    /// Changes are heard from now on: entries confirmed from here on are trusted until named.
    func listeningStarted()
    /// Changes may be missed from here: entries fall back to the store's confirmation time.
    func listeningStopped()
    /// Session `id` was removed (`version` nil) or its record rewritten as `version`.
    func changed(_ id: SessionID, version: Int64?)
}

/// Where session records live between requests, and the count behind `sessions.maxSessions`.
///
/// A store keeps records and versions only (`SessionRecord`): it builds no session, fetches no
/// origin and knows no live object. This replica's sessions, and taking one up from its record,
/// are `SessionRuntime`'s. Every method is `async` and may fail, so a store shared by several
/// replicas (a database) fits behind the same protocol as `InMemorySessionStore`; both pass one
/// conformance suite. Time is passed in (`now`): stores read no clock, and tests move time
/// instead of sleeping.
///
/// The limit: a session start takes a place with `reserve()` before Seam asks the origin or the
/// ad server anything, so a full server answers `429` at once and concurrent starts can never
/// together exceed `maxSessions`; `insert` stores the record in that place, `release` gives the
/// place of a failed start back.
package protocol SessionStore: Sendable {
    /// `sessions.maxSessions`: places for stored sessions and starts under way together.
    var maxSessions: Int { get }

    /// How long a replica may serve what it read without asking again.
    var trust: SessionTrust { get }

    /// Whether the store answers now (`/readyz`): a store outside the process is asked, within
    /// its time-out. Default: reachable (a store in this process always is).
    func isReachable() async -> Bool

    /// Takes a place for a session about to be built; nil when all places are taken.
    func reserve() async throws(SessionStoreError) -> SessionReservation?

    /// Gives back the place of a start that failed. Releasing twice, or after `insert`, does nothing.
    func release(_ reservation: SessionReservation) async

    /// Stores a new session's record, as version 0, in the place `reservation` holds, to live
    /// until `now` plus the time to live. A reservation already used or released holds no place:
    /// the record is stored only if a place is free now. Returns the expiry, or nil when it was
    /// not stored (the store is full).
    func insert(
        _ record: SessionRecord, into reservation: SessionReservation, now: Date
    ) async throws(SessionStoreError) -> Date?

    /// Finds a session and moves its expiry to `now` plus the time to live (every request counts
    /// as activity); its record only when its version is above `readAbove` (nil: always; a
    /// replica that holds version 3 asks for what is newer). An expired session is removed and
    /// answered `.expired`, unless `keptAlive` (requests this replica answered from its map kept
    /// it alive past the expiry the store knows).
    func load(
        _ id: SessionID, now: Date, readAbove: Int64?, keptAlive: Bool
    ) async throws(SessionStoreError) -> StoredLookup

    /// Writes a live session's record as `version + 1`, only if the stored version is `version`
    /// (compare and swap): of two replicas serving one session at once, one writes. False when
    /// another write came first or the session is gone.
    func replaceLive(_ record: SessionRecord, version: Int64) async throws(SessionStoreError) -> Bool

    /// `replaceLive` of several records at once, each on its own version: the ids of those
    /// written (the others were refused). The writer behind the answers stores a break's worth of
    /// viewers this way, one statement for many on PostgreSQL instead of one each. A store should
    /// write all or none when it fails (PostgreSQL's one statement does): the caller takes an
    /// error to mean none was written. The default writes them one by one, and one that fails
    /// partway leaves those before it written: their sessions' next writes are then refused, and
    /// the sessions taken up again from the store.
    func replaceLive(_ records: [LiveRecordWrite]) async throws(SessionStoreError) -> Set<SessionID>

    /// Which of `events` have not fired yet for ad `ad` of break `breakNumber`; marks them fired,
    /// in one step, so two requests for segments of the same ad never both fire an event.
    /// Server-side beacons then fire once each, whatever the rendition or how often a segment is
    /// fetched again. A session that is gone fires nothing.
    ///
    /// The events are claimed in the claim set of the session's beacon owner (its record's
    /// `pipOf`, else itself): a picture-in-picture session and its main share one, so an event
    /// fires once whether the main, the pip or both fetch the segment that crosses it. The set
    /// lives as long as any session sharing it: deleting or expiring the main does not make its
    /// pips fire again.
    func claimBeacons(
        _ events: [AdProgressEvent], breakNumber: Int, ad: Int,
        in id: SessionID
    ) async throws(SessionStoreError) -> [AdProgressEvent]

    /// Writes the expiries requests moved (a stored expiry only ever moves later).
    func touch(_ activity: [SessionActivity]) async throws(SessionStoreError)

    /// Ends a session; false when the store did not hold it.
    func delete(_ id: SessionID) async throws(SessionStoreError) -> Bool

    /// Drops the sessions whose time to live had passed at `now` and names them, so session
    /// analytics reports each end.
    @discardableResult
    func expire(now: Date) async throws(SessionStoreError) -> [SessionID]

    /// Sessions stored (not counting starts under way).
    func count() async throws(SessionStoreError) -> Int

    /// Appends `entries` to session `id`'s story (the debug route's, `SessionStoryRecorder`),
    /// keeping its newest `keep` entries; the story lives and ends with the session. False when
    /// the store does not hold the session.
    func appendStory(
        _ entries: [SessionStoryEntry], to id: SessionID, keep: Int
    ) async throws(SessionStoreError)
        -> Bool

    /// Session `id`'s story; nil when the store holds none for it.
    func story(of id: SessionID) async throws(SessionStoreError) -> SessionStory?

    /// Tells `listener` what other replicas change, until cancelled. A store only this process
    /// writes has nothing to tell and returns at once (the default).
    func watch(_ listener: any SessionChangeListening) async
}

/// One live record to write on the stored version it was based on (`SessionStore.replaceLive`).
package struct LiveRecordWrite: Sendable {
    package var record: SessionRecord
    package var version: Int64

    package init(_ record: SessionRecord, version: Int64) {
        self.record = record
        self.version = version
    }
}

extension SessionStore {
    package func isReachable() async -> Bool { true }

    package func replaceLive(_ records: [LiveRecordWrite]) async throws(SessionStoreError) -> Set<SessionID> {
        var written: Set<SessionID> = []
        for write in records where try await replaceLive(write.record, version: write.version) {
            written.insert(write.record.id)
        }
        return written
    }

    package func watch(_ listener: any SessionChangeListening) async {}
}
