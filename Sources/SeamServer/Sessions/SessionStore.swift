import Foundation
import Stitching

/// A session of either kind: VOD sessions are computed once; live ones are state machines.
package enum SeamSession: Sendable {
    /// Boxed: a VOD session's value is a few hundred bytes of fields, and a store holds its
    /// sessions inline, so unboxed every live session's entry would be as large (tens of
    /// thousands of live sessions per replica).
    indirect case vod(StitchedSession)
    case live(LiveSession)

    package var id: SessionID {
        switch self {
        case .vod(let session): return session.id
        case .live(let session): return session.id
        }
    }

    /// The rendering `manifestUrl` named when the session was created.
    package var mode: SessionMode {
        switch self {
        case .vod(let session): return session.mode
        case .live(let session): return session.mode
        }
    }

    /// The main session of a picture-in-picture session (always the root main, never a pip);
    /// nil for a main session.
    package var pipOf: SessionID? {
        switch self {
        case .vod(let session): return session.pipOf
        case .live(let session): return session.pipOf
        }
    }

    /// The session whose claim set this session's server-side beacons go in (`claimBeacons`):
    /// a main and its pips share one, so an ad event fires once whichever of them plays it.
    package var beaconOwner: SessionID { pipOf ?? id }
}

/// What a store answers for a session id.
package enum SessionLookup: Sendable {
    case found(SeamSession)
    /// The store held it, but its time to live had passed (`410`).
    case expired
    /// The store does not hold it: never stored, deleted, or swept (`404` or `410`: the id's
    /// keyed check tells whether this deployment issued it, see `SessionIDKey`).
    case notFound
}

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

/// Where sessions live between requests, and the count behind `sessions.maxSessions`.
///
/// Every method is `async` and may fail, so a store shared by several replicas (a database)
/// fits behind the same protocol as `InMemorySessionStore`. Time is passed in (`now`): stores
/// read no clock, and tests move time instead of sleeping.
///
/// A store that keeps sessions outside the process writes them as `SessionRecord`s:
/// `SessionRecord(session, inputs:)` is what `put` is given, as Codable bytes, and a VOD record
/// revives with `StitchedSession(record:)`.
///
/// The limit: a session start takes a place with `reserve()` before Seam asks the origin or the
/// ad server anything, so a full server answers `429` at once and concurrent starts can never
/// together exceed `maxSessions`; `put` stores the built session in that place, `release` gives
/// the place of a failed start back.
package protocol SessionStore: Sendable {
    /// `sessions.maxSessions`: places for stored sessions and starts under way together.
    var maxSessions: Int { get }

    /// Takes sessions this replica does not hold up with `reviver` (the session starter, which
    /// knows live channels); set once at startup. A store that keeps sessions in this process
    /// holds every session it has, and needs none (the default).
    func use(_ reviver: any SessionReviving)

    /// Whether the store answers now (`/readyz`): a store outside the process is asked, within
    /// its time-out. Default: reachable (a store in this process always is).
    func isReachable() async -> Bool

    /// Takes a place for a session about to be built; nil when all places are taken.
    func reserve() async throws(SessionStoreError) -> SessionReservation?

    /// Gives back the place of a start that failed. Releasing twice, or after `put`, does nothing.
    func release(_ reservation: SessionReservation) async

    /// Stores a built session in the place `reservation` holds, to live until `now` plus the time
    /// to live. A reservation already used or released holds no place: the session is stored only
    /// if a place is free now. `inputs` are what the session was built from (a store that keeps
    /// records outside the process writes them; the in-memory store needs nothing from them).
    /// Returns the session's expiry, or nil when it was not stored (the store is full).
    func put(
        _ session: SeamSession, inputs: SessionInputs, into reservation: SessionReservation,
        now: Date
    ) async throws(SessionStoreError) -> Date?

    /// Finds a session and extends its life (every playlist request counts as activity).
    func get(_ id: SessionID, now: Date) async throws(SessionStoreError) -> SessionLookup

    /// Keep-alive: extends the session's life; its new expiry, or nil when it is gone (or expired).
    func touch(_ id: SessionID, now: Date) async throws(SessionStoreError) -> Date?

    /// Which of `events` have not fired yet for ad `ad` of break `breakNumber`; marks them fired,
    /// in one step, so two requests for segments of the same ad never both fire an event.
    /// Server-side beacons then fire once each, whatever the rendition or how often a segment is
    /// fetched again. A session that is gone fires nothing.
    ///
    /// The events are claimed in the claim set of the session's `beaconOwner`: a
    /// picture-in-picture session and its main share one, so an event fires once whether the
    /// main, the pip or both fetch the segment that crosses it. The set lives as long as any
    /// session sharing it: deleting or expiring the main does not make its pips fire again.
    func claimBeacons(
        _ events: [AdProgressEvent], breakNumber: Int, ad: Int,
        in id: SessionID
    ) async throws(SessionStoreError) -> [AdProgressEvent]

    /// Ends a session; false when the store did not hold it.
    func delete(_ id: SessionID) async throws(SessionStoreError) -> Bool

    /// Drops the sessions whose time to live had passed at `now` and names them, so session
    /// analytics reports each end.
    @discardableResult
    func expire(now: Date) async throws(SessionStoreError) -> [SessionID]

    /// Sessions stored (not counting starts under way).
    func count() async throws(SessionStoreError) -> Int

    /// Writes a live session's state where other replicas can take the session up, when it
    /// changed since last written (a break decided or ended: `LiveTimeline.changes`). Called
    /// before a request that may show the change is answered, so whatever a player saw from this
    /// replica another one serves the same way. A store that keeps sessions in this process has
    /// nothing to write (the default).
    func saveLive(_ session: LiveSession, now: Date) async throws(SessionStoreError) -> LiveSaveOutcome
}

/// What `saveLive` did.
package enum LiveSaveOutcome: Sendable, Equatable {
    /// The store holds the session's state as this replica serves it.
    case saved
    /// Another replica wrote the session's state since this one last read or wrote it (both
    /// served the session, say while a load balancer moved the viewer): this replica's copy is
    /// dropped, and the request looks the session up again to serve the stored state.
    case superseded
}

extension SessionStore {
    package func isReachable() async -> Bool { true }

    package func use(_ reviver: any SessionReviving) {}
}

extension SessionStore {
    package func saveLive(_ session: LiveSession, now: Date) async throws(SessionStoreError) -> LiveSaveOutcome {
        .saved
    }
}

/// Takes a session up from its record on a replica that does not hold it: VOD sessions from the
/// bytes the record carries, live ones on their channel with the recorded timeline and decisions
/// (`SessionStarter` in production). `liveVersion` is the store's version of a live record;
/// `store` finds a picture-in-picture session's main.
package protocol SessionReviving: Sendable {
    func revive(
        _ record: SessionRecord, liveVersion: Int64, store: any SessionStore, now: Date
    ) async throws(SeamError) -> SeamSession?
}
