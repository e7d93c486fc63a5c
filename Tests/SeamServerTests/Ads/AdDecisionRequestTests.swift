import Testing
import VAST
import SeamTesting
@testable import SeamServer
import Stitching

@Suite("AdDecision: ad tag requests")
struct AdDecisionRequestTests {
    let tag = "http://ads.test/tag"

    @Test func vastAnswerIsParsed() async throws {
        let upstream = FakeUpstream([tag: .body(try SampleVAST.text("vast-pod-preroll.xml"))])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(
                context: sampleContext(), template: tag + "?cb=[CACHEBUSTING]", deadline: farDeadline())
        }
        guard case .vast(let document, let url) = answer else { Issue.record("expected VAST, got \(answer)"); return }
        #expect(document.ads.map(\.id) == ["ad1", "ad2"])
        #expect(url.hasPrefix(tag + "?cb="))
        let sent = try #require(await upstream.recorder.requests.first)
        #expect(sent.purpose == .adDecision)
        #expect(sent.method == "GET")
        // An 8-digit cache buster replaced the macro.
        #expect(sent.url.count == (tag + "?cb=12345678").count)
    }

    @Test func vmapAnswerIsParsed() async throws {
        let upstream = FakeUpstream([tag: .body(try SampleVAST.text("vmap-demo.xml"))])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        guard case .vmap(let vmap, _) = answer else { Issue.record("expected VMAP, got \(answer)"); return }
        #expect(vmap.adBreaks.map(\.breakId) == ["preroll", "midroll-1", "postroll"])
    }

    @Test func vastMentioningVMAPIsStillVAST() async throws {
        let body =
            "<VAST version=\"4.2\"><Ad id=\"a\"><InLine><AdSystem>VMAP Inc</AdSystem><AdTitle>x</AdTitle><Impression>http://t/i</Impression><Creatives/></InLine></Ad></VAST>"
        let upstream = FakeUpstream([tag: .body(body)])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        guard case .vast(let document, _) = answer else { Issue.record("expected VAST, got \(answer)"); return }
        #expect(document.ads.count == 1)
    }

    @Test func serverErrorIsAdsError() async throws {
        let upstream = FakeUpstream([tag: .status(500, "boom")])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        guard case .failed(let reason, let detail) = answer else {
            Issue.record("expected failure, got \(answer)"); return
        }
        #expect(reason == .adsError)
        #expect(detail.contains("500"))
    }

    @Test(arguments: [
        (UpstreamError.unreachable(url: "http://ads.test/tag", reason: "connection refused"), AvailSkipReason.adsError),
        (UpstreamError.blocked(host: "ads.test", reason: "private address"), AvailSkipReason.adsError),
        (UpstreamError.status(url: "http://ads.test/tag", code: 503), AvailSkipReason.adsError),
        (UpstreamError.timeout(url: "http://ads.test/tag", after: .seconds(2)), AvailSkipReason.adsTimeout),
    ])
    func upstreamErrorsMapToSkipReasons(error: UpstreamError, expected: AvailSkipReason) async throws {
        let upstream = FakeUpstream([tag: .error(error)])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        guard case .failed(let reason, _) = answer else { Issue.record("expected failure, got \(answer)"); return }
        #expect(reason == expected)
    }

    @Test func garbageIsInvalidVASTWithoutErrorBeacon() async throws {
        let upstream = FakeUpstream([tag: .body("<html><body>Service Temporarily Unavailable</body></html>")])
        let (answer, counters) = try await withAdClient(upstream: upstream) { client in
            (
                await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline()),
                client.beacons.counters
            )
        }
        guard case .failed(let reason, _) = answer else { Issue.record("expected failure, got \(answer)"); return }
        #expect(reason == .invalidVAST)
        #expect(counters.accepted == 0)
        #expect(await upstream.recorder.urls(purpose: .beacon).isEmpty)
    }

    @Test func truncatedXMLIsInvalidVAST() async throws {
        let upstream = FakeUpstream([tag: .body("<VAST version=\"4.2\"><Ad id=\"x\"><InLine>")])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        guard case .failed(.invalidVAST, _) = answer else {
            Issue.record("expected invalidVAST, got \(answer)"); return
        }
    }

    @Test func emptyBodyIsAnEmptyVAST() async throws {
        let upstream = FakeUpstream([tag: .status(204, "")])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        guard case .vast(let document, _) = answer else { Issue.record("expected VAST, got \(answer)"); return }
        #expect(document.isEmpty)
    }

    @Test func deviceHeadersAndAdTagHeadersAreSent() async throws {
        let upstream = FakeUpstream([tag: .body("<VAST version=\"4.2\"/>")])
        var withHeaders = sampleContext()
        withHeaders.adTagHeaders = [
            "X-Partner-Key": "k-123", "user-agent": "Override/2", "X-Bad": "a\r\nInjected: 1", "Host": "evil.example",
        ]
        let context = withHeaders
        _ = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: context, template: tag, deadline: farDeadline())
        }
        let request = try #require(await upstream.recorder.requests.first)
        func header(_ name: String) -> [String] {
            request.headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
        #expect(header("X-Device-IP") == ["203.0.113.7"])
        #expect(header("X-Forwarded-For") == ["203.0.113.7"])
        #expect(header("X-Device-User-Agent") == ["TestPlayer/1.0 (SmartTV)"])
        #expect(header("User-Agent") == ["Override/2"])
        #expect(header("X-Partner-Key") == ["k-123"])
        #expect(header("X-Bad").isEmpty)
        #expect(header("Host").isEmpty)
    }

    @Test func timeoutIsCutToTheDeadline() async throws {
        let upstream = FakeUpstream([tag: .body("<VAST version=\"4.2\"/>")])
        var ads = SeamConfiguration.Ads()
        ads.requestTimeoutSeconds = 2
        _ = try await withAdClient(upstream: upstream, ads: ads) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: .now + .milliseconds(500))
        }
        let timeout = try #require(await upstream.recorder.requests.first?.timeout)
        #expect(timeout <= .milliseconds(500))
        #expect(timeout > .milliseconds(300))

        let relaxed = FakeUpstream([tag: .body("<VAST version=\"4.2\"/>")])
        _ = try await withAdClient(upstream: relaxed, ads: ads) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        #expect(await relaxed.recorder.requests.first?.timeout == .seconds(2))
    }

    @Test func spentBudgetMakesNoRequest() async throws {
        let upstream = FakeUpstream([tag: .body("<VAST version=\"4.2\"/>")])
        let answer = try await withAdClient(upstream: upstream) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: .now - .seconds(1))
        }
        guard case .failed(.budgetExhausted, _) = answer else {
            Issue.record("expected budgetExhausted, got \(answer)"); return
        }
        #expect(await upstream.recorder.requests.isEmpty)
    }

    /// A fetcher that overlooks its time-out still cannot hold the viewer: the client races it.
    /// The fake answers only after an hour, with a VAST: an `ADS_TIMEOUT` naming the 0.3 s proves the
    /// client cut it off (no stopwatch: a stress run once took 10.4 s, and a CI run's start 23.7 s,
    /// to see a half-second timer through). The time limit guards the hang it would be otherwise.
    @Test(.timeLimit(.minutes(5))) func clientEnforcesTheTimeoutEvenIfTheFetcherDoesNot() async throws {
        let upstream = FakeUpstream([tag: .delay(.seconds(3600), .body("<VAST version=\"4.2\"/>"))])
        var ads = SeamConfiguration.Ads()
        ads.requestTimeoutSeconds = 0.3
        let answer = try await withAdClient(upstream: upstream, ads: ads) { client in
            await client.requestAdTag(context: sampleContext(), template: tag, deadline: farDeadline())
        }
        guard case .failed(.adsTimeout, let detail) = answer else {
            Issue.record("expected adsTimeout, got \(answer)"); return
        }
        #expect(detail.hasSuffix("did not answer within 0.3 seconds"), "\(detail)")
    }
}
