import Foundation
import NIOCore
import Stitching
import Testing
@testable import SeamServer

/// The in-memory store on its own, driven by tables of events at given times (no sockets, no
/// sleeps): places and reservations, and beacon claims. Time to live, keep-alive, delete and the
/// sweep as a replica serves them are `SessionRuntimeTests`' table, run on this store and on
/// PostgreSQL; the store contract both keep is `SessionStoreConformanceTests`.
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

    /// The record of `session`, as the runtime writes it.
    static func record(_ session: SeamSession = session()) -> SessionRecord {
        SessionRecord(session, inputs: inputs)
    }

    /// Stores a session's record at `t0 + at`; its id.
    static func stored(in store: InMemorySessionStore, at seconds: Double = 0) throws -> SessionID {
        let record = record()
        let reservation = try #require(store.reserve())
        #expect(
            store.insert(record, into: reservation, now: t0.addingTimeInterval(seconds))
                == t0.addingTimeInterval(seconds + 60))
        return record.id
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
        #expect(store.insert(Self.record(a), into: first, now: Self.t0) != nil)
        #expect(store.insert(Self.record(), into: second, now: Self.t0) != nil)
        store.release(first)
        #expect(store.placesTaken == 2, "releasing a used reservation frees nothing")
        let last = try #require(store.reserve())
        #expect(store.reserve() == nil)
        #expect(
            store.insert(Self.record(), into: first, now: Self.t0) == nil,
            "a used reservation on a full store")
        #expect(store.delete(a.id))
        #expect(store.insert(Self.record(), into: last, now: Self.t0) != nil)
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
}
