import Foundation
import SeamDemo
import SeamKit
import SeamTesting
import Testing

/// `URLSessionBeaconFiring` against the demo ad server on loopback: what it sends arrives once,
/// what fails is counted and not retried.
@Suite struct AdEventBeaconTests {
    @Test func beaconsReachTheAdServerOnceAndFailuresAreCounted() async throws {
        try await DemoTestSupport.withServers { demo in
            let firing = URLSessionBeaconFiring()
            let base = demo.adServer.baseURL
            let impression = try #require(URL(string: base + "/track/kit-ad/impression"))
            let start = try #require(URL(string: base + "/track/kit-ad/start"))
            await firing.fire([impression, start])
            #expect(firing.sent == 2)
            #expect(firing.failures == 0)

            await demo.beaconLog.failNextBeacons(1, status: 500)
            let midpoint = try #require(URL(string: base + "/track/kit-ad/midpoint"))
            // Port 1 on loopback: nothing listens.
            let unreachable = try #require(URL(string: "http://127.0.0.1:1/track/kit-ad/complete"))
            await firing.fire([midpoint])
            await firing.fire([unreachable])
            #expect(firing.sent == 2)
            #expect(firing.failures == 2)

            #expect(await demo.beaconLog.count(path: "/track/kit-ad/impression") == 1)
            #expect(await demo.beaconLog.count(path: "/track/kit-ad/start") == 1)
            // Recorded once with its failure, and not tried again.
            #expect(await demo.beaconLog.count(path: "/track/kit-ad/midpoint") == 1)
        }
    }
}
