import Foundation
import NIOConcurrencyHelpers
import HLS
import Stitching
import Testing
@testable import SeamServer

/// How a runtime writes a live session's record after an answer (`SessionRuntime.saveLive`), as a
/// table of events over a shared store in memory (no sockets, no sleeps): written once per change,
/// on the version it was based on; superseded when another replica wrote first; a pip's state
/// written to its main's record, and a pip whose main this replica no longer holds playing on.
@Suite struct LiveRecordSavingTests {
    typealias Memory = InMemorySessionStoreTests

    /// The in-memory store as several replicas would share it (`SessionTrust.confirmed`), so the
    /// runtime writes live records after answers as it does over PostgreSQL.
    final class SharedMemoryStore: SessionStore {
        let base = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        var maxSessions: Int { base.maxSessions }
        var trust: SessionTrust { .confirmed(seconds: 60) }
        func reserve() async throws(SessionStoreError) -> SessionReservation? { base.reserve() }
        func release(_ reservation: SessionReservation) async { base.release(reservation) }
        func insert(
            _ record: SessionRecord, into reservation: SessionReservation, now: Date
        ) async throws(SessionStoreError) -> Date? { base.insert(record, into: reservation, now: now) }
        func load(
            _ id: SessionID, now: Date, readAbove: Int64?, keptAlive: Bool
        ) async throws(SessionStoreError) -> StoredLookup {
            base.load(id, now: now, readAbove: readAbove, keptAlive: keptAlive)
        }
        func replaceLive(_ record: SessionRecord, version: Int64) async throws(SessionStoreError) -> Bool {
            base.replaceLive(record, version: version)
        }
        func claimBeacons(
            _ events: [AdProgressEvent], breakNumber: Int, ad: Int, in id: SessionID
        ) async throws(SessionStoreError) -> [AdProgressEvent] {
            base.claimBeacons(events, breakNumber: breakNumber, ad: ad, in: id)
        }
        func touch(_ activity: [SessionActivity]) async throws(SessionStoreError) { base.touch(activity) }
        func delete(_ id: SessionID) async throws(SessionStoreError) -> Bool { base.delete(id) }
        func expire(now: Date) async throws(SessionStoreError) -> [SessionID] { base.expire(now: now) }
        func count() async throws(SessionStoreError) -> Int { base.count() }
        func appendStory(
            _ entries: [SessionStoryEntry], to id: SessionID, keep: Int
        ) async throws(SessionStoreError) -> Bool { base.appendStory(entries, to: id, keep: keep) }
        func story(of id: SessionID) async throws(SessionStoreError) -> SessionStory? { base.story(of: id) }
    }

    static func channel() throws -> LiveChannel {
        let url = "https://origin.test/live.m3u8"
        let window = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n")
        return LiveChannel(url: url, content: ContentSet(media: window, url: url), slate: nil, schedule: nil)
    }

    static func live(on channel: LiveChannel) -> LiveSession {
        LiveSession(
            id: Memory.ids.issue(), channel: channel, inputs: Memory.inputs, trackingMode: .server,
            defaultBreakSeconds: 30)
    }

    /// Stores `session` through `runtime`; its record is version 0.
    static func insert(_ session: LiveSession, into runtime: SessionRuntime) async throws {
        let reservation = try #require(try await runtime.store.reserve())
        #expect(
            try await runtime.insert(.live(session), inputs: session.inputs, into: reservation, now: Memory.t0) != nil)
    }

    /// Marks the state as changed since it was written at `version` (as a break decided would).
    static func changed(_ session: LiveSession, since version: Int64, in runtime: SessionRuntime) {
        runtime.map.markSaved(
            session, as: SessionMap.Saved(version: version, changes: session.recordChanges.changes - 1))
    }

    static func storedVersion(_ id: SessionID, in store: SharedMemoryStore) -> Int64? {
        if case .found(let stored) = store.base.load(id, now: Memory.t0, readAbove: .max, keptAlive: true) {
            return stored.version
        }
        return nil
    }

    @Test("Written once per change, on its version; another replica's write first: superseded and let go")
    func mainSession() async throws {
        let store = SharedMemoryStore()
        let runtime = SessionRuntime(store: store, ttlSeconds: 60)
        let main = Self.live(on: try Self.channel())
        try await Self.insert(main, into: runtime)
        let steps: [(String, () async throws -> Void, LiveSaveOutcome, Int64?, Bool)] = [
            ("nothing changed: no write", {}, .saved, 0, true),
            ("changed: written as version 1", { Self.changed(main, since: 0, in: runtime) }, .saved, 1, true),
            ("unchanged since: no write", {}, .saved, 1, true),
            (
                "another replica wrote version 2, then this one changed: superseded, the map lets it go",
                {
                    #expect(store.base.replaceLive(SessionRecord(.live(main), inputs: main.inputs), version: 1))
                    Self.changed(main, since: 1, in: runtime)
                }, .superseded, 2, false
            ),
        ]
        for (name, event, expected, version, held) in steps {
            try await event()
            #expect(try await runtime.saveLive(main) == expected, "\(name)")
            #expect(Self.storedVersion(main.id, in: store) == version, "\(name): stored version")
            #expect(runtime.map.holds(main.id) == held, "\(name): held")
        }
    }

    @Test("A pip's state goes to its main's record; a pip whose main is no longer held plays on, unwritten")
    func pipSession() async throws {
        let store = SharedMemoryStore()
        let runtime = SessionRuntime(store: store, ttlSeconds: 60)
        let main = Self.live(on: try Self.channel())
        try await Self.insert(main, into: runtime)
        var inputs = Memory.inputs
        inputs.request.pipOf = main.id
        let pip = LiveSession(pipOf: main, id: Memory.ids.issue(), inputs: inputs, mode: .stitched)
        try await Self.insert(pip, into: runtime)
        Self.changed(main, since: 0, in: runtime)
        #expect(try await runtime.saveLive(pip) == .saved)
        #expect(Self.storedVersion(main.id, in: store) == 1, "the main's record")
        #expect(Self.storedVersion(pip.id, in: store) == 0, "the pip's own record is not rewritten")
        #expect(try await runtime.delete(main.id))
        #expect(try await runtime.saveLive(pip) == .saved, "plays on")
        #expect(runtime.map.holds(pip.id))
    }

    /// The stored record's kind, as bytes: an `indirect` kind is a reference to its box, so two
    /// equal byte strings are one box.
    static func kindBytes(_ id: SessionID, in store: InMemorySessionStore) throws -> [UInt8] {
        guard case .found(let stored) = store.load(id, now: Memory.t0, readAbove: -1, keptAlive: true),
            let record = stored.record
        else { throw StoreMissing() }
        return withUnsafeBytes(of: record.kind) { Array($0) }
    }

    struct StoreMissing: Error {}

    @Test(
        "A store only this process reads keeps live sessions as they began, in one box per channel; a shared store gets each machine's own snapshot"
    )
    func keptAsBegun() async throws {
        let channel = try Self.channel()
        let local = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let localRuntime = SessionRuntime(store: local, ttlSeconds: 60)
        let (first, second) = (Self.live(on: channel), Self.live(on: channel))
        try await Self.insert(first, into: localRuntime)
        try await Self.insert(second, into: localRuntime)
        guard case .found(let stored) = local.load(first.id, now: Memory.t0, readAbove: -1, keptAlive: true),
            case .live(let live)? = stored.record?.kind
        else { throw StoreMissing() }
        #expect(live.channelURL == channel.url)
        #expect(live.session.timeline.entries.isEmpty && live.session.decisions.isEmpty && live.session.served.isEmpty)
        #expect(try Self.kindBytes(first.id, in: local) == Self.kindBytes(second.id, in: local), "one box")

        let shared = SharedMemoryStore()
        let sharedRuntime = SessionRuntime(store: shared, ttlSeconds: 60)
        let (third, fourth) = (Self.live(on: channel), Self.live(on: channel))
        try await Self.insert(third, into: sharedRuntime)
        try await Self.insert(fourth, into: sharedRuntime)
        guard case .found(let written) = shared.base.load(third.id, now: Memory.t0, readAbove: -1, keptAlive: true)
        else { throw StoreMissing() }
        #expect(written.record?.kind == .live(third.snapshot()))
        #expect(
            try Self.kindBytes(third.id, in: shared.base) != Self.kindBytes(fourth.id, in: shared.base),
            "each session's own snapshot")
    }

    /// Marks the record as behind by a change no answer shows (as a break's end would): stored at
    /// `version` with a count the session's own differs from, at or past what its answers show.
    static func behind(_ session: LiveSession, at version: Int64, in runtime: SessionRuntime) {
        let (changes, shown) = session.recordChanges
        runtime.map.markSaved(session, as: SessionMap.Saved(version: version, changes: max(changes, shown) + 1))
    }

    @Test(
        "A change no answer shows: the answer goes at once, the session is queued once, the writer stores it; refused there: superseded"
    )
    func writtenBehind() async throws {
        let store = SharedMemoryStore()
        let runtime = SessionRuntime(store: store, ttlSeconds: 60)
        let channel = try Self.channel()
        let first = Self.live(on: channel), second = Self.live(on: channel)
        try await Self.insert(first, into: runtime)
        try await Self.insert(second, into: runtime)
        Self.behind(first, at: 0, in: runtime)
        #expect(try await runtime.saveLive(first) == .saved)
        #expect(try await runtime.saveLive(first) == .saved, "a second reload before the writer")
        #expect(Self.storedVersion(first.id, in: store) == 0, "not written before the answer")
        #expect(runtime.recordsBehind.count == 1, "queued once")
        Self.behind(second, at: 0, in: runtime)
        #expect(try await runtime.saveLive(second) == .saved)
        #expect(runtime.recordsBehind.count == 2)
        // Another replica writes the second session meanwhile.
        #expect(store.base.replaceLive(SessionRecord(.live(second), inputs: second.inputs), version: 0))

        let writer = Task { await runtime.writeBehind() }
        let written = await liveEventually(timeout: .seconds(60)) {
            runtime.recordsBehind.count == 0 && !runtime.map.holds(second.id)
                && Self.storedVersion(first.id, in: store) == 1
        }
        writer.cancel()
        await writer.value
        #expect(written, "the writer did not store the record within 60 s")
        #expect(runtime.map.holds(first.id))
        #expect(
            runtime.map.saved(of: first)?.changes == first.recordChanges.changes, "the map knows the record holds it")
        #expect(!runtime.map.holds(second.id), "written by another replica first: let go, taken up again")
    }

    @Test("This replica's own write heard from the store before its answer keeps the session; another version drops it")
    func ownWriteHeard() async throws {
        let store = SharedMemoryStore()
        let runtime = SessionRuntime(store: store, ttlSeconds: 60)
        let main = Self.live(on: try Self.channel())
        try await Self.insert(main, into: runtime)
        runtime.map.markWriting(main.id, version: 1)
        runtime.map.changed(main.id, version: 1)
        #expect(runtime.map.holds(main.id), "its own write on the way")
        runtime.map.changed(main.id, version: 2)
        #expect(!runtime.map.holds(main.id), "a newer version is another replica's")
    }

    @Test(
        "One record write per session at a time: a second writer of the same session waits for the first; another session's does not"
    )
    func oneWriteAtATime() async throws {
        let gate = LiveRecordWriteGate()
        let one = Memory.ids.issue(), other = Memory.ids.issue()
        await gate.enter(one)
        await gate.enter(other)  // another session: not held
        let order = NIOLockedValueBox<[String]>([])
        let second = Task {
            await gate.enter(one)
            order.withLockedValue { $0.append("second entered") }
            gate.leave(one)
        }
        // The second writer parks: it cannot enter before the first leaves (60 s: a hang guard).
        let parked = await liveEventually(timeout: .seconds(60)) { gate.waiting(for: one) == 1 }
        #expect(parked, "the second writer of the same session did not wait")
        #expect(gate.waiting(for: other) == 0)
        #expect(!gate.tryEnter(one), "taken: the writer behind the answers leaves it to the write on its way")
        #expect(order.withLockedValue { $0 }.isEmpty)
        order.withLockedValue { $0.append("first leaves") }
        gate.leave(one)
        await second.value
        #expect(order.withLockedValue { $0 } == ["first leaves", "second entered"])
        gate.leave(other)
        // Free again: entering does not wait.
        await gate.enter(one)
        gate.leave(one)
        #expect(gate.tryEnter(one))
        gate.leave(one)
    }

    @Test("The queue behind the answers hands sessions out oldest first, each once, and nothing once cancelled")
    func queueBehind() async throws {
        let queue = LiveRecordsBehind()
        let channel = try Self.channel()
        let sessions = (0..<3).map { _ in Self.live(on: channel) }
        for session in sessions + [sessions[0]] { queue.add(session) }
        #expect(queue.count == 3)
        #expect(await queue.take(2).map(\.id) == [sessions[0].id, sessions[1].id])
        #expect(await queue.take(64).map(\.id) == [sessions[2].id])
        let waiting = Task { await queue.take(64) }
        waiting.cancel()
        #expect(await waiting.value.isEmpty)
        let woken = Task { await queue.take(64) }
        queue.add(sessions[1])
        #expect(await woken.value.map(\.id) == [sessions[1].id])
    }
}
