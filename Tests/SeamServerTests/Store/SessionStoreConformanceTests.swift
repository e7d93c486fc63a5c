import Foundation
import Stitching
import Testing

@testable import SeamServer

/// One contract, every store: the same tests run against the in-memory store and the PostgreSQL
/// store (when `SEAM_TEST_POSTGRES_URL` names a database; `PostgresTestDatabaseTests` says when it
/// does not, and fails under CI). Records and versions only: insert, load above a version,
/// replace a live record on its version, claim, touch, delete, expire. Time is passed in; no sleeps.
@Suite struct SessionStoreConformanceTests {
    typealias Memory = InMemorySessionStoreTests

    /// The stores under test.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case memory, postgres

        var testDescription: String { rawValue }

        /// Every kind this machine can run: PostgreSQL only with a database.
        static var runnable: [Kind] { PostgresTestDatabase.available ? allCases : [.memory] }
    }

    static let t0 = Memory.t0

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// Runs `body` with a fresh store of `kind`: sessions live `ttl` seconds after their last
    /// request, at most `maxSessions` of them.
    static func withStore(
        _ kind: Kind, ttl: Double = 60, maxSessions: Int = 10,
        _ body: @Sendable (any SessionStore) async throws -> Void
    ) async throws {
        switch kind {
        case .memory:
            try await body(InMemorySessionStore(ttlSeconds: ttl, maxSessions: maxSessions))
        case .postgres:
            try await PostgresTestDatabase.withStores(ttlSeconds: ttl, maxSessions: maxSessions) { stores in
                try await body(stores[0])
            }
        }
    }

    /// Stores a session's record (a pip of `main` when given) at `t0 + seconds`.
    static func stored(
        in store: any SessionStore, at seconds: Double = 0, pipOf main: SessionID? = nil
    )
        async throws -> SessionID
    {
        try await PostgresSessionStoreTests.stored(in: store, at: seconds, pipOf: main).id
    }

    @Test(
        "Insert and load: the record comes back as written, version 0, its expiry its time to live after the insert; above its version, no record",
        arguments: Kind.runnable)
    func insertAndLoad(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let record = Memory.record()
            let reservation = try #require(try await store.reserve())
            #expect(try await store.insert(record, into: reservation, now: Self.at(5)) == Self.at(65))
            let found = try #require(
                try await store.load(record.id, now: Self.at(6), readAbove: nil, keptAlive: false).stored)
            #expect(found.record == record)
            #expect(found.version == 0)
            #expect(found.expiresAt == Self.at(66), "a load is activity")
            let above = try #require(
                try await store.load(record.id, now: Self.at(7), readAbove: 0, keptAlive: false).stored)
            #expect(above.record == nil, "the version asked to read above is the stored one")
            #expect(try await store.count() == 1)
            #expect(
                try await store.load(Memory.ids.issue(), now: Self.at(6), readAbove: nil, keptAlive: false).isNotFound,
                "an id never stored")
        }
    }

    @Test(
        "Expiry: a load past it finds the session expired, once, and removes it; kept alive by the replica, it is extended; touch only moves expiries later",
        arguments: Kind.runnable)
    func expiry(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let expired = try await Self.stored(in: store)
            let kept = try await Self.stored(in: store)
            let touched = try await Self.stored(in: store)
            #expect(try await store.load(expired, now: Self.at(61), readAbove: .max, keptAlive: false).isExpired)
            #expect(try await store.load(expired, now: Self.at(62), readAbove: .max, keptAlive: false).isNotFound)
            #expect(
                try await store.load(kept, now: Self.at(61), readAbove: .max, keptAlive: true).stored?.expiresAt
                    == Self.at(121))
            try await store.touch([
                SessionActivity(id: touched, expiresAt: Self.at(100)),
                SessionActivity(id: kept, expiresAt: Self.at(90)),
            ])
            #expect(try await store.expire(now: Self.at(99)).isEmpty, "touched to 100; kept stays at 121, not 90")
            #expect(Set(try await store.expire(now: Self.at(122))) == [touched, kept])
        }
    }

    @Test(
        "A live record is replaced only on the version it was based on (compare and swap); a session gone takes no write",
        arguments: Kind.runnable)
    func replaceLive(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            var record = Memory.record()
            let first = SessionRecord.Live(
                channelURL: "https://origin.test/live.m3u8",
                session: .init(
                    timeline: LiveTimeline(configuration: .init(targetDuration: 6)), decisions: [], served: []))
            record.kind = .live(first)
            let reservation = try #require(try await store.reserve())
            #expect(try await store.insert(record, into: reservation, now: Self.at(0)) != nil)
            var second = record
            second.kind = .live(
                SessionRecord.Live(channelURL: "https://origin.test/other.m3u8", session: first.session))
            #expect(try await store.replaceLive(second, version: 0))
            #expect(try await store.replaceLive(record, version: 0) == false, "a write based on version 0 again")
            let read = try #require(
                try await store.load(record.id, now: Self.at(1), readAbove: 0, keptAlive: false).stored)
            #expect(read.version == 1)
            #expect(read.record == second)
            #expect(try await store.replaceLive(record, version: 1))
            #expect(
                try await store.load(record.id, now: Self.at(2), readAbove: 1, keptAlive: false).stored?.version == 2)
            #expect(try await store.delete(record.id))
            #expect(try await store.replaceLive(record, version: 2) == false)
        }
    }

    @Test(
        "Live records written together: each lands only on its own version, the ids written are answered, a session gone takes none",
        arguments: Kind.runnable)
    func replaceLiveTogether(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let live = SessionRecord.Live(
                channelURL: "https://origin.test/live.m3u8",
                session: .init(
                    timeline: LiveTimeline(configuration: .init(targetDuration: 6)), decisions: [], served: []))
            var records: [SessionRecord] = []
            for _ in 0..<4 {
                var record = Memory.record()
                record.kind = .live(live)
                let reservation = try #require(try await store.reserve())
                #expect(try await store.insert(record, into: reservation, now: Self.at(0)) != nil)
                records.append(record)
            }
            #expect(try await store.delete(records[3].id))
            let moved = records.map { record -> SessionRecord in
                var moved = record
                moved.kind = .live(
                    SessionRecord.Live(channelURL: "https://origin.test/moved.m3u8", session: live.session))
                return moved
            }
            let written = try await store.replaceLive([
                LiveRecordWrite(moved[0], version: 0), LiveRecordWrite(moved[1], version: 5),
                LiveRecordWrite(moved[2], version: 0), LiveRecordWrite(moved[3], version: 0),
            ])
            #expect(written == [records[0].id, records[2].id], "the stale version and the deleted session are not")
            for (index, expected) in [(0, moved[0]), (1, records[1]), (2, moved[2])] {
                let read = try #require(
                    try await store.load(records[index].id, now: Self.at(1), readAbove: -1, keptAlive: false).stored)
                #expect(read.record == expected, "record \(index)")
                #expect(read.version == (index == 1 ? 0 : 1), "record \(index)")
            }
            #expect(try await store.replaceLive([LiveRecordWrite]()).isEmpty)
        }
    }

    @Test(
        "Places: maxSessions counts stored sessions and starts under way; a released place is free again",
        arguments: Kind.runnable)
    func places(kind: Kind) async throws {
        try await Self.withStore(kind, maxSessions: 2) { store in
            _ = try await Self.stored(in: store)
            let second = try #require(try await store.reserve())
            #expect(try await store.reserve() == nil, "one stored and one start under way: full")
            await store.release(second)
            await store.release(second)  // twice: nothing more is given back
            let again = try #require(try await store.reserve())
            #expect(try await store.reserve() == nil, "releasing twice gave back one place, not two")
            #expect(try await store.insert(Memory.record(), into: again, now: Self.at(0)) != nil)
            #expect(try await store.count() == 2)
            // The sweep gives the places back.
            let ids = try await store.expire(now: Self.at(61))
            #expect(ids.count == 2)
            #expect(try await store.count() == 0)
            #expect(try await store.reserve() != nil)
        }
    }

    /// A story entry numbered `n`, to tell entries apart.
    static func entry(_ n: Int) -> SessionStoryEntry {
        var entry = SessionStoryEntry(time: "2026-11-29T10:00:0\(n % 10).000Z", event: .adRequest)
        entry.url = "https://ads.example.com/vast?n=\(n)"
        entry.status = 200
        entry.milliseconds = n
        entry.renditions = ["v0": "creative variant \(n)"]
        return entry
    }

    @Test(
        "Stories: appended in order, the newest kept and the rest counted, none for a session not stored, gone with the session",
        arguments: Kind.runnable)
    func stories(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let id = try await Self.stored(in: store)
            #expect(try await store.story(of: id) == nil, "no story before the first entry")
            #expect(try await store.appendStory([Self.entry(1), Self.entry(2)], to: id, keep: 3))
            #expect(try await store.story(of: id) == SessionStory(entries: [Self.entry(1), Self.entry(2)], dropped: 0))
            #expect(try await store.appendStory([Self.entry(3), Self.entry(4)], to: id, keep: 3))
            #expect(
                try await store.story(of: id)
                    == SessionStory(entries: [Self.entry(2), Self.entry(3), Self.entry(4)], dropped: 1))
            let stranger = Memory.ids.issue()
            #expect(try await store.appendStory([Self.entry(5)], to: stranger, keep: 3) == false)
            #expect(try await store.story(of: stranger) == nil)
            #expect(try await store.delete(id))
            #expect(try await store.story(of: id) == nil)
            #expect(try await store.appendStory([Self.entry(6)], to: id, keep: 3) == false)
        }
    }

    @Test("The sweep names exactly the sessions it drops", arguments: Kind.runnable)
    func sweepNames(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let early = try await Self.stored(in: store, at: 0)
            let late = try await Self.stored(in: store, at: 30)
            #expect(try await store.expire(now: Self.at(61)) == [early])
            #expect(try await store.expire(now: Self.at(62)).isEmpty)
            #expect(try await store.expire(now: Self.at(91)) == [late])
        }
    }

    @Test(
        "Beacon claims: each event of an ad once, per (break, ad); a session gone claims nothing",
        arguments: Kind.runnable)
    func claims(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let id = try await Self.stored(in: store)
            #expect(
                try await store.claimBeacons([.impression, .start], breakNumber: 0, ad: 0, in: id) == [
                    .impression, .start,
                ])
            #expect(
                try await store.claimBeacons([.start, .firstQuartile], breakNumber: 0, ad: 0, in: id) == [
                    .firstQuartile
                ])
            #expect(try await store.claimBeacons([.impression], breakNumber: 0, ad: 1, in: id) == [.impression])
            #expect(try await store.claimBeacons([.impression], breakNumber: 1, ad: 0, in: id) == [.impression])
            #expect(try await store.delete(id))
            #expect(try await store.claimBeacons([.complete], breakNumber: 0, ad: 0, in: id) == [])
        }
    }

    @Test("Concurrent claims of the same events: each event fires once in all", arguments: Kind.runnable)
    func concurrentClaims(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let id = try await Self.stored(in: store)
            let events: [AdProgressEvent] = [.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete]
            let fired = try await withThrowingTaskGroup(of: [AdProgressEvent].self) { group in
                for _ in 0..<40 {
                    group.addTask { try await store.claimBeacons(events, breakNumber: 2, ad: 1, in: id) }
                }
                var all: [AdProgressEvent] = []
                for try await claimed in group { all += claimed }
                return all
            }
            #expect(fired.sorted { $0.rawValue < $1.rawValue } == events.sorted { $0.rawValue < $1.rawValue })
        }
    }

    @Test(
        "A picture-in-picture session claims in its main's set, which outlives the main while the pip lives",
        arguments: Kind.runnable)
    func pipClaims(kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let main = try await Self.stored(in: store)
            let pip = try await Self.stored(in: store, pipOf: main)
            #expect(try await store.claimBeacons([.impression], breakNumber: 0, ad: 0, in: pip) == [.impression])
            #expect(try await store.claimBeacons([.impression, .start], breakNumber: 0, ad: 0, in: main) == [.start])
            #expect(try await store.delete(main))
            #expect(
                try await store.claimBeacons([.impression, .start, .midpoint], breakNumber: 0, ad: 0, in: pip) == [
                    .midpoint
                ],
                "the main's set stays for its pip")
        }
    }
}

extension StoredLookup {
    /// Whether the store does not hold the session (never stored, deleted or swept).
    var isNotFound: Bool {
        if case .notFound = self { return true }
        return false
    }

    var isExpired: Bool {
        if case .expired = self { return true }
        return false
    }

    var stored: StoredSession? {
        if case .found(let stored) = self { return stored }
        return nil
    }
}
