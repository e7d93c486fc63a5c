import Foundation
import NIOCore
import Stitching
import Testing
@testable import SeamServer

/// The in-memory store's shared claim sets, driven by tables of events (no sockets, no sleeps):
/// a picture-in-picture session claims server-side beacons in its main's set, which outlives the
/// main while a pip uses it and goes with the last of them.
@Suite struct PipClaimSetTests {
    static let t0 = InMemorySessionStoreTests.t0

    static func pip(of main: SessionID) -> SeamSession {
        guard case .vod(let session) = InMemorySessionStoreTests.session() else { preconditionFailure("a VOD session") }
        return .vod(
            StitchedSession(
                id: session.id, contentURL: session.contentURL, trackingMode: .server,
                multivariant: session.multivariant,
                media: [:], gzipped: [:], tracking: session.tracking, adSegments: [:], beacons: [:], createdAt: t0,
                mode: .stitched, interstitials: session.interstitials, pipOf: main))
    }

    /// Who does what: `main`, `pip` (of main) and `second` (another pip of main).
    enum Who: String {
        case main, pip, second
    }

    enum Event {
        /// Claims `start` and `complete` of ad 0 of break 0; what fired.
        case claim(Who, [AdProgressEvent], fires: [AdProgressEvent])
        case delete(Who)
        /// Sweeps at this many seconds after t0 (the TTL is 60 s); what it removed.
        case sweep(Double, removed: Int)
        case touch(Who, Double)
        /// Claim sets a removed main left behind.
        case retired(Int)
    }

    @Test(
        "Main and pips share one claim set for as long as any of them lives",
        arguments: [
            (
                "the pip's claim counts for the main",
                [
                    Event.claim(.pip, [.impression, .start], fires: [.impression, .start]),
                    .claim(.main, [.impression, .start, .complete], fires: [.complete]),
                    .claim(.second, [.complete], fires: []),
                ]
            ),
            (
                "deleting the main keeps its set for the pips",
                [
                    Event.claim(.main, [.impression], fires: [.impression]), .delete(.main), .retired(1),
                    .claim(.pip, [.impression, .start], fires: [.start]),
                    .claim(.second, [.start], fires: []),
                    .delete(.pip), .retired(1), .delete(.second), .retired(0),
                ]
            ),
            (
                "a main without pips leaves nothing behind",
                [Event.delete(.pip), .delete(.second), .delete(.main), .retired(0)]
            ),
            (
                "an expired main's set stays for a pip kept alive",
                [
                    Event.claim(.main, [.impression], fires: [.impression]),
                    .touch(.pip, 50), .touch(.second, 50), .sweep(70, removed: 1), .retired(1),
                    .claim(.pip, [.impression], fires: []),
                    .sweep(200, removed: 2), .retired(0),
                ]
            ),
            (
                "a removed session fires nothing",
                [
                    Event.delete(.pip), .claim(.pip, [.impression], fires: []),
                    .claim(.main, [.impression], fires: [.impression]),
                ]
            ),
        ])
    func sharedClaims(_ name: String, events: [Event]) throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 10)
        let main = try InMemorySessionStoreTests.stored(in: store)
        var ids: [Who: SessionID] = [.main: main]
        for who in [Who.pip, .second] {
            let session = Self.pip(of: main)
            let reservation = try #require(store.reserve())
            #expect(
                store.insert(InMemorySessionStoreTests.record(session), into: reservation, now: Self.t0) != nil)
            ids[who] = session.id
        }
        for (step, event) in events.enumerated() {
            switch event {
            case .claim(let who, let events, let fires):
                let id = try #require(ids[who])
                #expect(store.claimBeacons(events, breakNumber: 0, ad: 0, in: id) == fires, "\(name), step \(step)")
            case .delete(let who):
                #expect(store.delete(try #require(ids[who])), "\(name), step \(step)")
            case .sweep(let seconds, let removed):
                #expect(
                    store.expire(now: Self.t0.addingTimeInterval(seconds)).count == removed, "\(name), step \(step)")
            case .touch(let who, let seconds):
                #expect(
                    store.load(
                        try #require(ids[who]), now: Self.t0.addingTimeInterval(seconds), readAbove: .max,
                        keptAlive: false
                    ).stored != nil,
                    "\(name), step \(step)")
            case .retired(let count):
                #expect(store.retiredClaimSets == count, "\(name), step \(step)")
            }
        }
        // Another ad of the same break is its own: nothing of ad 0 fired for it.
        if let alive = ids.values.first(where: {
            store.load($0, now: Self.t0, readAbove: .max, keptAlive: false).stored != nil
        }) {
            #expect(store.claimBeacons([.impression], breakNumber: 0, ad: 1, in: alive) == [.impression])
        }
    }

    @Test("Places: a pip takes its own, and gives it back when it goes")
    func places() throws {
        let store = InMemorySessionStore(ttlSeconds: 60, maxSessions: 2)
        let main = try InMemorySessionStoreTests.stored(in: store)
        let pip = Self.pip(of: main)
        #expect(
            store.insert(InMemorySessionStoreTests.record(pip), into: try #require(store.reserve()), now: Self.t0)
                != nil)
        #expect(store.reserve() == nil)
        #expect(store.delete(main))
        #expect(store.placesTaken == 1)
        #expect(store.count() == 1)
        #expect(store.delete(pip.id))
        #expect(store.placesTaken == 0)
        #expect(store.retiredClaimSets == 0)
    }
}
