import AsyncHTTPClient
import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import Testing
import SeamDemo
import SeamServer

/// The whole product on loopback, as `seam demo` runs it: the demo origin and ad server on
/// free ports, and Seam built by the same `SeamProduct.routes` the commands use.
package struct SeamStack {
    package let demo: DemoServers
    package let seamBaseURL: String
    package let configuration: SeamConfiguration
    /// Closed before the server stops, so its graceful shutdown has no idle connections to wait for.
    package let client: HTTPClient
    /// The registry `/metrics` shows, which the upstream client records into too.
    package let metrics: SeamMetrics
    /// Seam's routes, for what a test asks of them on command (`drainBeacons`).
    let routes: [any SeamRouteProvider]

    /// Returns once every server-side beacon Seam has fired so far reached the ad server (or was
    /// given up): beacons fire as the ad segment is fetched and are sent in the background, so a
    /// test waits for them on command rather than for the clock.
    package func drainBeacons() async {
        for case let sessions as SessionRoutes in routes { await sessions.beacons.drain() }
    }

    /// Returns once every entry of the sessions' stories recorded so far is in the store (the
    /// beacons first: their answers are entries too).
    package func drainStories() async {
        await drainBeacons()
        for case let sessions as SessionRoutes in routes { await sessions.story.drain() }
    }

    package static var quietLogger: Logger {
        var logger = Logger(label: "seam.e2e")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `body` with everything started; `adjust` edits Seam's configuration, which by default
    /// allows loopback upstreams and uses the demo's VMAP (pre-, mid- and post-roll).
    ///
    /// `clock`, when given, is the clock Seam reads and waits on (session lifetimes, live windows,
    /// decision deadlines): the test moves it instead of sleeping.
    package static func run(
        adTag: ((DemoServers) -> String)? = nil,
        clock: TestClock? = nil,
        _ adjust: (inout SeamConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (SeamStack) async throws -> Void
    ) async throws {
        try await run(adTag: adTag, clock: clock, configure: { configuration, _ in adjust(&configuration) }, body)
    }

    /// The budgets and time-outs every stack starts with: far beyond what a loaded 2-core machine
    /// needs to fetch the demo's playlists and creatives, decide its ads and send its beacons, so a test that is not
    /// about them never sees one run out (a creative fetch past the 3 s default, in the first
    /// seconds of a run, dropped an ad as NO_VARIANT_MATCH). A test about budgets or time-outs sets
    /// its own (and proves them with a server that never answers, or answers only on command,
    /// never by racing the wall clock).
    package static let generousAdRequestSeconds = 15.0
    package static let generousAdBudgetSeconds = 20.0
    package static let generousFetchSeconds = 15.0

    /// Gives `configuration` the generous budgets and time-outs above: the ad request and budget,
    /// the origin, creative and beacon fetches. Every stack starts with them, and so do the
    /// in-process harnesses whose fakes answer at once; a test about time-outs sets its own after.
    package static func useGenerousTimeOuts(_ configuration: inout SeamConfiguration) {
        configuration.ads.requestTimeoutSeconds = generousAdRequestSeconds
        configuration.ads.totalBudgetSeconds = generousAdBudgetSeconds
        configuration.upstream.originTimeoutSeconds = generousFetchSeconds
        configuration.upstream.adMediaTimeoutSeconds = generousFetchSeconds
        // A beacon the demo ad server answers late on a loaded machine is retried after its
        // time-out, and the ad server then logs it twice: tests counting beacons once would fail.
        configuration.beacons.timeoutSeconds = generousFetchSeconds
    }

    /// Like `run(adTag:_:_:)`, for settings that name the demo servers (their ports are only
    /// known once they listen), e.g. `live.slateURL` or `live.schedules`.
    /// `demo` edits the demo servers' configuration (e.g. `liveEpoch`, to put a live break where a
    /// test wants it).
    package static func run(
        adTag: ((DemoServers) -> String)? = nil,
        clock: TestClock? = nil,
        demo adjustDemo: (inout DemoServers.Configuration) -> Void = { _ in },
        configure: (inout SeamConfiguration, DemoServers) -> Void,
        _ body: @escaping @Sendable (SeamStack) async throws -> Void
    ) async throws {
        var demoConfiguration = DemoTestSupport.configuration()
        adjustDemo(&demoConfiguration)
        // A place among the stacks running at once (`TestGate.stacks`): a hundred starting
        // together on 2 cores would make every loopback time-out a coin toss.
        let demoSettings = demoConfiguration
        try await TestGate.stacks.run {
            try await runHoldingAPlace(demoSettings, adTag: adTag, clock: clock, configure: configure, body)
        }
    }

    private static func runHoldingAPlace(
        _ demoConfiguration: DemoServers.Configuration,
        adTag: ((DemoServers) -> String)?,
        clock: TestClock?,
        configure: (inout SeamConfiguration, DemoServers) -> Void,
        _ body: @escaping @Sendable (SeamStack) async throws -> Void
    ) async throws {
        try await DemoServers.withRunning(demoConfiguration) { demo in
            var configuration = SeamConfiguration()
            configuration.server.host = "127.0.0.1"
            configuration.server.port = 0
            configuration.upstream.allowPrivateNetworks = true
            configuration.ads.adTagURL = adTag?(demo) ?? demo.vmapURL
            useGenerousTimeOuts(&configuration)
            // A conditioning job in a test runs alone in the Chromium gate (one CPU-heavy job at a
            // time), so it may use every core; under the idle scheduling policy
            // (conditioning.idlePriority) its threads take only what the other tests leave.
            configuration.conditioning.threads = ProcessInfo.processInfo.activeProcessorCount
            configure(&configuration, demo)
            let settings = configuration
            let logger = quietLogger
            let metrics = SeamMetrics()
            let upstream = try SafeUpstreamClient(
                configuration: configuration, logger: logger, metricsFactory: metrics.factory)
            let services = SeamServices(
                configuration: configuration, logger: logger, upstream: upstream,
                domainMatcher: try DomainMatcher(configuration: configuration.domains),
                metrics: metrics, clock: clock?.seamClock)
            let routes = SeamProduct.routes(services)
            let app = buildSeamApplication(
                configuration: configuration, logger: logger, routes: routes, metrics: services.metrics)
            do {
                try await app.test(.live) { client in
                    let port = try #require(client.port)
                    var clientConfiguration = HTTPClient.Configuration()
                    clientConfiguration.redirectConfiguration = .disallow
                    // Load tests start a hundred sessions at once: the player side must not queue them.
                    clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
                    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
                    let stack = SeamStack(
                        demo: demo, seamBaseURL: "http://127.0.0.1:\(port)", configuration: settings, client: client,
                        metrics: metrics, routes: routes)
                    do {
                        try await body(stack)
                    } catch {
                        try? await client.shutdown()
                        throw error
                    }
                    try await client.shutdown()
                }
            } catch {
                try? await upstream.shutdown()
                throw error
            }
            try await upstream.shutdown()
        }
    }

    // MARK: HTTP

    package struct Answer {
        package var status: Int
        package var headers: [(String, String)]
        package var body: String

        package func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        package var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }

        package var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    }

    /// - Parameter timeout: a hang guard, not a budget: a request that asks Seam to wait (a prefetch's
    ///   `waitSeconds`) gives one beyond that wait.
    package func request(
        _ url: String, method: HTTPMethod = .GET, json: [String: Any]? = nil, headers: [(String, String)] = [],
        timeout: Duration = .seconds(30)
    ) async throws -> Answer {
        let raw = try await rawRequest(url, method: method, json: json, headers: headers, timeout: timeout)
        return Answer(status: raw.status, headers: raw.headers, body: String(buffer: raw.body))
    }

    package func rawRequest(
        _ url: String, method: HTTPMethod = .GET, json: [String: Any]? = nil, headers: [(String, String)] = [],
        timeout: Duration = .seconds(30)
    ) async throws
        -> (status: Int, headers: [(String, String)], body: ByteBuffer)
    {
        var request = HTTPClientRequest(url: url.hasPrefix("http") ? url : seamBaseURL + url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        }
        let response = try await client.execute(request, timeout: .init(timeout))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), response.headers.map { ($0.name, $0.value) }, body)
    }

    /// Creates a session for the demo title (or `url`) and returns the 201 answer's JSON.
    package func createSession(_ extra: [String: Any] = [:], url: String? = nil) async throws -> [String: Any] {
        var body: [String: Any] = ["url": url ?? demo.contentURL]
        body.merge(extra) { $1 }
        let answer = try await request("/v1/sessions", method: HTTPMethod.POST, json: body)
        #expect(answer.status == 201, "\(answer.body)")
        return answer.json
    }

    package func beacons() async throws -> [String] {
        let answer = try await request(demo.beaconsURL)
        let entries = answer.json["beacons"] as? [[String: Any]] ?? []
        return entries.compactMap { $0["path"] as? String }
    }
}
