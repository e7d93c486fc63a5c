import Foundation
import SeamTesting
import Testing

/// `ads.requestsPerSecond` with a real ad server: sessions started together are all decided, and
/// their ad requests are spread to the cap rather than sent at once.
@Suite struct AdRequestShapingEndToEndTests {
    @Test(
        "Four sessions started together: every request waits its turn under the host's cap, and every session gets its ads"
    )
    func spreadToTheCap() async throws {
        let rate = 4.0
        try await SeamStack.run({ configuration in
            configuration.ads.requestsPerSecond = ["127.0.0.1=\(Int(rate))"]
        }) { stack in
            let started = ContinuousClock.now
            // The tracking URL of each session, all four started together.
            let sessions = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { try #require(try await stack.createSession()["trackingUrl"] as? String) }
                }
                var all: [String] = []
                for try await session in group { all.append(session) }
                return all
            }
            let elapsed = started.duration(to: .now)
            let log = try await stack.request(stack.demo.beaconsURL).json
            let requests = (log["adRequests"] as? [[String: Any]] ?? []).count
            #expect(requests >= 8, "\(requests) ad requests")
            // A burst of one second's worth, then one per 1/rate seconds: the last request cannot
            // have been let go before this (a slower machine only takes longer).
            let floor = Double(requests) / rate - 1 - 0.05
            #expect(elapsed >= .milliseconds(Int64(floor * 1000)), "\(requests) requests in \(elapsed)")
            // Every session's breaks were decided with ads: the cap delays, it does not drop.
            for session in sessions {
                let tracking = try await stack.request(session).json
                let avails = tracking["avails"] as? [[String: Any]] ?? []
                #expect(avails.count == 3)
                #expect(avails.allSatisfy { ($0["ads"] as? [Any])?.isEmpty == false }, "\(avails)")
            }
            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(
                metrics.sum("seam_ad_requests_shaped_total", ["host": "127.0.0.1", "outcome": "sent"])
                    == Double(requests))
            #expect(metrics.sum("seam_ad_requests_shaped_total", ["outcome": "expired"]) == 0)
            #expect(metrics.sum("seam_ad_requests_shaped_waiting", ["host": "127.0.0.1"]) == 0)
        }
    }
}
