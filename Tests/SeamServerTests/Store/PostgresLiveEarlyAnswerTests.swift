import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOPosix
import SeamTesting
import Testing

@testable import SeamServer

/// Live reloads on a store replicas share are answered on the network thread
/// (`CachedPlaylistHandler`) as on a store only the process reads, except a reload whose answer
/// shows a break's decision the session's record does not hold yet: that one goes to the
/// router's path, which writes the record before answering (`SessionRuntime.answersWithoutWaiting`),
/// so another replica taking the session up serves what the player saw. Real sockets to replica
/// A (the handler sits in its channel pipeline), the test's clock, the real database.
@Suite(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason), .serialized)
struct PostgresLiveEarlyAnswerTests {
    @Test(
        "On PostgreSQL a live reload is answered early, except the one that first shows a break's decision: the record is written before it, and another replica serves the same ads"
    )
    func earlyOnASharedStore() async throws {
        try await PostgresTestDatabase.withStores(2, cacheSeconds: 30) { stores in
            let origin = ScriptedLiveOrigin()
            let clock = TestClock()
            let ids = SessionIDKey.random()
            let beacons = RecordedBeacons()
            let metrics = SeamMetrics()
            let a = try PostgresLiveRevivalTests.replica(
                stores[0], origin: origin, clock: clock, ids: ids, beacons: beacons, metrics: metrics)
            let b = try PostgresLiveRevivalTests.replica(
                stores[1], origin: origin, clock: clock, ids: ids, beacons: beacons)
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            // Stopped however the test ends (a thread each otherwise).
            do {
                try await replicas(a, b, group: group, origin: origin, clock: clock, metrics: metrics)
            } catch {
                try? await group.shutdownGracefully()
                throw error
            }
            try? await group.shutdownGracefully()
        }
    }

    func replicas(
        _ a: some ApplicationProtocol, _ b: some ApplicationProtocol, group: MultiThreadedEventLoopGroup,
        origin: ScriptedLiveOrigin, clock: TestClock, metrics: SeamMetrics
    ) async throws {
        try await a.test(.live) { first in
            let port = try #require(first.port)
            let created = try await first.call(
                "/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.json["sessionId"] as? String)
            let stitched = "/v1/sessions/\(id)/media/v0.m3u8"
            let early: @Sendable () -> Double = {
                ConnectionHarness.value("seam_http_playlists_answered_early_total", metrics) ?? 0
            }
            /// A player's reload on a connection of its own (kept alive: the handler may answer it).
            @Sendable func reload() async throws -> (body: String, early: Bool) {
                let before = early()
                let answer = try await PlaylistsAnsweredEarlyTests.answer(
                    stitched, port: port, headers: [], close: false, group: group)
                #expect(answer.status == "HTTP/1.1 200 OK")
                return (String(decoding: answer.body, as: UTF8.self), early() > before)
            }
            // The window is fetched on the router's way once; from then on it is at hand.
            _ = try await first.call(stitched)
            #expect(try await reload().early, "a reload of a live session held on PostgreSQL went to the router")
            #expect(PostgresLiveRevivalTests.liveWrites(metrics).before == 0)

            // A break whose decision waits for the ad server: the reloads meanwhile show
            // nothing the record lacks.
            origin.update {
                $0.holdingAds = true
                $0.last = 21
                $0.cueOuts[21] = 20
            }
            clock.advance(.milliseconds(1100))
            _ = try await first.call(stitched)
            let pending = try await reload()
            #expect(pending.early, "a reload while the break's decision is pending went to the router")
            #expect(!pending.body.contains("/ad/0/"))
            #expect(PostgresLiveRevivalTests.liveWrites(metrics).before == 0)

            // The decision lands. The reload that first shows it is the router's, its record
            // written before the answer; the reloads after it are answered early again.
            origin.releaseAds()
            let shown = NIOLockedValueBox<(early: Bool, before: Int)?>(nil)
            let replaced = await liveEventually {
                guard let answer = try? await reload(), answer.body.contains("/ad/0/") else { return false }
                shown.withLockedValue { $0 = (answer.early, PostgresLiveRevivalTests.liveWrites(metrics).before) }
                return true
            }
            #expect(replaced, "the break was not replaced")
            let firstShown = try #require(shown.withLockedValue { $0 })
            #expect(!firstShown.early, "the answer that first showed the decision did not wait for the record")
            #expect(firstShown.before == 1, "the decision was not written before the answer that showed it")
            let after = try await reload()
            #expect(after.early, "a reload after the decision was written went to the router")
            #expect(after.body.contains("/ad/0/"))
            #expect(PostgresLiveRevivalTests.liveWrites(metrics).before == 1)

            // Replica B, which never held the session, takes it up from its record: the same
            // ad segments, no second ad request.
            let adRequests = origin.requests("vast.xml")
            let onA = PostgresLiveRevivalTests.adSegments(try MediaPlaylist(parsing: after.body))
            #expect(!onA.isEmpty)
            try await b.test(.router) { second in
                let onB = PostgresLiveRevivalTests.adSegments(
                    try await PostgresLiveRevivalTests.media(second, stitched))
                #expect(onB == onA)
            }
            #expect(origin.requests("vast.xml") == adRequests)
        }
    }
}
