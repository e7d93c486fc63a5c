import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SeamDemo
import SeamTesting
import Testing
import Tracing
@testable import SeamServer

/// The spans a session start records, read back from an in-memory tracer injected through
/// `SeamServices` (no process-wide `InstrumentationSystem`): the real product routes, over the
/// demo origin and ad server on loopback or over fakes.
@Suite struct TracingTests {
    /// The product over the demo servers, with `tracer` injected; `body` gets an in-process client.
    static func withDemo(
        adTag: @escaping (DemoServers) -> String, tracer: InMemoryTracer, logs: LogCapture? = nil,
        _ body: @escaping @Sendable (any TestClientProtocol, DemoServers) async throws -> Void
    ) async throws {
        try await DemoServers.withRunning(DemoTestSupport.configuration()) { demo in
            var configuration = SeamConfiguration()
            configuration.upstream.allowPrivateNetworks = true
            configuration.ads.adTagURL = adTag(demo)
            // What is checked is the spans, not the budget: room for a loaded machine, so the ads always come.
            configuration.ads.totalBudgetSeconds = 30
            configuration.ads.requestTimeoutSeconds = 10
            // And the fetches (a creative past the 3 s default left a loaded machine's pod empty).
            configuration.upstream.originTimeoutSeconds = SeamStack.generousFetchSeconds
            configuration.upstream.adMediaTimeoutSeconds = SeamStack.generousFetchSeconds
            let seamTracer = SeamTracer(tracer, logMetadataProvider: .inMemorySpan)
            let logger = logs.map { $0.logger(provider: seamTracer.logMetadataProvider) } ?? quietLogger
            let metrics = SeamMetrics()
            let upstream = try SafeUpstreamClient(
                configuration: configuration, logger: logger, metricsFactory: metrics.factory)
            let services = SeamServices(
                configuration: configuration, logger: logger, upstream: upstream,
                domainMatcher: try DomainMatcher(configuration: configuration.domains),
                metrics: metrics, tracer: seamTracer)
            let app = buildSeamApplication(
                configuration: configuration, logger: logger, routes: SeamProduct.routes(services),
                metrics: metrics, tracer: seamTracer)
            do {
                try await app.test(.router) { client in try await body(client, demo) }
            } catch {
                try? await upstream.shutdown()
                throw error
            }
            try await upstream.shutdown()
        }
    }

    static func createSession(
        _ client: any TestClientProtocol, url: String
    ) async throws -> (status: Int, body: [String: Any]) {
        let body = try JSONSerialization.data(withJSONObject: ["url": url])
        return try await client.execute(
            uri: "/v1/sessions", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(bytes: body)
        ) { response in
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
            return (Int(response.status.code), json)
        }
    }

    @Test(
        "a VOD start is one trace: session.create with its origin fetches, and an ad decision with one ad.request per wrapper hop"
    )
    func vodSessionWithWrapperChain() async throws {
        let tracer = InMemoryTracer()
        let started = NIOLockedValueBox<(session: String, content: String, ads: String)?>(nil)
        // The ad tag answers wrapper 3 of a chain: wrapper 2, wrapper 1, then the inline ad.
        try await Self.withDemo(adTag: { $0.adServer.baseURL + "/vast/wrapper-chain?depth=3" }, tracer: tracer) {
            client, demo in
            let health = try await client.execute(uri: "/healthz", method: .get) { Int($0.status.code) }
            #expect(health == 200)
            let (status, body) = try await Self.createSession(client, url: demo.contentURL)
            #expect(status == 201)
            let session = body["sessionId"] as? String ?? ""
            started.withLockedValue { $0 = (session, demo.contentURL, demo.adServer.baseURL) }
        }
        let spans = tracer.finishedSpans
        let (sessionID, contentURL, adsBase) = try #require(started.withLockedValue { $0 })
        #expect(
            !spans.contains {
                $0.operationName.contains("healthz") || $0.attributes.get("url.path") == .string("/healthz")
            },
            "health checks are not traced")

        let server = try #require(spans.first { $0.operationName == "POST /v1/sessions" })
        #expect(server.kind == .server)
        #expect(server.parentSpanID == nil)
        #expect(server.attributes.get("http.route") == .string("/v1/sessions"))
        #expect(server.attributes.get("http.response.status_code") == .int64(201))

        let create = try #require(spans.first { $0.operationName == "session.create" })
        #expect(create.parentSpanID == server.spanID)
        #expect(create.attributes.get("seam.session.id") == .string(sessionID))
        #expect(create.attributes.get("seam.session.kind") == .string("vod"))
        #expect(create.attributes.get("seam.session.mode") == .string("stitched"))
        #expect(create.attributes.get("seam.session.outcome") == .string("created"))
        #expect(create.status?.code != .error)

        // The multivariant playlist, then every media playlist: each its own client span.
        let origin = spans.filter { $0.operationName == "origin.fetch" }
        #expect(origin.count >= 2)
        for fetch in origin {
            #expect(fetch.kind == .client)
            #expect(fetch.traceID == server.traceID)
            #expect(fetch.parentSpanID == create.spanID)
            #expect(fetch.attributes.get("http.request.method") == .string("GET"))
            #expect(fetch.attributes.get("http.response.status_code") == .int64(200))
        }
        #expect(origin.contains { $0.attributes.get("url.full") == .string(contentURL) })

        let decision = try #require(spans.first { $0.operationName == "ad.decision" })
        #expect(decision.parentSpanID == create.spanID)
        #expect(decision.attributes.get("seam.session.id") == .string(sessionID))
        guard case .int64(let breaks)? = decision.attributes.get("seam.ad.breaks") else {
            Issue.record("ad.decision has no seam.ad.breaks")
            return
        }
        #expect(breaks >= 1)
        #expect(decision.events.filter { $0.name == "ad.break" }.count == Int(breaks))
        #expect(decision.events.first?.attributes.get("seam.ad.break.position") == .string("preroll"))
        guard case .int64(let ads)? = decision.attributes.get("seam.ad.ads") else {
            Issue.record("ad.decision has no seam.ad.ads")
            return
        }
        #expect(ads >= 1, "the chain ends in an inline ad that plays")

        // Each break asks the tag (wrapper 3) and follows wrappers 2 and 1 to the inline ad: four
        // ad server requests per break, all children of the decision, none with its query.
        let adRequests = spans.filter { $0.operationName == "ad.request" }
        #expect(adRequests.count == 4 * Int(breaks))
        #expect(adRequests.allSatisfy { $0.parentSpanID == decision.spanID && $0.traceID == server.traceID })
        #expect(
            adRequests.filter { $0.attributes.get("url.full") == .string(adsBase + "/vast/wrapper-chain") }.count == 3
                * Int(breaks))
        for request in adRequests {
            guard case .string(let url)? = request.attributes.get("url.full") else {
                Issue.record("ad.request without url.full")
                continue
            }
            #expect(!url.contains("?"), "ad tags carry personal data in their query: \(url)")
        }
        let creatives = spans.filter { $0.operationName == "creative.fetch" }
        #expect(!creatives.isEmpty)
        #expect(creatives.allSatisfy { $0.parentSpanID == decision.spanID })
    }

    @Test(
        "an origin that answers 500 gives error spans: origin.fetch with the status, session.create with the player's error code"
    )
    func failingOrigin() async throws {
        let tracer = InMemoryTracer()
        let origin = "https://origin.test/broken/master.m3u8"
        // As the production client reports it: a non-2xx answer is an error.
        let upstream = FakeUpstream([origin: .error(.status(url: origin, code: 500))])
        let seamTracer = SeamTracer(tracer, logMetadataProvider: .inMemorySpan)
        var configuration = SeamConfiguration()
        configuration.ads.adTagURL = "https://ads.test/vast"
        let services = SeamServices(
            configuration: configuration, logger: quietLogger, upstream: upstream,
            domainMatcher: try DomainMatcher(configuration: configuration.domains),
            metrics: SeamMetrics(), tracer: seamTracer)
        let app = buildSeamApplication(
            configuration: configuration, logger: quietLogger, routes: SeamProduct.routes(services),
            tracer: seamTracer)
        try await app.test(.router) { client in
            let (status, body) = try await Self.createSession(client, url: origin)
            #expect(status == 502)
            #expect((body["error"] as? [String: Any])?["code"] as? String == "ORIGIN_UNAVAILABLE")
        }
        let spans = tracer.finishedSpans
        let fetch = try #require(spans.first { $0.operationName == "origin.fetch" })
        #expect(fetch.status?.code == .error)
        #expect(fetch.attributes.get("http.response.status_code") == .int64(500))
        #expect(fetch.attributes.get("error.type") == .string("500"))
        #expect(fetch.attributes.get("url.full") == .string(origin))
        let create = try #require(spans.first { $0.operationName == "session.create" })
        #expect(fetch.parentSpanID == create.spanID)
        #expect(create.status?.code == .error)
        #expect(create.attributes.get("seam.session.outcome") == .string("ORIGIN_UNAVAILABLE"))
        #expect(create.attributes.get("error.type") == .string("ORIGIN_UNAVAILABLE"))
        let server = try #require(spans.first { $0.operationName == "POST /v1/sessions" })
        #expect(server.status?.code == .error)
        #expect(server.attributes.get("http.response.status_code") == .int64(502))
        // No ad decision without content.
        #expect(!spans.contains { $0.operationName == "ad.decision" })
    }

    @Test("origin and ad server requests carry the trace; beacons do not")
    func propagation() async throws {
        let tracer = InMemoryTracer()
        let seamTracer = SeamTracer(tracer, logMetadataProvider: .inMemorySpan)
        let upstream = FakeUpstream([
            "https://origin.test/a.m3u8": .body("#EXTM3U\n"),
            "https://ads.test/vast": .body("<VAST version=\"4.2\"/>"),
            "https://track.test/track/impression": .body(""),
        ])
        let traced = TracingUpstream(upstream, tracer: seamTracer)
        try await seamTracer.span("test") { _ in
            _ = try await traced.fetch(UpstreamRequest(url: "https://origin.test/a.m3u8", purpose: .origin))
            _ = try await traced.fetch(
                UpstreamRequest(url: "https://ads.test/vast?ip=203.0.113.9", purpose: .adDecision))
            _ = try await traced.fetch(
                UpstreamRequest(url: "https://track.test/track/impression?ip=203.0.113.9", purpose: .beacon))
        }
        let requests = await upstream.recorder.requests
        let spans = tracer.finishedSpans
        // The in-memory tracer propagates its own ids under its own header names (OpenTelemetry: `traceparent`).
        let originSpan = try #require(spans.first { $0.operationName == "origin.fetch" })
        let originHeaders = Dictionary(requests[0].headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        #expect(originHeaders[InMemoryTracer.traceIDKey] == originSpan.traceID)
        #expect(
            originHeaders[InMemoryTracer.spanIDKey] == originSpan.spanID,
            "the upstream's parent is the fetch's own span")
        #expect(requests[1].headers.contains { $0.name == InMemoryTracer.traceIDKey })
        #expect(!requests[2].headers.contains { $0.name == InMemoryTracer.traceIDKey })
        let beacon = try #require(spans.first { $0.operationName == "beacon.send" })
        #expect(beacon.attributes.get("url.full") == .string("https://track.test/track/impression"))
        #expect(
            spans.first { $0.operationName == "ad.request" }?.attributes.get("url.full")
                == .string("https://ads.test/vast"))
    }

    @Test("a caller's trace context is continued: the request's server span is a child of the caller's span")
    func continuesTheCallersTrace() async throws {
        let tracer = InMemoryTracer()
        let seamTracer = SeamTracer(tracer, logMetadataProvider: .inMemorySpan)
        let router = Router(context: SeamRequestContext.self)
        router.add(middleware: RequestTracingMiddleware(tracer: seamTracer))
        router.get("/v1/sessions/:id/tracking") { _, _ in "{}" }
        let app = Application(router: router, logger: quietLogger)
        try await app.test(.router) { client in
            // The in-memory tracer's own propagation headers (OpenTelemetry's: `traceparent`).
            let headers: HTTPFields = [
                HTTPField.Name(InMemoryTracer.traceIDKey)!: "caller-trace",
                HTTPField.Name(InMemoryTracer.spanIDKey)!: "caller-span",
            ]
            let status = try await client.execute(uri: "/v1/sessions/abc/tracking", method: .get, headers: headers) {
                Int($0.status.code)
            }
            #expect(status == 200)
            let plain = try await client.execute(uri: "/v1/sessions/abc/tracking", method: .get) { Int($0.status.code) }
            #expect(plain == 200)
        }
        let spans = tracer.finishedSpans.filter { $0.kind == .server }
        #expect(spans.count == 2)
        let continued = try #require(spans.first)
        #expect(continued.traceID == "caller-trace")
        #expect(continued.parentSpanID == "caller-span")
        #expect(continued.operationName == "GET /v1/sessions/{id}/tracking")
        #expect(continued.attributes.get("http.route") == .string("/v1/sessions/{id}/tracking"))
        #expect(continued.attributes.get("url.path") == .string("/v1/sessions/abc/tracking"))
        #expect(spans.last?.parentSpanID == nil, "without the headers a request starts its own trace")
        #expect(spans.last?.traceID != "caller-trace")
    }

    @Test("beacons fired during a request are sent later, by a worker, in that request's trace")
    func beaconsJoinTheirTrace() async throws {
        let tracer = InMemoryTracer()
        let seamTracer = SeamTracer(tracer, logMetadataProvider: .inMemorySpan)
        let upstream = TracingUpstream(FakeUpstream(), tracer: seamTracer)
        let beacons = BeaconDispatcher(
            upstream: upstream, configuration: SeamConfiguration.Beacons(), logger: quietLogger)
        let worker = Task { await beacons.run() }
        let parent = await seamTracer.span("GET /v1/sessions/{id}/ad/{pod}/{ad}/{rendition}/{segment}") { span in
            beacons.fire(["https://track.test/track/start?ad=1"], event: "start", viewer: .unknown, context: "test")
            return span.span?.context.inMemorySpanContext
        }
        await beacons.drain()
        worker.cancel()
        await worker.value
        let sent = try #require(tracer.finishedSpans.first { $0.operationName == "beacon.send" })
        #expect(sent.traceID == parent?.traceID)
        #expect(sent.parentSpanID == parent?.spanID)
        #expect(sent.attributes.get("http.response.status_code") == .int64(200))
    }

    @Test("log lines written inside a span carry its trace_id and span_id")
    func logsCarryTraceIDs() async throws {
        let tracer = InMemoryTracer()
        let logs = LogCapture()
        try await Self.withDemo(adTag: { $0.vmapURL }, tracer: tracer, logs: logs) { client, demo in
            let status = try await Self.createSession(client, url: demo.contentURL).status
            #expect(status == 201)
        }
        let create = try #require(tracer.finishedSpans.first { $0.operationName == "session.create" })
        let created = try #require(logs.lines.first { $0.message == "session created" })
        #expect(created.metadata["trace_id"] == create.traceID)
        #expect(created.metadata["span_id"] == create.spanID)
        let server = try #require(tracer.finishedSpans.first { $0.operationName == "POST /v1/sessions" })
        let request = try #require(logs.lines.first { $0.message == "request" })
        #expect(request.metadata["trace_id"] == server.traceID)
        #expect(request.metadata["span_id"] == server.spanID)
    }

    @Test("a live break's decision is the root of its own trace, with the break's number and what it plays")
    func liveDecision() async throws {
        let tracer = InMemoryTracer()
        let seamTracer = SeamTracer(tracer, logMetadataProvider: .inMemorySpan)
        let clock = TestClock()
        let origin = ScriptedLiveOrigin()
        origin.update { $0.cueOuts[20] = 24 }
        let upstream = TracingUpstream(origin, tracer: seamTracer)
        var configuration = SeamConfiguration()
        configuration.ads.adTagURL = ScriptedLiveOrigin.vastURL
        let creatives = CreativeLoader(upstream: upstream, clock: clock.seamClock)
        let ads = AdDecisionClient(
            upstream: upstream, configuration: configuration.ads,
            beacons: BeaconDispatcher(upstream: upstream, configuration: .init(), logger: quietLogger),
            logger: quietLogger)
        let planner = AdPlanner(
            configuration: configuration.ads, ads: ads, creatives: creatives, now: { clock.now }, tracer: seamTracer)
        let executor = BackgroundExecutor(name: "seam-test-tracing", maxThreads: 1)
        let live = LiveSessionFactory(
            services: LiveServices(
                configuration: configuration, upstream: upstream, planner: planner,
                logger: quietLogger, background: executor, clock: clock.seamClock),
            creatives: creatives, configuration: configuration, logger: quietLogger)
        let content = try await ContentLoader(
            origin: OriginClient(upstream: origin), limits: SessionCostLimits(configuration.sessions)
        )
        .load(ScriptedLiveOrigin.liveURL)
        let channel = await live.makeChannel(ScriptedLiveOrigin.liveURL, content: content)
        let decider = LiveBreakDecider(
            planner: planner, queue: BreakDecisionQueue(maxConcurrent: 4, executor: executor, clock: clock.seamClock),
            logger: quietLogger)
        let session = LiveSession(
            id: SessionIDKey.random().issue(), channel: channel,
            inputs: .init(
                request: SessionRequest(url: ScriptedLiveOrigin.liveURL), deviceIP: nil, userAgent: nil,
                baseURL: "http://seam.test"),
            trackingMode: .server, defaultBreakSeconds: 30)
        // The reload that sees the cue is a request's span; the decision it waits for is not its child.
        await seamTracer.span("GET /v1/sessions/{id}/media/{rendition}.m3u8", kind: .server) { _ in
            await session.advance(
                with: content.reference, decider: decider, budget: .seconds(30), waitForDecision: true)
        }
        #expect(session.tracking().avails.first?.skipReason == nil)
        let spans = tracer.finishedSpans
        let decision = try #require(spans.first { $0.operationName == "ad.decision" })
        #expect(decision.parentSpanID == nil)
        #expect(decision.attributes.get("seam.session.id") == .string(session.id.value))
        #expect(decision.attributes.get("seam.ad.break.number") == .int64(0))
        #expect(decision.attributes.get("seam.ad.break.position") == .string("midroll"))
        #expect(decision.attributes.get("seam.ad.break.seconds") == .double(24))
        guard case .int64(let played)? = decision.attributes.get("seam.ad.ads") else {
            Issue.record("ad.decision has no seam.ad.ads")
            return
        }
        #expect(played >= 1)
        let request = try #require(spans.first { $0.operationName == "ad.request" })
        #expect(request.parentSpanID == decision.spanID)
        #expect(spans.contains { $0.operationName == "creative.fetch" && $0.parentSpanID == decision.spanID })
    }

    @Test("tracing off: no span, no propagation header, no trace ids in logs, upstream not wrapped")
    func off() async throws {
        let upstream = FakeUpstream(["https://origin.test/a.m3u8": .body("#EXTM3U\n")])
        let services = SeamServices(
            configuration: SeamConfiguration(), logger: quietLogger, upstream: upstream,
            domainMatcher: try DomainMatcher(configuration: SeamConfiguration.Domains()),
            metrics: SeamMetrics())
        #expect(!services.tracer.isOn)
        #expect(!(services.upstream is TracingUpstream))
        #expect(services.tracer.logMetadataProvider == nil)
        let ran = await SeamTracer.off.span("session.create") { span in
            #expect(span.span == nil)
            #expect(InstrumentationContext.current == nil, "no context is bound when off")
            return true
        }
        #expect(ran)
        _ = try await services.upstream.fetch(UpstreamRequest(url: "https://origin.test/a.m3u8", purpose: .origin))
        #expect(await upstream.recorder.requests.first?.headers.isEmpty == true)
        #expect(try SeamTracing.make(SeamConfiguration.Tracing(), logger: quietLogger).services.isEmpty)
    }

    @Test("tracing settings: defaults, loading, and what is refused")
    func configuration() throws {
        let defaults = SeamConfiguration().tracing
        #expect(defaults.otlpEndpoint.isEmpty)
        #expect(defaults.serviceName == "seam")
        #expect(defaults.sampleRatio == 1)
        let loader = ConfigurationLoader(environment: [
            "SEAM_TRACING_OTLP_ENDPOINT": "http://127.0.0.1:4318",
            "SEAM_TRACING_SAMPLE_RATIO": "0.25",
        ])
        let loaded = try loader.load(overrides: ["tracing.serviceName": "seam-eu"])
        #expect(loaded.tracing.otlpEndpoint == "http://127.0.0.1:4318")
        #expect(loaded.tracing.sampleRatio == 0.25)
        #expect(loaded.tracing.serviceName == "seam-eu")
        for (key, value) in [
            ("tracing.otlpEndpoint", "127.0.0.1:4318"), ("tracing.sampleRatio", "1.5"),
            ("tracing.sampleRatio", "-0.1"), ("tracing.serviceName", ""),
        ] {
            #expect(throws: ConfigurationError.self, "\(key)=\(value)") {
                try ConfigurationLoader(environment: [:]).load(overrides: [key: value])
            }
        }
        #expect(SeamTracing.tracesURL("http://collector:4318") == "http://collector:4318/v1/traces")
        #expect(SeamTracing.tracesURL("http://collector:4318/") == "http://collector:4318/v1/traces")
        #expect(SeamTracing.tracesURL("https://otlp.example.com/v1/traces") == "https://otlp.example.com/v1/traces")
    }
}

extension Logger.MetadataProvider {
    /// `trace_id`/`span_id` of the in-memory tracer's current span, as `OTel.makeLoggingMetadataProvider()` does for OpenTelemetry's.
    static let inMemorySpan = Logger.MetadataProvider {
        guard let span = InstrumentationContext.current?.inMemorySpanContext else { return [:] }
        return ["trace_id": "\(span.traceID)", "span_id": "\(span.spanID)"]
    }
}

/// Collects log lines with their metadata, the metadata provider's included.
final class LogCapture: Sendable {
    struct Line: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private let stored = NIOLockedValueBox<[Line]>([])
    var lines: [Line] { stored.withLockedValue { $0 } }

    func logger(provider: Logger.MetadataProvider?) -> Logger {
        var logger = Logger(label: "seam.tracing-tests") { _ in Handler(capture: self, metadataProvider: provider) }
        logger.logLevel = .debug
        return logger
    }

    func append(_ line: Line) { stored.withLockedValue { $0.append(line) } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadataProvider: Logger.MetadataProvider?
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            merged.merge(metadataProvider?.get() ?? [:]) { _, new in new }
            merged.merge(event.metadata ?? [:]) { _, new in new }
            capture.append(Line(message: event.message.description, metadata: merged.mapValues { "\($0)" }))
        }
    }
}
