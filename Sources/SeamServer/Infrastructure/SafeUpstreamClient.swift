import AsyncHTTPClient
import CoreMetrics
import CSeamSystem
import HLS
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// The production `UpstreamFetching`: every request Seam makes (origin, ADS, ad media, beacons)
/// goes through these rules, checked again on every redirect hop:
///
/// - only absolute `http`/`https` URLs, without user info;
/// - the host must be in `upstream.allowedHosts` when that list is set;
/// - every address the host resolves to must be public (no loopback, link-local, private, CGNAT,
///   multicast, reserved, or IPv6 forms that carry such an IPv4 address) unless
///   `upstream.allowPrivateNetworks` or `upstream.allowedNetworks` opens it;
/// - a time-out per request for the upstream's answer (the purpose's, or `UpstreamRequest.timeout`),
///   name resolution, redirects and body included;
/// - a size limit per purpose, enforced while the body streams in, so a huge answer costs at most
///   the limit in memory.
///
/// DNS rebinding: for `http` URLs Seam connects to the exact address it checked (the IP goes in the
/// URL, the name in the `Host` header), so a second, different DNS answer cannot redirect the
/// connection. For `https` the TLS handshake needs the name, so AsyncHTTPClient resolves it again:
/// a rebinding attacker would win that race only against an internal service that presents a valid
/// certificate for the attacker's host name, which certificate verification makes impractical.
/// This is the documented, accepted window.
///
/// Redirects are disabled in `HTTPClient` and followed here, so each hop is checked.
///
/// Pools: one `HTTPClient` per `UpstreamPool` (origin, ads, beacons), each with its own number of
/// connections per host from configuration. Origin playlists go through a client on the shared
/// event loops, which answer the players; ad requests, ad media and beacons through clients on an
/// event loop of their own at a lower scheduling priority, so the I/O of a break starting for
/// thousands of viewers does not delay their playlist answers.
///
/// Waiting for a connection: a request beyond a pool's size waits here (`UpstreamConnectionGate`),
/// not inside the client library, so the wait is measured on its own
/// (`seam_upstream_connection_wait_seconds`) and is not part of the upstream's time-out: an
/// upstream that answers within its time-out is never reported as timing out because Seam was
/// busy. The wait itself ends at the time-out too (or the caller's `deadline`), with
/// `UpstreamError.noConnection` naming the pool's setting.
package final class SafeUpstreamClient: UpstreamFetching {
    package let policy: UpstreamPolicy
    private let clients: [UpstreamPool: HTTPClient]
    private let gates: [UpstreamPool: UpstreamConnectionGate]
    private let backgroundLoops: MultiThreadedEventLoopGroup
    private let metrics: UpstreamMetrics
    let resolver: any HostResolving
    let logger: Logger

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Headers that must not follow a redirect to another origin.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]
    static let userAgent = "Seam/\(SeamRelease.version) (server-side ad insertion; +https://github.com/seam-ssai/seam)"

    /// - Parameters:
    ///   - configuration: reads `upstream.*`, `ads.requestTimeoutSeconds` and `beacons.timeoutSeconds`.
    ///   - resolver: the system resolver; tests substitute their own.
    ///   - metricsFactory: where the wait and answer histograms go; the process-wide `MetricsSystem` by default.
    /// - Throws: `ConfigurationError` when `upstream.allowedHosts` or `upstream.allowedNetworks` has a bad entry.
    package init(
        configuration: SeamConfiguration, logger: Logger,
        resolver: any HostResolving = SystemHostResolver(),
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) throws(ConfigurationError) {
        policy = try UpstreamPolicy(configuration: configuration)
        self.resolver = resolver
        self.logger = logger
        metrics = UpstreamMetrics(factory: metricsFactory)
        backgroundLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        for loop in backgroundLoops.makeIterator() {
            loop.execute {
                _ = cseam_set_thread_name("seam-ads-io")
                _ = cseam_set_thread_niceness(BackgroundExecutor.defaultNiceness)
            }
        }
        var clients: [UpstreamPool: HTTPClient] = [:]
        var gates: [UpstreamPool: UpstreamConnectionGate] = [:]
        for pool in UpstreamPool.allCases {
            let connections = max(1, pool.connectionsPerHost(configuration))
            var clientConfiguration = HTTPClient.Configuration()
            clientConfiguration.redirectConfiguration = .disallow
            clientConfiguration.decompression = .disabled
            // Proxies from the environment are not used: they would bypass the address checks.
            clientConfiguration.proxy = nil
            // Seam records its own client spans, named for what each request is for
            // (`TracingUpstream`); the client's own would be a second, unnamed span per request
            // (and, with no tracer bootstrapped, a no-op span whose attributes are still
            // computed for every ad request).
            clientConfiguration.tracing.tracer = nil
            clientConfiguration.connectionPool = .init(
                idleTimeout: .seconds(30),
                concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
            // A refused connection fails at once instead of being retried until the deadline: every
            // caller has a fallback (content without ads, the fallback URL) that beats waiting.
            clientConfiguration.connectionPool.retryConnectionEstablishment = false
            let loops: any EventLoopGroup = pool == .origin ? MultiThreadedEventLoopGroup.singleton : backgroundLoops
            clients[pool] = HTTPClient(
                eventLoopGroup: loops, configuration: clientConfiguration, backgroundActivityLogger: logger)
            gates[pool] = UpstreamConnectionGate(limit: connections)
        }
        self.clients = clients
        self.gates = gates
    }

    /// Stops the clients after in-flight requests; call once, after the HTTP server stopped.
    package func shutdown() async throws {
        var failure: (any Error)?
        for pool in UpstreamPool.allCases {
            guard let client = clients[pool] else { continue }
            do { try await client.shutdown() } catch { failure = failure ?? error }
        }
        try? await backgroundLoops.shutdownGracefully()
        if let failure { throw failure }
    }

    /// Every wait and every hop ends by the request's deadline and its time-out (`FetchClock`).
    package var keepsDeadlines: Bool { true }

    package func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let timeout = request.timeout ?? policy.timeout(for: request.purpose)
        let started = ContinuousClock.now
        var clock = FetchClock(timeout: timeout, started: started, callerDeadline: request.deadline)
        let result = await follow(request, clock: &clock)
        let elapsed = ContinuousClock.now - started
        switch result {
        case .success(let response):
            logger.debug(
                "upstream fetch",
                metadata: [
                    "purpose": "\(request.purpose.rawValue)", "url": "\(Self.redacted(response.finalURL))",
                    "status": "\(response.status)", "bytes": "\(response.body.readableBytes)", "duration": "\(elapsed)",
                    "waited": "\(clock.waited)",
                ])
            return response
        case .failure(let error):
            logger.info(
                "upstream fetch failed",
                metadata: [
                    "purpose": "\(request.purpose.rawValue)", "url": "\(Self.redacted(request.url))",
                    "error": "\(Self.redacted(error.description))", "duration": "\(elapsed)",
                    "waited": "\(clock.waited)",
                ])
            throw error
        }
    }

    /// The time limits of one fetch. The upstream's time-out is a budget of answer time spent
    /// across hops (name resolution, request, body); waiting for a connection does not spend it.
    /// Waits end at `waitEnd` (the time-out after the fetch began, or the caller's deadline),
    /// and nothing runs past the caller's deadline.
    struct FetchClock {
        let timeout: Duration
        private(set) var answerLeft: Duration
        let waitEnd: ContinuousClock.Instant
        let callerDeadline: ContinuousClock.Instant?
        private(set) var waited: Duration = .zero

        init(timeout: Duration, started: ContinuousClock.Instant, callerDeadline: ContinuousClock.Instant?) {
            self.timeout = timeout
            answerLeft = timeout
            self.callerDeadline = callerDeadline
            waitEnd = callerDeadline.map { min($0, started + timeout) } ?? started + timeout
        }

        /// When an answer phase starting now must end.
        func answerEnd(from now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant {
            callerDeadline.map { min($0, now + answerLeft) } ?? now + answerLeft
        }

        mutating func spendAnswer(_ duration: Duration) { answerLeft -= duration }
        mutating func spendWait(_ duration: Duration) { waited += duration }
    }

    /// Runs the request and its redirects. Never throws: errors come back as values.
    private func follow(
        _ request: UpstreamRequest, clock: inout FetchClock
    ) async -> Result<UpstreamResponse, UpstreamError> {
        let limit = min(policy.sizeLimit(for: request.purpose), request.sizeLimit ?? .max)
        var currentText = request.url
        do {
            var url = try UpstreamURL(request.url)
            var method = request.method
            var headers = request.headers
            var body = request.body
            var hops = 0
            while true {
                switch try await exchange(
                    url: url, text: currentText, method: method, headers: headers, body: body,
                    purpose: request.purpose, limit: limit, bodyObserver: request.bodyObserver,
                    clock: &clock)
                {
                case .redirect(let status, let location):
                    hops += 1
                    guard hops <= policy.maxRedirects else { return .failure(.tooManyRedirects(url: request.url)) }
                    let nextText = URIReference.resolve(location, against: currentText)
                    let next = try UpstreamURL(nextText)
                    if next.scheme != url.scheme || next.host != url.host || next.port != url.port {
                        headers.removeAll { Self.credentialHeaders.contains($0.name.lowercased()) }
                    }
                    if status == 303, method != "HEAD" {
                        method = "GET"
                        body = nil
                    }
                    url = next
                    currentText = nextText
                case .answer(let status, let responseHeaders, let body):
                    guard (200..<300).contains(status) else {
                        return .failure(.status(url: currentText, code: status))
                    }
                    return .success(
                        UpstreamResponse(status: status, headers: responseHeaders, body: body, finalURL: currentText))
                }
            }
        } catch let error as UpstreamError {
            return .failure(error)
        } catch {
            return .failure(Self.map(error, url: currentText, timeout: clock.timeout, limit: limit))
        }
    }

    /// What one hop came back with.
    private enum HopAnswer: Sendable {
        case redirect(status: Int, location: String)
        /// The body is empty for non-2xx answers (not read).
        case answer(status: Int, headers: [(name: String, value: String)], body: ByteBuffer)
    }

    /// One hop: check the host and its addresses, wait for a connection, send to the checked
    /// address and read the answer.
    private func exchange(
        url: UpstreamURL, text urlText: String, method: String, headers: [(name: String, value: String)],
        body requestBody: ByteBuffer? = nil,
        purpose: UpstreamPurpose, limit: Int, bodyObserver: (any UpstreamBodyObserver)?,
        clock: inout FetchClock
    ) async throws -> HopAnswer {
        try policy.checkHost(url.host)
        let pool = UpstreamPool(purpose)
        guard let client = clients[pool], let gate = gates[pool] else {
            throw UpstreamError.unreachable(url: url.description, reason: "no connection pool for \(purpose.rawValue)")
        }
        let loop = client.eventLoopGroup.next()
        let addresses: [IPAddress]
        if let literal = IPAddress(url.host) {
            addresses = [literal]
        } else {
            let resolving = ContinuousClock.now
            let resolver = self.resolver
            let host = url.host, text = urlText
            let outcome = await Self.run(until: clock.answerEnd(), loop: loop) {
                () async -> Result<[IPAddress], UpstreamError> in
                do throws(UpstreamError) { return .success(try await resolver.resolve(host: host, url: text)) } catch {
                    return .failure(error)
                }
            }
            clock.spendAnswer(ContinuousClock.now - resolving)
            guard let outcome else { throw UpstreamError.timeout(url: text, after: clock.timeout) }
            addresses = try outcome.get()
        }
        for address in addresses {
            try policy.checkAddress(address, host: url.host)
        }
        guard let pinned = addresses.first else {
            throw UpstreamError.unreachable(url: url.description, reason: "\(url.host) has no address")
        }
        let pinsAddress = url.scheme == "http"
        var outgoing = HTTPClientRequest(url: pinsAddress ? url.pinned(to: pinned) : url.description)
        outgoing.method = HTTPMethod(rawValue: method)
        for header in headers where header.name.lowercased() != "host" {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if pinsAddress { outgoing.headers.replaceOrAdd(name: "Host", value: url.authority) }
        if !outgoing.headers.contains(name: "user-agent") {
            outgoing.headers.add(name: "User-Agent", value: Self.userAgent)
        }
        // Seam's mark on everything it asks for (RFC 8586): a Seam asked by Seam refuses (LoopGuard).
        outgoing.headers.add(name: "CDN-Loop", value: LoopGuard.token)
        if let requestBody { outgoing.body = .bytes(requestBody) }

        // Wait for one of this pool's connections to the host; the upstream's clock is not running.
        let key = Self.connectionKey(
            scheme: url.scheme, target: pinsAddress ? pinned.description : url.host, port: url.port)
        let waitStarted = ContinuousClock.now
        let acquired = await gate.acquire(key, until: Self.nioDeadline(clock.waitEnd), timerLoop: loop)
        let waited = ContinuousClock.now - waitStarted
        clock.spendWait(waited)
        metrics.recordWait(waited, purpose: purpose)
        guard acquired else {
            if Task.isCancelled { throw UpstreamError.timeout(url: urlText, after: clock.timeout) }
            metrics.recordNoConnection(purpose: purpose)
            throw UpstreamError.noConnection(url: urlText, waited: waited, setting: pool.setting)
        }

        let asked = ContinuousClock.now
        let end = clock.answerEnd(from: asked)
        let logger = self.logger
        let prepared = outgoing
        let observer = bodyObserver
        let outcome = await Self.run(until: end, loop: loop) { () async -> Result<HopAnswer, any Error> in
            do {
                let response = try await client.execute(prepared, deadline: Self.nioDeadline(end), logger: logger)
                let status = Int(response.status.code)
                // An answer from a Seam, whatever its status: a Seam URL given as content or ad.
                if LoopGuard.marked(via: response.headers["via"]) {
                    _ = try? await response.body.collect(upTo: 16 * 1024)
                    return .failure(UpstreamError.loop(url: urlText))
                }
                if Self.redirectStatuses.contains(status), let location = response.headers.first(name: "location") {
                    // Drain a small redirect body so the connection can be reused; a big one is dropped.
                    _ = try? await response.body.collect(upTo: 16 * 1024)
                    return .success(.redirect(status: status, location: location))
                }
                guard (200..<300).contains(status) else {
                    return .success(.answer(status: status, headers: [], body: ByteBuffer()))
                }
                if let declared = response.headers.first(name: "content-length").flatMap({ Int($0) }), declared > limit
                {
                    return .failure(UpstreamError.tooLarge(url: urlText, limit: limit))
                }
                // Read chunk by chunk: the size limit and the observer's caps stop the download
                // itself, so an oversized answer costs at most the limit in memory.
                var body = ByteBuffer()
                for try await chunk in response.body {
                    guard body.readableBytes + chunk.readableBytes <= limit else {
                        return .failure(UpstreamError.tooLarge(url: urlText, limit: limit))
                    }
                    if let reason = observer?.observe(chunk) {
                        return .failure(UpstreamError.refused(url: urlText, reason: reason))
                    }
                    body.writeImmutableBuffer(chunk)
                }
                return .success(
                    .answer(
                        status: status, headers: response.headers.map { (name: $0.name, value: $0.value) }, body: body))
            } catch {
                return .failure(error)
            }
        }
        gate.release(key)
        let answered = ContinuousClock.now - asked
        clock.spendAnswer(answered)
        metrics.recordAnswer(answered, purpose: purpose)
        guard let outcome else { throw UpstreamError.timeout(url: urlText, after: clock.timeout) }
        return try outcome.get()
    }

    /// How the connection gate names a host: as AsyncHTTPClient pools connections.
    static func connectionKey(scheme: String, target: String, port: Int) -> String {
        "\(scheme)://\(target):\(port)"
    }

    static func nioDeadline(_ instant: ContinuousClock.Instant) -> NIODeadline {
        NIODeadline.now() + TimeAmount(instant - ContinuousClock.now)
    }

    private enum RaceOutcome<Value: Sendable>: Sendable {
        case done(Value)
        case timedOut
        case stood
    }

    /// Runs `operation`, giving up at `end`: nil when the time ran out first (the operation is
    /// then cancelled, and this returns once it has stopped). The timer is the event loop's (cheap
    /// to cancel) rather than a sleeping task: a break starting for thousands of viewers makes
    /// thousands of requests at once.
    private static func run<Value: Sendable>(
        until end: ContinuousClock.Instant, loop: any EventLoop,
        _ operation: @escaping @Sendable () async -> Value
    ) async -> Value? {
        await withTaskGroup(of: RaceOutcome<Value>.self) { group in
            group.addTask { .done(await operation()) }
            group.addTask {
                let timer = loop.scheduleTask(deadline: nioDeadline(end)) {}
                let fired = await withTaskCancellationHandler {
                    (try? await timer.futureResult.get()) != nil
                } onCancel: {
                    timer.cancel()
                }
                return fired ? .timedOut : .stood
            }
            var result: Value?
            var decided = false
            while !decided, let next = await group.next() {
                switch next {
                case .done(let value): result = value; decided = true
                case .timedOut: decided = true
                case .stood: continue
                }
            }
            group.cancelAll()
            return result
        }
    }

    static func map(_ error: any Error, url: String, timeout: Duration, limit: Int) -> UpstreamError {
        if error is NIOTooManyBytesError { return .tooLarge(url: url, limit: limit) }
        if error is CancellationError { return .timeout(url: url, after: timeout) }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout,
                .cancelled:
                return .timeout(url: url, after: timeout)
            default:
                return unreachable(clientError, url: url)
            }
        }
        return unreachable(error, url: url)
    }

    /// A connection failure in Seam's words (`ConnectionFailure`); TLS spoken to a plain-HTTP
    /// server is its own error, since its fix is the URL's scheme.
    static func unreachable(_ error: any Error, url: String) -> UpstreamError {
        let failure = ConnectionFailure(error)
        if failure == .notTLS { return .notTLS(url: url) }
        let host = (try? UpstreamURL(url)).map(\.authority) ?? url
        return .unreachable(url: url, reason: failure.words(host: host))
    }

    /// Text with every URL query cut to `?…`, for logs: ad tags carry keys and viewer data in the query.
    static func redacted(_ text: String) -> String {
        var result = ""
        var skipping = false
        for character in text {
            if skipping {
                if character.isWhitespace { skipping = false; result.append(character) }
                continue
            }
            if character == "?" {
                result.append("?…")
                skipping = true
                continue
            }
            result.append(character)
        }
        return result
    }
}
