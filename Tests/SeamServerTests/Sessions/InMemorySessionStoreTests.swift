import Foundation
import NIOCore
import Stitching
import Testing
@testable import SeamServer

/// The in-memory store on its own, driven by tables of events at given times (no sockets, no
/// sleeps): time to live and its extension, keep-alive, delete, the sweep, places and
/// reservations, and beacon claims.
@Suite struct InMemorySessionStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let ids = SessionIDKey.random()
    static let inputs = SessionInputs(
        request: SessionRequest(url: "https://origin.test/a.m3u8"), deviceIP: "203.0.113.9",
        userAgent: "TestPlayer/1", baseURL: "http://seam.test")

    static func session(_ id: SessionID = ids.issue()) -> SeamSession {
        .vod(
            StitchedSession(
                id: id, contentURL: "https://origin.test/a.m3u8", trackingMode: .server,
                multivariant: ByteBuffer(string: "#EXTM3U\n"), media: [:], gzipped: [:],
                tracking: TrackingDocument(
                    sessionId: id.value, trackingMode: .server, durationSeconds: 0, avails: [], cuePoints: []),
                adSegments: [:], beacons: [:], createdAt: t0, mode: .stitched,
                interstitials: InterstitialsRendering(
                    multivariant: ByteBuffer(string: "#EXTM3U\n"), gzippedMultivariant: nil, media: [:],
                    gzipped: [:], assetLists: [:], adAssets: [:], adAssetMedia: [:])))
    }

    /// Stores a session at `t0 + at`; its id.
    static func stored(in store: InMemorySessionStore, at seconds: Double = 0) throws -> SessionID {
        let session = session()
        let reservation = try #require(store.reserve())
        #expect(
            store.put(session, inputs: inputs, into: reservation, now: t0.addingTimeInterval(seconds))
                == t0.addingTimeInterval(seconds + 60))
        return session.id
    }

    enum Event {
        case get
        case touch
        case delete
        case sweep
    }

    enum Outcome: Equatable {
        case found
        case expired
        case notFound
        /// Touched: the new expiry, seconds after `t0`.
        case expires(Double)
        case gone
        case deleted(Bool)
        case swept(Int)
    }

    /// One session stored at 0 with a TTL of 60 s, then each event at its time.
    @Test(
        "Time to live: each request extends it, a late one finds the session expired, once; touch, delete and the sweep",
        arguments: [
            (
                "requests keep it alive",
                [
                    (50.0, Event.get, Outcome.found), (100, .get, .found), (159, .get, .found), (220, .get, .expired),
                    (221, .get, .notFound),
                ]
            ),
            ("exactly at its expiry it is still there", [(60.0, Event.get, Outcome.found), (120, .get, .found)]),
            (
                "keep-alive moves the expiry",
                [
                    (30.0, Event.touch, Outcome.expires(90)), (89, .get, .found), (148, .touch, .expires(208)),
                    (209, .touch, .gone), (210, .get, .notFound),
                ]
            ),
            ("a late keep-alive finds nothing", [(61.0, Event.touch, Outcome.gone), (61, .get, .notFound)]),
            (
                "delete",
                [
                    (10.0, Event.delete, Outcome.deleted(true)), (11, .get, .notFound), (12, .delete, .deleted(false)),
                    (13, .touch, .gone),
                ]
            ),
            (
                "the sweep takes only expired sessions",
                [
                    (59.0, Event.sweep, Outcome.swept(0)), (61, .sweep, .swept(1)), (62, .get, .notFound),
                    (63, .sweep, .swept(0)),
                ]
            ),
            (
                "a request before the sweep saves it",
                [(50.0, Event.get, Outcome.found), (100, .sweep, .swept(0)), (111, .sweep, .swept(1))]
            ),
        ])
    func timeToLive(_ name: String, events: [(Double, Event, Outcome)]) throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let id = try Self.stored(in: store)
        for (index, (seconds, event, expected)) in events.enumerated() {
            let now = Self.t0.addingTimeInterval(seconds)
            let outcome: Outcome
            switch event {
            case .get:
                switch store.get(id, now: now) {
                case .found(let session): outcome = session.id == id ? .found : .notFound
                case .expired: outcome = .expired
                case .notFound: outcome = .notFound
                }
            case .touch:
                outcome = store.touch(id, now: now).map { .expires($0.timeIntervalSince(Self.t0)) } ?? .gone
            case .delete:
                outcome = .deleted(store.delete(id))
            case .sweep:
                outcome = .swept(store.expire(now: now).count)
            }
            #expect(outcome == expected, "\(name), event \(index) (\(event) at \(seconds) s)")
        }
        // Whatever happened, the places follow the sessions stored.
        #expect(store.placesTaken == store.count())
    }

    @Test(
        "Places: reservations count against the limit; released or failed starts give theirs back; a removed session frees its place"
    )
    func places() throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 3)
        let first = try #require(store.reserve())
        let second = try #require(store.reserve())
        let third = try #require(store.reserve())
        #expect(store.reserve() == nil, "three starts under way fill three places")
        store.release(third)
        store.release(third)
        #expect(store.placesTaken == 2, "released twice, freed once")
        let a = Self.session()
        #expect(store.put(a, inputs: Self.inputs, into: first, now: Self.t0) != nil)
        #expect(store.put(Self.session(), inputs: Self.inputs, into: second, now: Self.t0) != nil)
        store.release(first)
        #expect(store.placesTaken == 2, "releasing a used reservation frees nothing")
        let last = try #require(store.reserve())
        #expect(store.reserve() == nil)
        #expect(
            store.put(Self.session(), inputs: Self.inputs, into: first, now: Self.t0) == nil,
            "a used reservation on a full store")
        #expect(store.delete(a.id))
        #expect(store.put(Self.session(), inputs: Self.inputs, into: last, now: Self.t0) != nil)
        #expect(store.count() == 2, "b and the last; a was deleted")
        #expect(store.placesTaken == 2)
        #expect(store.reserve() != nil, "a's place")
        #expect(store.expire(now: Self.t0.addingTimeInterval(61)).count == 2)
        #expect(store.placesTaken == 1, "the reservation still holds its place")
        #expect(store.reserve() != nil)
        #expect(store.reserve() != nil)
        #expect(store.reserve() == nil)
    }

    @Test("Beacon claims: each event of an ad is claimed once, per (break, ad); a session gone claims nothing")
    func claims() throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let id = try Self.stored(in: store)
        let table: [([AdProgressEvent], Int, Int, [AdProgressEvent])] = [
            ([.impression, .start], 0, 0, [.impression, .start]),
            ([.impression, .start], 0, 0, []),
            ([.start, .firstQuartile], 0, 0, [.firstQuartile]),
            ([.impression, .start], 0, 1, [.impression, .start]),
            ([.impression, .start], 1, 0, [.impression, .start]),
            ([.complete, .complete], 1, 0, [.complete]),
        ]
        for (index, (events, breakNumber, ad, expected)) in table.enumerated() {
            #expect(store.claimBeacons(events, breakNumber: breakNumber, ad: ad, in: id) == expected, "row \(index)")
        }
        #expect(store.delete(id))
        #expect(store.claimBeacons([.midpoint], breakNumber: 0, ad: 0, in: id) == [])
    }

    @Test("Beacon claims are atomic: of 100 concurrent claims of the same events, one gets each")
    func concurrentClaims() async throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let id = try Self.stored(in: store)
        let claimed = await withTaskGroup(of: [AdProgressEvent].self) { group in
            for number in 0..<100 {
                group.addTask {
                    store.claimBeacons(
                        number.isMultiple(of: 2) ? [.impression, .start] : [.start, .impression], breakNumber: 2, ad: 0,
                        in: id)
                }
            }
            var all: [AdProgressEvent] = []
            for await events in group { all += events }
            return all
        }
        #expect(claimed.sorted { $0.rawValue < $1.rawValue } == [.impression, .start])
    }

    @Test("Through the protocol: the same answers from `any SessionStore`")
    func throughTheProtocol() async throws {
        let store: any SessionStore = InMemorySessionStore(ttlSeconds: 60, maxSessions: 1)
        let session = Self.session()
        let reservation = try #require(try await store.reserve())
        #expect(try await store.reserve() == nil)
        #expect(
            try await store.put(session, inputs: Self.inputs, into: reservation, now: Self.t0)
                == Self.t0.addingTimeInterval(60))
        guard case .found(let found) = try await store.get(session.id, now: Self.t0.addingTimeInterval(1)) else {
            Issue.record("the stored session is not found")
            return
        }
        #expect(found.id == session.id)
        #expect(try await store.count() == 1)
        #expect(try await store.expire(now: Self.t0.addingTimeInterval(200)).count == 1)
        #expect(try await store.count() == 0)
    }
}
