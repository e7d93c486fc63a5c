import Logging
import SeamTesting
import Testing
@testable import SeamServer

/// Resolves chosen names to chosen addresses, so a test can give a public-looking name to the
/// loopback test server.
struct InfraFixedResolver: HostResolving {
    let table: [String: [IPAddress]]

    func resolve(host: String, url: String) async throws(UpstreamError) -> [IPAddress] {
        guard let addresses = table[host] else { throw .unreachable(url: url, reason: "no such test host \(host)") }
        return addresses
    }
}

/// Real HTTP over loopback against a Hummingbird test server.
@Suite("Infra: safe upstream client over real HTTP")
struct InfraSafeUpstreamClientTests {
    static func client(
        resolver: any HostResolving = SystemHostResolver(),
        _ edit: (inout SeamConfiguration) -> Void = { _ in }
    ) throws -> SafeUpstreamClient {
        var configuration = SeamConfiguration()
        // The test server answers at once: every purpose's time-out far beyond a loaded machine's
        // stall (the origin's 5 s default ran out once in a stress run, 28 s into the suite). A
        // test about time-outs sets its own in `edit`.
        SeamStack.useGenerousTimeOuts(&configuration)
        edit(&configuration)
        var logger = Logger(label: "infra-test-client")
        logger.logLevel = .critical
        return try SafeUpstreamClient(configuration: configuration, logger: logger, resolver: resolver)
    }

    /// Runs `body` against a fresh test server with a client, and shuts the client down after.
    static func withClient(
        resolver: any HostResolving = SystemHostResolver(),
        _ edit: (inout SeamConfiguration) -> Void = { _ in },
        _ body: @Sendable @escaping (SafeUpstreamClient, Int) async throws -> Void
    ) async throws {
        let client = try client(resolver: resolver, edit)
        do {
            try await withInfraTestServer(addUpstreamTestRoutes) { port in try await body(client, port) }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    static func fetchError(
        _ client: SafeUpstreamClient, _ url: String, purpose: UpstreamPurpose = .origin,
        timeout: Duration? = nil
    ) async -> UpstreamError? {
        do {
            let response = try await client.fetch(UpstreamRequest(url: url, purpose: purpose, timeout: timeout))
            Issue.record("expected an error, got HTTP \(response.status) from \(response.finalURL)")
            return nil
        } catch {
            return error
        }
    }

    @Test("Loopback is refused by default, before any connection")
    func loopbackRefused() async throws {
        try await Self.withClient { client, port in
            let error = await Self.fetchError(client, "http://127.0.0.1:\(port)/ok")
            guard case .blocked(let host, let reason) = error else {
                Issue.record("expected .blocked, got \(String(describing: error))")
                return
            }
            #expect(host == "127.0.0.1")
            #expect(reason.contains("loopback"))
            #expect(reason.contains("private"))

            // A name that resolves to loopback through the system resolver is refused the same way.
            let named = await Self.fetchError(client, "http://localhost:\(port)/ok")
            guard case .blocked(_, let namedReason) = named else {
                Issue.record("expected .blocked, got \(String(describing: named))")
                return
            }
            #expect(namedReason.contains("loopback"))
        }
    }

    @Test("Loopback is fetched when allowPrivateNetworks is on")
    func loopbackAllowed() async throws {
        try await Self.withClient({ $0.upstream.allowPrivateNetworks = true }) { client, port in
            let response = try await client.fetch(UpstreamRequest(url: "http://127.0.0.1:\(port)/ok", purpose: .origin))
            #expect(response.status == 200)
            #expect(String(buffer: response.body) == "hello")
            #expect(response.finalURL == "http://127.0.0.1:\(port)/ok")
        }
    }

    @Test("A listed range opens just that range; redirects are followed and checked per hop")
    func allowedNetworkAndRedirects() async throws {
        // A time-out no busy machine reaches: the redirect loop must end as a loop (a loaded
        // 2-core machine once took over 5 s for its hops, and it ended as a time-out).
        try await Self.withClient({
            $0.upstream.allowedNetworks = ["127.0.0.1/32"]; $0.upstream.originTimeoutSeconds = 60
        }) { client, port in
            let base = "http://127.0.0.1:\(port)"
            let followed = try await client.fetch(UpstreamRequest(url: "\(base)/redirect?to=/ok", purpose: .origin))
            #expect(String(buffer: followed.body) == "hello")
            #expect(followed.finalURL == "\(base)/ok")

            // 127.0.0.2 is loopback too, but outside the listed range: the hop is refused.
            let error = await Self.fetchError(client, "\(base)/redirect?to=http://127.0.0.2:\(port)/ok")
            guard case .blocked(let host, let reason) = error else {
                Issue.record("expected .blocked, got \(String(describing: error))")
                return
            }
            #expect(host == "127.0.0.2")
            #expect(reason.contains("loopback"))

            let loop = await Self.fetchError(client, "\(base)/loop")
            #expect(loop == .tooManyRedirects(url: "\(base)/loop"))
        }
    }

    @Test("A redirect from an allowed host to a host not on the list is refused")
    func redirectToUnlistedHost() async throws {
        try await Self.withClient({
            $0.upstream.allowPrivateNetworks = true
            $0.upstream.allowedHosts = ["127.0.0.1"]
        }) { client, port in
            let error = await Self.fetchError(
                client, "http://127.0.0.1:\(port)/redirect?to=http://localhost:\(port)/ok")
            guard case .blocked(let host, let reason) = error else {
                Issue.record("expected .blocked, got \(String(describing: error))")
                return
            }
            #expect(host == "localhost")
            #expect(reason.contains("upstream.allowedHosts"))
        }
    }

    @Test("A redirect to a non-http scheme is refused, and so is a non-http URL")
    func nonHTTP() async throws {
        try await Self.withClient({ $0.upstream.allowPrivateNetworks = true }) { client, port in
            let direct = await Self.fetchError(client, "file:///etc/passwd")
            #expect(direct == .invalidURL("file:///etc/passwd"))
            let ftp = await Self.fetchError(client, "ftp://127.0.0.1:\(port)/ok")
            #expect(ftp == .invalidURL("ftp://127.0.0.1:\(port)/ok"))
            let redirected = await Self.fetchError(client, "http://127.0.0.1:\(port)/redirect?to=file:///etc/passwd")
            #expect(redirected == .invalidURL("file:///etc/passwd"))
        }
    }

    @Test("The connection goes to the checked address, with the name in the Host header")
    func pinnedAddress() async throws {
        let resolver = InfraFixedResolver(table: ["origin.test": [.v4(127, 0, 0, 1)]])
        try await Self.withClient(resolver: resolver, { $0.upstream.allowedNetworks = ["127.0.0.0/8"] }) {
            client, port in
            let response = try await client.fetch(
                UpstreamRequest(url: "http://origin.test:\(port)/host", purpose: .origin))
            #expect(String(buffer: response.body) == "origin.test:\(port)")
            #expect(response.finalURL == "http://origin.test:\(port)/host")
        }
        // Without the range, the same name is refused because of where it resolves.
        try await Self.withClient(resolver: resolver) { client, port in
            let error = await Self.fetchError(client, "http://origin.test:\(port)/host")
            guard case .blocked(let host, let reason) = error else {
                Issue.record("expected .blocked, got \(String(describing: error))")
                return
            }
            #expect(host == "origin.test")
            #expect(reason.contains("resolves to 127.0.0.1"))
        }
    }

    /// The error names the time-out that ended the wait; the time limit guards the hang it would be
    /// otherwise (no upper stopwatch bound: a CI run's start once held a half-second timer 23.7 s).
    @Test("A slow answer times out at the configured time, and says so", .timeLimit(.minutes(5)))
    func timeout() async throws {
        try await Self.withClient({
            $0.upstream.allowPrivateNetworks = true
            $0.upstream.originTimeoutSeconds = 0.3
        }) { client, port in
            let clock = ContinuousClock()
            let started = clock.now
            let error = await Self.fetchError(client, "http://127.0.0.1:\(port)/slow")
            let elapsed = clock.now - started
            #expect(error == .timeout(url: "http://127.0.0.1:\(port)/slow", after: .milliseconds(300)))
            #expect(elapsed >= .milliseconds(290))

            // A per-request time-out overrides the purpose's.
            let overridden = await Self.fetchError(
                client, "http://127.0.0.1:\(port)/slow", purpose: .adDecision, timeout: .milliseconds(150))
            #expect(overridden == .timeout(url: "http://127.0.0.1:\(port)/slow", after: .milliseconds(150)))
        }
    }

    @Test("A body over the purpose's limit is refused, declared or streamed")
    func tooLarge() async throws {
        try await Self.withClient({
            $0.upstream.allowPrivateNetworks = true
            $0.upstream.maxPlaylistBytes = 10_000
            $0.upstream.maxVASTBytes = 1_000_000
            // About sizes, not time: every purpose's time-out far beyond a loaded machine's stall
            // (the beacon's 2 s default ran out once in a full run).
            $0.upstream.originTimeoutSeconds = 30
            $0.ads.totalBudgetSeconds = 30
            $0.ads.requestTimeoutSeconds = 30
            $0.beacons.timeoutSeconds = 30
        }) { client, port in
            let declared = await Self.fetchError(client, "http://127.0.0.1:\(port)/huge-declared")
            #expect(declared == .tooLarge(url: "http://127.0.0.1:\(port)/huge-declared", limit: 10_000))
            let streamed = await Self.fetchError(client, "http://127.0.0.1:\(port)/huge-streamed")
            #expect(streamed == .tooLarge(url: "http://127.0.0.1:\(port)/huge-streamed", limit: 10_000))
            // The same body is fine for a purpose with a larger limit.
            let vast = try await client.fetch(
                UpstreamRequest(url: "http://127.0.0.1:\(port)/huge-streamed", purpose: .adDecision))
            #expect(vast.body.readableBytes == 64 * 4096)
            // Beacons get 64 KiB.
            let beacon = await Self.fetchError(client, "http://127.0.0.1:\(port)/huge-declared", purpose: .beacon)
            #expect(beacon == .tooLarge(url: "http://127.0.0.1:\(port)/huge-declared", limit: 64 * 1024))
        }
    }

    @Test("Non-2xx answers are .status; a closed port is .unreachable")
    func statusAndUnreachable() async throws {
        try await Self.withClient({ $0.upstream.allowPrivateNetworks = true }) { client, port in
            let missing = await Self.fetchError(client, "http://127.0.0.1:\(port)/missing")
            #expect(missing == .status(url: "http://127.0.0.1:\(port)/missing", code: 404))
            let closed = await Self.fetchError(client, "http://127.0.0.1:1/ok")
            guard case .unreachable(let url, _) = closed else {
                Issue.record("expected .unreachable, got \(String(describing: closed))")
                return
            }
            #expect(url == "http://127.0.0.1:1/ok")
        }
    }
}
