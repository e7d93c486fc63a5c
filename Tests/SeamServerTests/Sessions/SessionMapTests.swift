import Foundation
import Testing
@testable import SeamServer

/// The runtime's map of sessions on its own, driven by tables of events at given times (no
/// database, no sleeps): over a shared store, what is trusted with and without the store's
/// changes heard, a change racing a read, and the activity written back; over the in-memory
/// store, everything held until its local expiry.
@Suite struct SessionMapTests {
    typealias Memory = InMemorySessionStoreTests
    static func at(_ seconds: Double) -> Date { Memory.t0.addingTimeInterval(seconds) }

    enum Event {
        /// A read of PostgreSQL begins (the mark is kept by its number).
        case beginRead(Int)
        /// The read numbered so ends, confirming the session with expiry `now + 60`.
        case storeRead(Int)
        case endRead(Int)
        case listening
        case lost
        /// A notification names the session: deleted (nil) or written as a version.
        case named(Int64?)
        case lookup
        case evict
    }

    enum Answer: Equatable {
        case fresh
        case stale(aliveLocally: Bool)
        case missing
        case done
    }

    /// One VOD session, cache time 2 s, TTL 60 s; each event at its time and what a lookup said.
    static let table: [(String, [(Double, Event, Answer)])] = [
        (
            "without notifications: trusted for cacheSeconds after a read, then checked again",
            [
                (0, .beginRead(1), .done), (0, .storeRead(1), .done), (0, .endRead(1), .done),
                (1.9, .lookup, .fresh), (2.1, .lookup, .stale(aliveLocally: true)),
            ]
        ),
        (
            "listening: trusted until its local expiry, each hit moving it",
            [
                (0, .listening, .done), (0, .beginRead(1), .done), (0, .storeRead(1), .done), (0, .endRead(1), .done),
                (30, .lookup, .fresh), (89, .lookup, .fresh), (148, .lookup, .fresh),
                (209, .lookup, .stale(aliveLocally: false)),
            ]
        ),
        (
            "a delete notified: gone at once",
            [
                (0, .listening, .done), (0, .beginRead(1), .done), (0, .storeRead(1), .done), (0, .endRead(1), .done),
                (1, .named(nil), .done), (1, .lookup, .missing),
            ]
        ),
        (
            "listening lost: entries fall back to cacheSeconds; back again, an entry read before is not trusted until read again",
            [
                (0, .listening, .done), (0, .beginRead(1), .done), (0, .storeRead(1), .done), (0, .endRead(1), .done),
                (10, .lookup, .fresh), (11, .lost, .done), (11, .lookup, .stale(aliveLocally: true)),
                (12, .listening, .done), (12, .lookup, .stale(aliveLocally: true)),
                (12, .beginRead(2), .done), (12, .storeRead(2), .done), (12, .endRead(2), .done), (40, .lookup, .fresh),
            ]
        ),
        (
            "a read that began before listening started is not trusted by notifications",
            [
                (0, .beginRead(1), .done), (0, .listening, .done), (0, .storeRead(1), .done), (0, .endRead(1), .done),
                (1, .lookup, .fresh), (3, .lookup, .stale(aliveLocally: true)),
            ]
        ),
        (
            "a delete notified while a read that still saw the row was on its way: stored, trusted for cacheSeconds only",
            [
                (0, .listening, .done), (0, .beginRead(1), .done), (0, .named(nil), .done), (0, .storeRead(1), .done),
                (0, .endRead(1), .done),
                (1, .lookup, .fresh), (2.5, .lookup, .stale(aliveLocally: true)),
            ]
        ),
        (
            "a notification before the read began does not taint it",
            [
                (0, .listening, .done), (0, .named(nil), .done), (0, .beginRead(1), .done), (0, .storeRead(1), .done),
                (0, .endRead(1), .done),
                (30, .lookup, .fresh),
            ]
        ),
        (
            "two reads open, the older one tainted, the newer one not",
            [
                (0, .listening, .done), (0, .beginRead(1), .done), (0, .named(nil), .done), (0, .beginRead(2), .done),
                (0, .storeRead(2), .done), (0, .endRead(2), .done), (30, .lookup, .fresh),
                (30, .storeRead(1), .done), (30, .endRead(1), .done), (31, .lookup, .fresh),
                (33, .lookup, .stale(aliveLocally: true)),
            ]
        ),
        (
            "the local expiry passed: evicted",
            [
                (0, .beginRead(1), .done), (0, .storeRead(1), .done), (0, .endRead(1), .done),
                (59, .evict, .done), (59, .lookup, .stale(aliveLocally: true)), (61, .evict, .done),
                (61, .lookup, .missing),
            ]
        ),
    ]

    /// Every session this replica holds has an entry: its fields pack into seven words, and an
    /// epoch and a saved version read back as they were set, nil included.
    @Test func anEntryPacksItsFieldsAndKeepsThem() {
        #expect(MemoryLayout<SessionMap.Entry>.stride <= 56)
        let session = Memory.session()
        for epoch in [nil, 0, 7, UInt64.max - 1] as [UInt64?] {
            for saved in [nil, SessionMap.Saved(version: 3, changes: 12)] {
                var entry = SessionMap.Entry(
                    session: session, expiresAt: Self.at(1), storedExpiresAt: Self.at(2), checkedAt: Self.at(0),
                    epoch: epoch, saved: saved)
                #expect(entry.epoch == epoch && entry.saved == saved)
                entry.epoch = nil
                #expect(entry.epoch == nil && entry.saved == saved)
            }
        }
        #expect(SessionMap.Saved(version: 1, changes: Int.max).changes == Int(Int32.max))
    }

    @Test("Trust, notifications and races, as a table", arguments: Self.table)
    func play(name: String, events: [(Double, Event, Answer)]) {
        let cache = SessionMap(trust: .confirmed(seconds: 2), ttlSeconds: 60)
        let session = Memory.session()
        var marks: [Int: SessionMap.ReadMark] = [:]
        for (index, (seconds, event, expected)) in events.enumerated() {
            let now = Self.at(seconds)
            var result = Answer.done
            switch event {
            case .beginRead(let n): marks[n] = cache.beginRead()
            case .storeRead(let n):
                cache.store(session, expiresAt: now.addingTimeInterval(60), now: now, mark: marks[n]!)
            case .endRead(let n): cache.endRead(marks[n]!)
            case .listening: cache.listeningStarted()
            case .lost: cache.listeningStopped()
            case .named(let version): cache.changed(session.id, version: version)
            case .evict: cache.evict(before: now)
            case .lookup:
                switch cache.lookup(session.id, now: now) {
                case .fresh: result = .fresh
                case .stale(_, let alive, _): result = .stale(aliveLocally: alive)
                case .missing: result = .missing
                }
            }
            #expect(result == expected, "\(name): event \(index) (\(event) at \(seconds) s)")
        }
    }

    /// A listening cache holding one VOD session, confirmed at 0 with expiry 60.
    static func listeningCacheHolding(expiryLead: Double? = nil) -> (SessionMap, SeamSession) {
        let cache = SessionMap(trust: .confirmed(seconds: 2), ttlSeconds: 60, expiryLead: expiryLead)
        let session = Memory.session()
        cache.listeningStarted()
        let mark = cache.beginRead()
        cache.store(session, expiresAt: at(60), now: at(0), mark: mark)
        cache.endRead(mark)
        return (cache, session)
    }

    @Test("Activity served from the cache is written back once, later expiries only; a failed write is written again")
    func activity() {
        let (cache, session) = Self.listeningCacheHolding(expiryLead: 0)
        #expect(cache.unflushedExpiries().isEmpty, "nothing served yet")
        guard case .fresh = cache.lookup(session.id, now: Self.at(10)) else { Issue.record("not fresh"); return }
        let first = cache.unflushedExpiries()
        #expect(first == [SessionMap.PendingExpiry(id: session.id, expiresAt: Self.at(70), previous: Self.at(60))])
        #expect(cache.unflushedExpiries().isEmpty, "written once")
        _ = cache.lookup(session.id, now: Self.at(20))
        let second = cache.unflushedExpiries()
        #expect(second.map(\.expiresAt) == [Self.at(80)])
        cache.flushFailed(second)
        #expect(cache.unflushedExpiries().map(\.expiresAt) == [Self.at(80)], "given back after a failed write")
    }

    @Test(
        "A shared store is told an expiry a tenth of the TTL ahead, and told again only once requests move it past that"
    )
    func activityAhead() {
        #expect(SessionMap.expiryLead(trust: .confirmed(seconds: 2), ttlSeconds: 60) == 6)
        #expect(SessionMap.expiryLead(trust: .confirmed(seconds: 2), ttlSeconds: 3600) == 30, "at most 30 s")
        #expect(SessionMap.expiryLead(trust: .always, ttlSeconds: 60) == 0, "a store in this process: exact")
        #expect(SessionMap.expiryLead(trust: .never, ttlSeconds: 60) == 0)
        let (cache, session) = Self.listeningCacheHolding()  // TTL 60: a lead of 6 s
        _ = cache.lookup(session.id, now: Self.at(10))
        #expect(
            cache.unflushedExpiries() == [
                SessionMap.PendingExpiry(id: session.id, expiresAt: Self.at(76), previous: Self.at(60))
            ])
        // Requests that keep the expiry within what the store was told write nothing.
        _ = cache.lookup(session.id, now: Self.at(13))
        _ = cache.lookup(session.id, now: Self.at(16))
        #expect(cache.unflushedExpiries().isEmpty, "73 and 76 are within the 76 told")
        _ = cache.lookup(session.id, now: Self.at(17))
        let again = cache.unflushedExpiries()
        #expect(again.map(\.expiresAt) == [Self.at(83)], "77 passed what was told: told again, 6 s ahead")
        cache.flushFailed(again)
        #expect(cache.unflushedExpiries().map(\.expiresAt) == [Self.at(83)], "given back after a failed write")
    }

    @Test(
        "Over a store in this process (trust always): held entries are fresh until their local expiry, long past any confirmation time"
    )
    func trustedAlways() {
        let map = SessionMap(trust: .always, ttlSeconds: 60)
        let session = Memory.session()
        let mark = map.beginRead()
        map.store(session, expiresAt: Self.at(60), now: Self.at(0), mark: mark)
        map.endRead(mark)
        for seconds in stride(from: 10.0, through: 500, by: 50) {
            guard case .fresh = map.lookup(session.id, now: Self.at(seconds)) else {
                Issue.record("not fresh at \(seconds) s"); return
            }
        }
        guard case .stale(_, aliveLocally: false, _) = map.lookup(session.id, now: Self.at(561)) else {
            Issue.record("fresh past its local expiry"); return
        }
    }

    @Test("A VOD session's record rewritten elsewhere (a notification with a version): the entry goes")
    func rewritten() {
        let (cache, session) = Self.listeningCacheHolding()
        cache.changed(session.id, version: 0)
        guard case .missing = cache.lookup(session.id, now: Self.at(1)) else { Issue.record("kept"); return }
    }

    @Test("Notification payloads: changes with writer, id and version; heartbeats; anything else ignored")
    func payloads() throws {
        let id = Memory.ids.issue()
        typealias Message = PostgresSessionListener.Message
        #expect(Message("seam-abc \(id.value) 3") == .changed(writer: "seam-abc", id: id, version: 3))
        #expect(Message("psql \(id.value) -1") == .changed(writer: "psql", id: id, version: nil))
        #expect(Message(" \(id.value) -1") == .changed(writer: "", id: id, version: nil))
        #expect(Message("seam-abc heartbeat 12") == .heartbeat(sender: "seam-abc", number: 12))
        #expect(Message("seam-abc heartbeat x") == nil)
        #expect(Message("seam-abc \(id.value)") == nil)
        #expect(Message("seam-abc not-an-id 3") == nil)
        #expect(Message("") == nil)
    }
}
