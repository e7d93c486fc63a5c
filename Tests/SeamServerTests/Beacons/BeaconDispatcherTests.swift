import Hummingbird
import NIOConcurrencyHelpers
import Testing
import VAST
import SeamTesting
@testable import SeamServer

@Suite("BeaconDispatcher", .timeLimit(.minutes(1)))
struct BeaconDispatcherTests {
    func configuration(maxAttempts: Int = 3, concurrency: Int = 8) -> SeamConfiguration.Beacons {
        var configuration = SeamConfiguration.Beacons()
        configuration.maxAttempts = maxAttempts
        configuration.concurrency = concurrency
        return configuration
    }

    /// Runs `body` with the dispatcher's worker loop running; stops it afterwards.
    func running<T: Sendable>(_ dispatcher: BeaconDispatcher, _ body: @Sendable () async throws -> T) async throws -> T
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await dispatcher.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    @Test func firesEachURLOnceWithMacrosFilled() async throws {
        let upstream = FakeUpstream()
        let dispatcher = BeaconDispatcher(upstream: upstream, configuration: configuration(), logger: quietLogger)
        let urls = (1...5).map {
            "http://track.test/track/ad\($0)/impression?cb=[CACHEBUSTING]&code=[ERRORCODE]&ts=[TIMESTAMP]"
        }
        try await running(dispatcher) {
            dispatcher.fire(
                urls, event: "impression", viewer: BeaconViewer(deviceIP: "203.0.113.7", userAgent: "Roku/DVP-12.5"),
                context: "test", macros: VASTMacros(errorCode: .noAdsAfterWrapper))
            await dispatcher.drain()
        }
        let requests = await upstream.recorder.requests
        #expect(requests.count == 5)
        // VAST 4.x's server-side request headers: the tracker counts the viewer's device, not Seam.
        for request in requests {
            let headers = Dictionary(request.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
            #expect(headers["X-Device-IP"] == "203.0.113.7" && headers["X-Forwarded-For"] == "203.0.113.7")
            #expect(headers["X-Device-User-Agent"] == "Roku/DVP-12.5" && headers["User-Agent"] == "Roku/DVP-12.5")
        }
        #expect(requests.allSatisfy { $0.purpose == .beacon })
        #expect(requests.allSatisfy { $0.timeout == .seconds(2) })
        let sent = requests.map(\.url)
        for index in 1...5 {
            let matches = sent.filter { $0.hasPrefix("http://track.test/track/ad\(index)/impression?cb=") }
            #expect(matches.count == 1)
            let url = try #require(matches.first)
            #expect(url.contains("&code=303&ts="))
            #expect(!url.contains("["))
            // An 8-digit cache buster.
            let cacheBuster = url.split(separator: "cb=")[1].prefix { $0 != "&" }
            #expect(cacheBuster.count == 8 && cacheBuster.allSatisfy(\.isNumber))
        }
        let counters = dispatcher.counters
        #expect(counters.accepted == 5)
        #expect(counters.sent == 5)
        #expect(counters.attempts == 5)
        #expect(counters.retried == 0)
        #expect(counters.failed == 0)
        #expect(counters.pending == 0)
    }

    @Test func failingEndpointIsTriedExactlyMaxAttemptsTimes() async throws {
        let failing = "http://track.test/fail"
        let upstream = FakeUpstream([failing: .status(500, "")])
        let dispatcher = BeaconDispatcher(
            upstream: upstream, configuration: configuration(maxAttempts: 3), logger: quietLogger,
            retryBackoff: .milliseconds(20))
        let start = ContinuousClock.now
        try await running(dispatcher) {
            dispatcher.fire([failing], event: "impression", viewer: .unknown, context: "test")
            await dispatcher.drain()
        }
        #expect(await upstream.recorder.urls == [failing, failing, failing])
        // Backoff 20 ms then 40 ms.
        #expect(ContinuousClock.now - start >= .milliseconds(60))
        let counters = dispatcher.counters
        #expect(counters.failed == 1)
        #expect(counters.sent == 0)
        #expect(counters.attempts == 3)
        #expect(counters.retried == 2)
    }

    @Test func flakyEndpointSucceedsOnRetry() async throws {
        let flaky = "http://track.test/flaky"
        let upstream = FakeUpstream([
            flaky: .sequence(
                [.error(.timeout(url: flaky, after: .seconds(2))), .status(200, "")], counter: HitCounter())
        ])
        let dispatcher = BeaconDispatcher(
            upstream: upstream, configuration: configuration(), logger: quietLogger, retryBackoff: .milliseconds(10))
        try await running(dispatcher) {
            dispatcher.fire([flaky], event: "impression", viewer: .unknown, context: "test")
            await dispatcher.drain()
        }
        #expect(await upstream.recorder.urls.count == 2)
        #expect(dispatcher.counters.sent == 1)
        #expect(dispatcher.counters.retried == 1)
    }

    @Test func permanentFailuresAreNotRetried() async throws {
        let gone = "http://track.test/gone"
        let blocked = "http://10.0.0.1/track"
        let upstream = FakeUpstream([
            gone: .status(404, ""), blocked: .error(.blocked(host: "10.0.0.1", reason: "private address")),
        ])
        let metrics = SeamMetrics()
        let dispatcher = BeaconDispatcher(
            upstream: upstream, configuration: configuration(), logger: quietLogger, retryBackoff: .milliseconds(10),
            metricsFactory: metrics.factory)
        try await running(dispatcher) {
            dispatcher.fire([gone, blocked], event: "impression", viewer: .unknown, context: "test")
            await dispatcher.drain()
        }
        #expect(await upstream.recorder.urls.count == 2)
        #expect(dispatcher.counters.failed == 2)
        #expect(dispatcher.counters.blocked == 1)
        #expect(dispatcher.counters.retried == 0)
        // Operators see each outcome by event: the refused host apart from the endpoint's 404.
        let page = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(page.contains(#"seam_beacons_total{event="impression",outcome="blocked"} 1"#), "\(page)")
        #expect(page.contains(#"seam_beacons_total{event="impression",outcome="failed"} 1"#), "\(page)")
        #expect(page.contains("# HELP seam_beacons_total "))
    }

    @Test(
        "Each URL's answer is reported to who fired it: sent with its status, failed after its attempts, blocked naming the setting, dropped"
    )
    func answersAreReported() async throws {
        let ok = "http://track.test/ok", gone = "http://track.test/gone", flaky = "http://track.test/flaky"
        let blocked = "http://10.0.0.1/track"
        let upstream = FakeUpstream([
            ok: .status(204, ""), gone: .status(404, ""), flaky: .status(503, ""),
            blocked: .error(.blocked(host: "10.0.0.1", reason: "private address")),
        ])
        let answers = NIOLockedValueBox<[String: BeaconAnswer]>([:])
        let dispatcher = BeaconDispatcher(
            upstream: upstream, configuration: configuration(maxAttempts: 2), logger: quietLogger,
            queueCapacity: 4, retryBackoff: .milliseconds(1))
        let report: BeaconReport = { answer in answers.withLockedValue { $0[answer.url] = answer } }
        dispatcher.fire([ok, gone, flaky, blocked], event: "start", viewer: .unknown, context: "test", report: report)
        // The queue holds four: the fifth is dropped, and reported at once.
        dispatcher.fire(["http://track.test/late"], event: "start", viewer: .unknown, context: "test", report: report)
        #expect(answers.withLockedValue { $0["http://track.test/late"]?.outcome } == .dropped)
        try await running(dispatcher) { await dispatcher.drain() }
        let got = answers.withLockedValue { $0 }
        #expect(got[ok] == BeaconAnswer(url: ok, outcome: .sent, status: 204, attempts: 1, reason: nil))
        #expect(got[gone]?.outcome == .failed)
        #expect(got[gone]?.status == 404)
        #expect(got[gone]?.attempts == 1)
        #expect(got[flaky]?.outcome == .failed)
        #expect(got[flaky]?.status == 503)
        #expect(got[flaky]?.attempts == 2)
        #expect(got[blocked]?.outcome == .blocked)
        #expect(got[blocked]?.reason?.contains("upstream.allowedHosts") == true)
    }

    @Test func dropsWhenTheQueueIsFull() async throws {
        let upstream = FakeUpstream()
        let dispatcher = BeaconDispatcher(
            upstream: upstream, configuration: configuration(), logger: quietLogger, queueCapacity: 10)
        // Not running yet: the queue fills up.
        dispatcher.fire(
            (1...25).map { "http://track.test/track/q\($0)" }, event: "impression", viewer: .unknown, context: "test")
        #expect(dispatcher.counters.accepted == 10)
        #expect(dispatcher.counters.dropped == 15)
        #expect(dispatcher.counters.pending == 10)
        try await running(dispatcher) {
            await dispatcher.drain()
        }
        // The oldest ten were kept.
        #expect(Set(await upstream.recorder.urls) == Set((1...10).map { "http://track.test/track/q\($0)" }))
        #expect(dispatcher.counters.sent == 10)
    }

    @Test func concurrencyIsBounded() async throws {
        let probe = ConcurrencyProbe()
        let upstream = ProbingUpstream(probe: probe)
        let dispatcher = BeaconDispatcher(
            upstream: upstream, configuration: configuration(concurrency: 4), logger: quietLogger)
        try await running(dispatcher) {
            dispatcher.fire(
                (1...40).map { "http://track.test/track/c\($0)" }, event: "impression", viewer: .unknown,
                context: "test")
            await dispatcher.drain()
        }
        #expect(await probe.maximum == 4)
        #expect(dispatcher.counters.sent == 40)
    }

    /// `fire` must never wait for the network: a thousand beacons to an endpoint that does not
    /// answer until the test lets it are all accepted while none has been answered (were `fire`
    /// to wait, this test would hang, not pass slowly).
    @Test func fireNeverBlocksTheCaller() async throws {
        let fetcher = HTTPClientFetcher()
        let dispatcher = BeaconDispatcher(
            upstream: fetcher, configuration: configuration(concurrency: 32), logger: quietLogger)
        let held = LiveTestGate()
        let counters = try await withLiveServer({ router in
            router.get("track/:id") { _, _ -> String in
                await held.wait()
                return ""
            }
        }) { base in
            defer { held.open() }
            return try await running(dispatcher) {
                let urls = (1...1000).map { "\(base)/track/\($0)?cb=[CACHEBUSTING]" }
                for url in urls { dispatcher.fire([url], event: "impression", viewer: .unknown, context: "load") }
                // Let the workers start so the test also shows they are busy while fire() returned.
                try await Task.sleep(for: .milliseconds(300))
                let counters = dispatcher.counters
                held.open()
                return counters
            }
        }
        #expect(counters.accepted == 1000)
        #expect(counters.dropped == 0)
        #expect(counters.sent == 0, "no beacon was answered yet")
        #expect(counters.pending > 900)
    }

    @Test func cancellationAbandonsWhatIsQueued() async throws {
        let upstream = FakeUpstream(["http://track.test/slow": .delay(.seconds(10), .status(200, ""))])
        let dispatcher = BeaconDispatcher(
            upstream: upstream, configuration: configuration(concurrency: 1), logger: quietLogger)
        try await running(dispatcher) {
            dispatcher.fire(
                Array(repeating: "http://track.test/slow", count: 3), event: "impression", viewer: .unknown,
                context: "test")
            try await Task.sleep(for: .milliseconds(100))
        }
        let counters = dispatcher.counters
        #expect(counters.pending == 0)
        #expect(counters.abandoned == 3)
        #expect(counters.sent == 0)
        // Stopped: later beacons are dropped, not queued forever.
        dispatcher.fire(["http://track.test/late"], event: "impression", viewer: .unknown, context: "test")
        #expect(dispatcher.counters.dropped == 1)
        await dispatcher.drain()
    }
}

/// Tracks how many requests run at once.
actor ConcurrencyProbe {
    private var current = 0
    private(set) var maximum = 0
    func enter() {
        current += 1
        maximum = max(maximum, current)
    }
    func leave() { current -= 1 }
}

struct ProbingUpstream: UpstreamFetching {
    let probe: ConcurrencyProbe

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        await probe.enter()
        try? await Task.sleep(for: .milliseconds(20))
        await probe.leave()
        return FakeUpstream.response(200, "", url: request.url)
    }
}
