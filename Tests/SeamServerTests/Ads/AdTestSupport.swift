import Foundation
import Logging
import NIOCore
import Testing
import VAST
import SeamTesting
@testable import SeamServer
import Stitching

/// Runs `body` with an `AdDecisionClient` over `upstream` and a running beacon dispatcher; waits
/// for the beacons to be sent before returning, so tests can read what was fired.
func withAdClient<T: Sendable>(
    upstream: some UpstreamFetching,
    ads: SeamConfiguration.Ads = generousAds,
    _ body: @Sendable (AdDecisionClient) async throws -> T
) async throws -> T {
    var beaconConfiguration = SeamConfiguration.Beacons()
    beaconConfiguration.maxAttempts = 1
    let beacons = BeaconDispatcher(upstream: upstream, configuration: beaconConfiguration, logger: quietLogger)
    let client = AdDecisionClient(upstream: upstream, configuration: ads, beacons: beacons, logger: quietLogger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await beacons.run() }
        defer { group.cancelAll() }
        let result = try await body(client)
        await beacons.drain()
        return result
    }
}

extension AdBreakDecision {
    var skippedIDs: [String] { skippedAds.map(\.adID) }
}

/// A context with the device and consent values most tests want.
func sampleContext(breakPosition: BreakPosition = .preroll) -> AdRequestContext {
    var context = AdRequestContext(
        sessionID: "sess-1", contentURL: "https://cdn.example/title/master.m3u8", breakPosition: breakPosition)
    context.deviceIP = "203.0.113.7"
    context.userAgent = "TestPlayer/1.0 (SmartTV)"
    return context
}

func farDeadline() -> ContinuousClock.Instant { .now + .seconds(30) }

/// The ad configuration of a test that is not about time-outs: the stack's generous ones
/// (`SeamStack.generousAdRequestSeconds`), so a loaded machine's stall of a few seconds never
/// turns an in-memory answer into ADS_TIMEOUT (the 2 s default did, in a stress run). A test
/// about time-outs passes its own.
let generousAds: SeamConfiguration.Ads = {
    var ads = SeamConfiguration.Ads()
    ads.requestTimeoutSeconds = SeamStack.generousAdRequestSeconds
    ads.totalBudgetSeconds = SeamStack.generousAdBudgetSeconds
    return ads
}()
