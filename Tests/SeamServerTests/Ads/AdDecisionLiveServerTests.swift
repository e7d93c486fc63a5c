import HTTPTypes
import Hummingbird
import Testing
import VAST
import SeamTesting
@testable import SeamServer
import Stitching

/// Time-outs and headers against a real HTTP server on loopback, through AsyncHTTPClient.
@Suite("AdDecision: live ad server", .timeLimit(.minutes(1)))
struct AdDecisionLiveServerTests {
    /// The ad tag asked of a server that never answers (it is let go only when the test ends),
    /// within `ads`' budget, and how long the answer took.
    private func askServerThatNeverAnswers(
        upstream: some UpstreamFetching, ads: SeamConfiguration.Ads
    ) async throws -> (AdTagAnswer, Duration) {
        let held = LiveTestGate()
        return try await withLiveServer({ router in
            router.get("slow") { _, _ -> String in
                await held.wait()
                return "<VAST version=\"4.2\"/>"
            }
        }) { base in
            defer { held.open() }
            return try await withAdClient(upstream: upstream, ads: ads) { client in
                let start = ContinuousClock.now
                let answer = await client.requestAdTag(
                    context: sampleContext(), template: base + "/slow",
                    deadline: start + .seconds(ads.totalBudgetSeconds))
                return (answer, ContinuousClock.now - start)
            }
        }
    }

    /// An ad server that never answers (it is let go only when the test ends): the request ends
    /// at the 2 s per-request time-out, not at the 30 s budget. The detail names the time-out,
    /// and the wait was at least that long; no wall-clock upper bound, which a busy machine
    /// could break.
    @Test func slowAdServerTimesOutAtThePerRequestLimit() async throws {
        let fetcher = HTTPClientFetcher()
        var settings = SeamConfiguration.Ads()
        settings.requestTimeoutSeconds = 2
        settings.totalBudgetSeconds = 30
        let (answer, elapsed) = try await askServerThatNeverAnswers(upstream: fetcher, ads: settings)
        guard case .failed(.adsTimeout, let detail) = answer else {
            Issue.record("expected adsTimeout, got \(answer)"); return
        }
        #expect(detail.hasSuffix("did not answer within 2.0 seconds"), "\(detail)")
        #expect(elapsed >= .milliseconds(1900))
    }

    /// The production client says it keeps deadlines itself, so the ad client does not race it:
    /// against an ad server that never answers, its request still ends at the break's budget
    /// (1 s), far inside its own 300 s time-out. Were the deadline not kept, the test would
    /// outlive its one-minute limit; no wall-clock upper bound otherwise.
    @Test func theProductionClientKeepsTheBudgetWithoutARace() async throws {
        var configuration = SeamConfiguration()
        configuration.upstream.allowPrivateNetworks = true
        let upstream = try SafeUpstreamClient(configuration: configuration, logger: quietLogger)
        #expect(upstream.keepsDeadlines)
        var settings = SeamConfiguration.Ads()
        settings.requestTimeoutSeconds = 300
        settings.totalBudgetSeconds = 1
        let (answer, elapsed) = try await askServerThatNeverAnswers(upstream: upstream, ads: settings)
        try await upstream.shutdown()
        guard case .failed(.adsTimeout, _) = answer else {
            Issue.record("expected adsTimeout, got \(answer)"); return
        }
        #expect(elapsed >= .milliseconds(900))
    }

    @Test func totalBudgetHoldsAcrossAWrapperChain() async throws {
        let fetcher = HTTPClientFetcher()
        var settings = SeamConfiguration.Ads()
        settings.requestTimeoutSeconds = 2
        settings.totalBudgetSeconds = 1.5
        let ads = settings
        let (decision, elapsed) = try await withLiveServer({ router in
            // Each hop answers after 0.6 s: tag + 2 wrappers + inline would need 2.4 s.
            for (hop, next) in [("tag", "w1"), ("w1", "w2"), ("w2", "inline")] {
                router.get(RouterPath(stringLiteral: hop)) { request, _ -> String in
                    try? await Task.sleep(for: .milliseconds(600))
                    let host = request.head.authority ?? "127.0.0.1"
                    return InlineVAST.wrapper(id: hop, target: "http://\(host)/\(next)")
                }
            }
            router.get("inline") { _, _ -> String in
                try? await Task.sleep(for: .milliseconds(600))
                return InlineVAST.vast(InlineVAST.ad(id: "late"))
            }
        }) { base in
            try await withAdClient(upstream: fetcher, ads: ads) { client in
                let start = ContinuousClock.now
                let deadline = start + .seconds(ads.totalBudgetSeconds)
                let answer = await client.requestAdTag(
                    context: sampleContext(), template: base + "/tag", deadline: deadline)
                switch answer {
                case .vast(let document, let url):
                    let decision = await client.decide(
                        document, documentURL: url, context: sampleContext(), deadline: deadline)
                    return (decision, ContinuousClock.now - start)
                case .failed(let reason, let detail):
                    // A stalled machine can spend the whole budget on the first hop: the budget
                    // cut the chain there (ADS_TIMEOUT), which is what this test asks too.
                    return (
                        AdBreakDecision(ads: [], skipReason: reason, detail: "tag failed: \(detail)"),
                        ContinuousClock.now - start
                    )
                case .vmap:
                    return (
                        AdBreakDecision(ads: [], skipReason: .adsError, detail: "a VMAP, not the tag's VAST"),
                        ContinuousClock.now - start
                    )
                }
            }
        }
        #expect(decision.skipReason == .adsTimeout, "\(decision.detail ?? "")")
        #expect(decision.ads.isEmpty)
        // Without the budget the chain would have ended with the "late" ad (each hop is under the
        // 2 s request time-out): ADS_TIMEOUT with no ad says the budget cut it. The wait is at
        // least the budget; how much longer a busy machine takes is not this test's to judge.
        #expect(elapsed >= .milliseconds(1400))
        // The last wrapper request got only what was left of the budget.
        let timeouts = await fetcher.recorder.requests(purpose: .adDecision).compactMap(\.timeout)
        // Each hop takes 0.6 s of a 1.5 s budget: a quiet machine makes three requests, a busy one
        // fewer. Either way every request after the first got less time than the one before it.
        #expect((1...3).contains(timeouts.count), "\(timeouts)")
        #expect(zip(timeouts, timeouts.dropFirst()).allSatisfy { $0.1 < $0.0 }, "\(timeouts)")
        #expect(timeouts.allSatisfy { $0 <= .milliseconds(1500) })
    }

    @Test func deviceHeadersReachTheAdServer() async throws {
        let seen = SeenHeaders()
        var withHeaders = sampleContext()
        withHeaders.adTagHeaders = ["X-Partner-Key": "k-123"]
        let context = withHeaders
        let answer = try await withLiveServer({ router in
            router.get("tag") { request, _ -> String in
                await seen.record("tag", request.headers)
                return "<VAST version=\"4.2\"/>"
            }
        }) { base in
            try await withAdClient(upstream: HTTPClientFetcher()) { client in
                await client.requestAdTag(context: context, template: base + "/tag", deadline: farDeadline())
            }
        }
        guard case .vast = answer else { Issue.record("expected VAST, got \(answer)"); return }
        let headers = try #require(await seen.byPath["tag"]?.first)
        func value(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
        #expect(value("X-Device-IP") == "203.0.113.7")
        #expect(value("X-Forwarded-For") == "203.0.113.7")
        #expect(value("X-Device-User-Agent") == "TestPlayer/1.0 (SmartTV)")
        #expect(value("User-Agent") == "TestPlayer/1.0 (SmartTV)")
        #expect(value("X-Partner-Key") == "k-123")
    }
}
