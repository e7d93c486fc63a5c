import DASH
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import SeamDemo
import SeamTesting
import Testing
@testable import SeamServer

/// A live DASH session across replicas on one PostgreSQL: started on one replica, taken up by
/// another from its record with the same periods (ids, starts, the ad's), without asking the ad
/// server again. The demo origin's live DASH channel over loopback, its clock held by the test
/// (`LiveDASHEndToEndTests`), two Seam apps in process on the real database.
@Suite(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason), .serialized)
struct PostgresLiveDASHRevivalTests {
    static func replica(
        _ store: PostgresSessionStore, demo: DemoServers, ids: SessionIDKey, upstream: SafeUpstreamClient
    ) throws -> some ApplicationProtocol {
        var configuration = SeamConfiguration()
        configuration.upstream.allowPrivateNetworks = true
        configuration.live.originCacheSeconds = 0.001
        configuration.ads.adTagURL = demo.vmapURL
        configuration.ads.trackingMode = "server"
        SeamStack.useGenerousTimeOuts(&configuration)
        let logger = FaultMatrixApp.quietLogger
        let metrics = SeamMetrics()
        let services = SeamServices(
            configuration: configuration, logger: logger, upstream: upstream,
            domainMatcher: try DomainMatcher(configuration: configuration.domains), metrics: metrics, sessionIDs: ids)
        let dispatcher = BeaconDispatcher(upstream: upstream, configuration: configuration.beacons, logger: logger)
        let ads = AdDecisionClient(
            upstream: upstream, configuration: configuration.ads, beacons: dispatcher, logger: logger)
        let routes = SessionRoutes(services: services, ads: ads, beacons: RecordedBeacons(), store: store)
        return buildSeamApplication(
            configuration: configuration, logger: logger, routes: [routes], metrics: services.metrics)
    }

    static func periods(_ body: String) throws -> [String] {
        try MPD(parsing: body).periods.map { "\($0.id ?? "?")@\($0.element[attribute: "start"] ?? "?")" }
    }

    @Test func aLiveDASHSessionIsTakenUpByAnotherReplicaWithTheSamePeriods() async throws {
        let clock = LiveDASHEndToEndTests.OriginClock(LiveDASHEndToEndTests.epoch + 116)
        var settings = DemoTestSupport.configuration()
        settings.liveEpoch = LiveDASHEndToEndTests.epoch
        settings.liveClock = { clock.now }
        let demo = try await DemoServers.start(settings)
        do {
            try await PostgresTestDatabase.withStores(2) { stores in
                let ids = SessionIDKey.random()
                var configuration = SeamConfiguration()
                configuration.upstream.allowPrivateNetworks = true
                let upstreams = try (0..<2).map { _ in
                    try SafeUpstreamClient(configuration: configuration, logger: FaultMatrixApp.quietLogger)
                }
                let a = try Self.replica(stores[0], demo: demo, ids: ids, upstream: upstreams[0])
                let b = try Self.replica(stores[1], demo: demo, ids: ids, upstream: upstreams[1])
                do {
                    try await Self.takeUp(a, b, demo: demo, clock: clock)
                } catch {
                    for upstream in upstreams { try? await upstream.shutdown() }
                    throw error
                }
                for upstream in upstreams { try await upstream.shutdown() }
            }
        } catch {
            await demo.stop()
            throw error
        }
        await demo.stop()
    }

    static func takeUp(
        _ a: some ApplicationProtocol, _ b: some ApplicationProtocol, demo: DemoServers,
        clock: LiveDASHEndToEndTests.OriginClock
    ) async throws {
        try await a.test(.router) { first in
            try await b.test(.router) { second in
                let created = try await first.call(
                    "/v1/sessions", method: .post, json: ["url": demo.liveDASHURL])
                #expect(created.status == 201, "\(created.body)")
                let manifest = try #require(created.json["manifestUrl"] as? String)
                let onA = try await first.call(manifest)
                #expect(onA.status == 200, "\(onA.body)")
                #expect(try Self.periods(onA.body) == ["seam-content-78000@PT78S", "seam-ad-1-0@PT102S"])
                let adRequests = await demo.beaconLog.snapshot().adRequests.count

                // A is lost; the origin moves on past the break. B takes the session up.
                clock.set(LiveDASHEndToEndTests.epoch + 134)
                let onB = try await second.call(manifest)
                #expect(onB.status == 200, "\(onB.body)")
                #expect(
                    try Self.periods(onB.body) == [
                        "seam-content-78000@PT78S", "seam-ad-1-0@PT102S", "seam-content-126000@PT126S",
                    ], "\((try? Self.periods(onB.body)) ?? [])")
                // The same decision: no new ad request, and the ad's segments through B.
                let after = await demo.beaconLog.snapshot().adRequests.count
                #expect(after == adRequests)
                let session = manifest.replacingOccurrences(of: "/manifest.mpd", with: "")
                let segment = try await second.call(session + "/ad/1/0/v0/3.m4s")
                #expect(segment.status == 302, "\(segment.body)")
            }
        }
    }
}
