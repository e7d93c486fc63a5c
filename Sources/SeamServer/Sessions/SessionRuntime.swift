import CoreMetrics
import Foundation
import Logging
import Stitching

/// This replica's sessions: the one map of built sessions in the process (`SessionMap`) in front
/// of the store's records. Opening a session by id is map → record → revive; a live session's
/// record is written after an answer that may show a change (`saveLive`); activity served from
/// the map reaches the store in batches, and the sweep drops what expired from both.
///
/// The store knows records and versions only (`SessionStore`); the live objects and the
/// bookkeeping of what of them is stored (`SessionMap.Saved`) are here. Time is passed in.
final class SessionRuntime: Sendable {
    let store: any SessionStore
    let map: SessionMap
    /// Takes a session up from its record (the session starter, which knows live channels).
    let reviver: any SessionReviving
    /// Live sessions whose record waits for the writer (`writeBehind`).
    let recordsBehind = LiveRecordsBehind()
    private let writeGate = LiveRecordWriteGate()
    private let logger: Logger
    private let lookups: (hit: Counter, miss: Counter)?
    private let liveWrites: (beforeAnswer: Counter, afterAnswer: Counter, behind: Gauge)?

    /// - Parameters:
    ///   - ttlSeconds: `sessions.ttlSeconds` (the map's local expiries).
    ///   - reviver: default, VOD records only.
    ///   - metricsFactory: where lookups answered from the map are counted, for a shared store
    ///     (`seam_store_cache_lookups_total`).
    init(
        store: any SessionStore, ttlSeconds: Double, reviver: any SessionReviving = VODRecordReviver(),
        logger: Logger = Logger(label: "seam.sessions"),
        metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.store = store
        map = SessionMap(trust: store.trust, ttlSeconds: ttlSeconds)
        self.reviver = reviver
        self.logger = logger
        if case .confirmed = store.trust {
            lookups = (
                Counter(label: StoreMetrics.cacheName, dimensions: [("result", "hit")], factory: metricsFactory),
                Counter(label: StoreMetrics.cacheName, dimensions: [("result", "miss")], factory: metricsFactory)
            )
        } else {
            lookups = nil
        }
        if store.trust != .always {
            let name = Self.liveWritesName
            liveWrites = (
                Counter(label: name, dimensions: [("when", "before_answer")], factory: metricsFactory),
                Counter(label: name, dimensions: [("when", "after_answer")], factory: metricsFactory),
                Gauge(label: Self.liveRecordsBehindName, factory: metricsFactory)
            )
        } else {
            liveWrites = nil
        }
    }

    static let liveWritesName = "seam_store_live_writes_total"
    static let liveRecordsBehindName = "seam_store_live_records_behind"

    // MARK: Opening

    /// The session `id` names, from the map when it is trusted, else from the store: a session
    /// this replica holds is confirmed (and a live one read again only when another replica wrote
    /// it since); one it does not is taken up from its record. Every request counts as activity.
    func lookup(_ id: SessionID, now: Date) async throws(SessionStoreError) -> SessionLookup {
        let held: SeamSession?
        let aliveLocally: Bool
        let saved: SessionMap.Saved?
        switch map.lookup(id, now: now) {
        case .fresh(let session):
            lookups?.hit.increment()
            return .found(session)
        case .stale(let session, let alive, let savedState): (held, aliveLocally, saved) = (session, alive, savedState)
        case .missing: (held, aliveLocally, saved) = (nil, false, nil)
        }
        lookups?.miss.increment()
        // A live main held here is read again only when another replica wrote its state since
        // (not for this replica's own write on its way: the record it is storing is this object's).
        let readAbove: Int64?
        switch held {
        case nil: readAbove = nil
        case .live(let live)? where live.pipOf == nil:
            readAbove = saved.map { max($0.version, map.writingVersion(id) ?? 0) }
        default: readAbove = .max
        }
        let mark = map.beginRead()
        defer { map.endRead(mark) }
        switch try await store.load(id, now: now, readAbove: readAbove, keptAlive: aliveLocally) {
        case .expired:
            map.remove(id)
            return .expired
        case .notFound:
            map.remove(id)
            return .notFound
        case .found(let stored):
            guard let record = stored.record else {
                guard let held else { return .notFound }
                map.store(held, expiresAt: stored.expiresAt, now: now, mark: mark)
                return .found(held)
            }
            guard let session = try await revive(record, now: now) else {
                map.remove(id)
                return .notFound
            }
            map.store(
                session, expiresAt: stored.expiresAt, now: now, mark: mark, saved: Self.saved(record, stored.version))
            return .found(session)
        }
    }

    /// The session `id` names when the map holds it and may trust it, without suspending
    /// (`CachedSessionPlaylists`); counted and kept alive as `lookup` does. Nil for anything
    /// `lookup` would have to ask the store about.
    func held(_ id: SessionID, now: Date) -> SeamSession? {
        guard case .fresh(let session) = map.lookup(id, now: now) else { return nil }
        return session
    }

    /// Counts a lookup answered from the map (`seam_store_cache_lookups_total{result="hit"}`)
    /// for an answer made from a session `held` gave, once it is made: one the router's path
    /// makes instead looks the session up again and counts there.
    func answeredFromMap() {
        lookups?.hit.increment()
    }

    /// A session of this replica from a stored record. A live picture-in-picture session follows
    /// its main, which is opened (and taken up) first: they share one timeline. Nil when the
    /// record cannot be served here (a live record on a server without live, a pip whose main is
    /// gone).
    private func revive(_ record: SessionRecord, now: Date) async throws(SessionStoreError) -> SeamSession? {
        var main: SeamSession?
        if case .live = record.kind, let mainID = record.pipOf {
            guard case .found(let found) = try await lookup(mainID, now: now), case .live = found else { return nil }
            main = found
        }
        do {
            return try await reviver.revive(record, main: main)
        } catch {
            throw .notRevived(error)
        }
    }

    /// What a record holds of a live main's state, as the map keeps it.
    private static func saved(_ record: SessionRecord, _ version: Int64) -> SessionMap.Saved? {
        guard record.pipOf == nil, case .live(let live) = record.kind else { return nil }
        return SessionMap.Saved(version: version, changes: live.session.changes)
    }

    // MARK: Starting, keeping alive, ending

    /// Stores a session just built, in the place `reservation` holds; its expiry, or nil when the
    /// store is full.
    func insert(
        _ session: SeamSession, inputs: SessionInputs, into reservation: SessionReservation, now: Date
    ) async throws(SessionStoreError) -> Date? {
        // A store only this process reads never gives a live record back while the map holds the
        // session (see `saveLive`): it keeps the session as begun, shared by the channel's viewers.
        let record = SessionRecord(session, inputs: inputs, liveState: store.trust == .always ? .asBegun : .current)
        let mark = map.beginRead()
        defer { map.endRead(mark) }
        guard let expiry = try await store.insert(record, into: reservation, now: now) else { return nil }
        map.store(session, expiresAt: expiry, now: now, mark: mark, saved: Self.saved(record, 0))
        return expiry
    }

    /// Keep-alive: the session's new expiry, or nil when it is gone (or expired).
    func keepAlive(_ id: SessionID, now: Date) async throws(SessionStoreError) -> Date? {
        let aliveLocally: Bool
        switch map.lookup(id, now: now) {
        case .fresh: aliveLocally = true
        case .stale(_, let alive, _): aliveLocally = alive
        case .missing: aliveLocally = false
        }
        guard case .found(let stored) = try await store.load(id, now: now, readAbove: .max, keptAlive: aliveLocally)
        else {
            map.remove(id)
            return nil
        }
        map.extend(id, to: stored.expiresAt, now: now)
        return stored.expiresAt
    }

    /// Ends a session; false when the store did not hold it.
    func delete(_ id: SessionID) async throws(SessionStoreError) -> Bool {
        map.remove(id)
        return try await store.delete(id)
    }

    /// Drops the sessions expired at `now` from the store and the map, after writing the activity
    /// served from the map (which keeps sessions alive); names those the store dropped.
    func sweep(now: Date) async throws(SessionStoreError) -> [SessionID] {
        try await flushActivity()
        let removed = try await store.expire(now: now)
        for id in removed { map.remove(id) }
        map.evict(before: now)
        return removed
    }

    /// Writes the expiries requests answered from the map moved since the last write.
    func flushActivity() async throws(SessionStoreError) {
        let pending = map.unflushedExpiries()
        guard !pending.isEmpty else { return }
        do {
            try await store.touch(pending.map { SessionActivity(id: $0.id, expiresAt: $0.expiresAt) })
        } catch {
            map.flushFailed(pending)
            throw error
        }
    }

    // MARK: Live records

    /// Writes a live session's state where other replicas can take the session up, when it
    /// changed since last written (`LiveSessionMachine.changes`: a break decided or ended, a
    /// decision made ahead). Called after an answer is made and before it is sent: a change the
    /// answer shows that only the record can tell (a break's decision:
    /// `LiveSessionMachine.changesShown`) is written first, so whatever a player saw from this
    /// replica another one serves the same way. Other changes are queued for the writer
    /// (`writeBehind`) and the answer goes at once.
    ///
    /// A store only this process reads (`SessionTrust.always`) is not written after the start:
    /// no other replica takes its sessions up, and this runtime holds each session for as long as
    /// the store does (a local expiry is never before the store's), so a later state would be
    /// written for no reader, at the cost of a snapshot per change.
    func saveLive(_ session: LiveSession) async throws(SessionStoreError) -> LiveSaveOutcome {
        guard store.trust != .always else { return .saved }
        return try await writeLive(session, beforeAnswer: true)
    }

    /// Whether an answer made from live `session` as it is may go without waiting for a record
    /// write: `saveLive`'s decision, made without suspending, for the answers made on the event
    /// loop (`CachedSessionPlaylists`). True when the store holds what the answer shows, or the
    /// changes since are ones that may be written behind it (queued for the writer here, as
    /// `saveLive` queues them); false when the answer shows a change only the record can tell
    /// (a break's decision) or this copy of the session is behind another replica's: the
    /// router's path then answers it, writing first (`saveLive`).
    func answersWithoutWaiting(_ session: LiveSession) -> Bool {
        guard store.trust != .always else { return true }
        switch liveRecordNeed(session, beforeAnswer: true) {
        case .stored: return true
        case .superseded, .write: return false
        }
    }

    /// What `owner`'s record needs now (see `saveLive`).
    private enum LiveRecordNeed {
        /// Nothing to write before an answer: the store holds the session's state, its changes
        /// since are queued for the writer, or nothing this replica holds can be written.
        case stored
        /// This replica's copy is behind another replica's write: open the session again.
        case superseded
        /// A write over the stored `Saved`.
        case write(SessionMap.Saved)
    }

    /// What the record of `session`'s timeline owner needs. Never suspends; queues the owner for
    /// the writer when its changes may wait (`beforeAnswer`).
    private func liveRecordNeed(_ session: LiveSession, beforeAnswer: Bool) -> LiveRecordNeed {
        let owner = session.timelineOwner
        guard let saved = map.saved(of: owner) else {
            // A main no longer held as this object: another replica's write let it go here
            // (heard, or a write of this replica's refused), or it ended; held as another object
            // (taken up again since). This copy is behind: open it again, from the store.
            // The main a pip plays along no longer held here at all (ended, expired or let go):
            // its record has nothing this replica can write to, and the pip plays on with the
            // timeline it shares (docs/store.md).
            return owner === session || map.holds(owner.id) ? .superseded : .stored
        }
        let (changes, shown) = owner.recordChanges
        guard changes != saved.changes else { return .stored }
        if beforeAnswer, saved.changes >= shown {
            recordsBehind.add(owner)
            liveWrites?.behind.record(recordsBehind.count)
            return .stored
        }
        return .write(saved)
    }

    /// See `saveLive`; `beforeAnswer` false writes whatever changed (the writer's call). One
    /// write per session at a time (`writeGate`).
    private func writeLive(
        _ session: LiveSession, beforeAnswer: Bool
    ) async throws(SessionStoreError)
        -> LiveSaveOutcome
    {
        let owner = session.timelineOwner
        var entered = false
        defer { if entered { writeGate.leave(owner.id) } }
        while true {
            let saved: SessionMap.Saved
            switch liveRecordNeed(session, beforeAnswer: beforeAnswer) {
            case .stored: return .saved
            case .superseded:
                map.remove(session.id)
                return .superseded
            case .write(let stored): saved = stored
            }
            if !entered {
                await writeGate.enter(owner.id)
                entered = true
                continue  // what is stored may have moved while this waited
            }
            let record = SessionRecord(.live(owner), inputs: owner.inputs)
            guard case .live(let state) = record.kind else { return .saved }
            let version = saved.version + 1
            map.markWriting(owner.id, version: version)
            let written: Bool
            do {
                written = try await store.replaceLive(record, version: saved.version)
            } catch {
                map.markWriting(owner.id, version: nil)
                throw error
            }
            settle(
                session, owner: owner, written: written, version: version, changes: state.session.changes,
                beforeAnswer: beforeAnswer)
            if written { continue }
            return .superseded
        }
    }

    /// A record write's outcome in the map. Written: the version and the changes it holds are
    /// saved first, then the session is no longer being written (a notification of this write
    /// heard in between finds one or the other). Refused: this replica writes a session one at a
    /// time, so another replica wrote, or the session is gone; it is let go here, to be taken up
    /// from the store.
    private func settle(
        _ session: LiveSession, owner: LiveSession, written: Bool, version: Int64, changes: Int, beforeAnswer: Bool
    ) {
        guard written else {
            map.markWriting(owner.id, version: nil)
            map.remove(owner.id)
            map.remove(session.id)
            return
        }
        map.markSaved(owner, as: SessionMap.Saved(version: version, changes: changes))
        map.markWriting(owner.id, version: nil)
        (beforeAnswer ? liveWrites?.beforeAnswer : liveWrites?.afterAnswer)?.increment()
    }

    /// Writes the records of `recordsBehind`, up to `recordsPerWrite` at once in one store call
    /// (one statement on PostgreSQL), until cancelled. A write that fails is not retried here:
    /// the sessions' next reloads find their records behind and queue them again (a session no
    /// viewer reloads any more needs no newer record).
    func writeBehind() async {
        while true {
            let sessions = await recordsBehind.take(Self.recordsPerWrite)
            guard !sessions.isEmpty else { return }
            do {
                try await writeBehind(sessions)
            } catch {
                logger.warning(
                    "live sessions' records not written; written when the sessions next reload",
                    metadata: ["sessions": "\(sessions.count)", "error": "\(error)"])
            }
            liveWrites?.behind.record(recordsBehind.count)
        }
    }

    /// Records the writer stores in one store call: a break opens and ends for every viewer of a
    /// channel within one reload interval, and one transaction each was most of what the store
    /// spent on live sessions, while a few large calls leave its connections to the requests.
    static let recordsPerWrite = 64

    /// One store call for `sessions`' records, each on the version this replica holds, as
    /// `writeLive` writes one (the same checks, the same outcomes). A session whose write is on
    /// its way before an answer is left to that write; one that changed again while written is
    /// queued again.
    private func writeBehind(_ sessions: [LiveSession]) async throws(SessionStoreError) {
        struct Write {
            var session: LiveSession
            var owner: LiveSession
            var version: Int64
            var changes: Int
            var record: SessionRecord
        }
        var writes: [Write] = []
        var owners: Set<SessionID> = []
        for session in sessions {
            let owner = session.timelineOwner
            // As in `writeLive`: a main no longer held has no record to write to; one held as
            // another object (taken up again since) makes this copy stale.
            func stale() { if map.holds(owner.id) { map.remove(session.id) } }
            // A pip and its main share a record: written once, with the first of them.
            if owners.contains(owner.id) {
                if map.saved(of: owner) == nil { stale() }
                continue
            }
            // The gate first, then what is stored: a write before an answer that ended just now
            // has moved the version this one must be based on.
            guard writeGate.tryEnter(owner.id) else { continue }
            guard let saved = map.saved(of: owner) else {
                writeGate.leave(owner.id)
                stale()
                continue
            }
            guard owner.recordChanges.changes != saved.changes else {
                writeGate.leave(owner.id)
                continue
            }
            let record = SessionRecord(.live(owner), inputs: owner.inputs)
            guard case .live(let state) = record.kind else {
                writeGate.leave(owner.id)
                continue
            }
            owners.insert(owner.id)
            map.markWriting(owner.id, version: saved.version + 1)
            writes.append(
                Write(
                    session: session, owner: owner, version: saved.version, changes: state.session.changes,
                    record: record))
        }
        guard !writes.isEmpty else { return }
        defer { for write in writes { writeGate.leave(write.owner.id) } }
        let written: Set<SessionID>
        do {
            written = try await store.replaceLive(writes.map { LiveRecordWrite($0.record, version: $0.version) })
        } catch {
            for write in writes { map.markWriting(write.owner.id, version: nil) }
            throw error
        }
        for write in writes {
            let landed = written.contains(write.owner.id)
            settle(
                write.session, owner: write.owner, written: landed, version: write.version + 1,
                changes: write.changes, beforeAnswer: false)
            // Changed again while written: queued again.
            if landed, write.owner.recordChanges.changes != write.changes { recordsBehind.add(write.owner) }
        }
    }

    // MARK: Upkeep

    /// What keeps the map honest, until cancelled: the store's changes heard (`SessionStore.watch`)
    /// and, for a shared store, the activity served from the map written every confirmation
    /// period (at least every half second).
    func keepUp() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.store.watch(self.map) }
            guard case .confirmed(let seconds) = store.trust else { return }
            group.addTask { await self.writeBehind() }
            guard seconds > 0 else { return }
            group.addTask {
                let interval = Duration.milliseconds(Int64(max(0.5, seconds) * 1000))
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled else { break }
                    do {
                        try await self.flushActivity()
                    } catch {
                        self.logger.warning(
                            "sessions' activity not written; written again next time", metadata: ["error": "\(error)"])
                    }
                }
            }
        }
    }
}

/// What `SessionRuntime.saveLive` did.
package enum LiveSaveOutcome: Sendable, Equatable {
    /// The store holds the session's state as this replica serves it.
    case saved
    /// Another replica wrote the session's state since this one last read or wrote it (both
    /// served the session, say while a load balancer moved the viewer): this replica's copy is
    /// dropped, and the request looks the session up again to serve the stored state.
    case superseded
}

/// Takes a session up from its record on a replica that does not hold it: VOD sessions from the
/// bytes the record carries, live ones on their channel with the recorded timeline and decisions
/// (`SessionStarter` in production). `main`: a live picture-in-picture session's main, opened
/// first (they share one timeline).
package protocol SessionReviving: Sendable {
    func revive(_ record: SessionRecord, main: SeamSession?) async throws(SeamError) -> SeamSession?
}

/// VOD records only: what a runtime without live channels can take up.
struct VODRecordReviver: SessionReviving {
    func revive(_ record: SessionRecord, main: SeamSession?) async throws(SeamError) -> SeamSession? {
        StitchedSession(record: record).map { .vod($0) }
    }
}
