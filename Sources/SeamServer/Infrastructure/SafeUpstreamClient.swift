import AsyncHTTPClient
import CSeamSystem
import HLS
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// The production `UpstreamFetching`: every request Seam makes (origin, ADS, ad media, beacons)
/// goes through one shared `HTTPClient` and these rules, checked again on every redirect hop:
///
/// - only absolute `http`/`https` URLs, without user info;
/// - the host must be in `upstream.allowedHosts` when that list is set;
/// - every address the host resolves to must be public (no loopback, link-local, private, CGNAT,
///   multicast, reserved, or IPv6 forms that carry such an IPv4 address) unless
///   `upstream.allowPrivateNetworks` or `upstream.allowedNetworks` opens it;
/// - one deadline per request, redirects included (the purpose's time-out, or `UpstreamRequest.timeout`);
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
/// Origin playlists go through a client on the shared event loops, which answer the players;
/// ad requests, ad media and beacons through a second client on an event loop of their own at a
/// lower scheduling priority, so the I/O of a break starting for thousands of viewers does not
/// delay their playlist answers.
public final class SafeUpstreamClient: UpstreamFetching {
    public let policy: UpstreamPolicy
    let httpClient: HTTPClient
    let backgroundClient: HTTPClient
    private let backgroundLoops: MultiThreadedEventLoopGroup
    let resolver: any HostResolving
    let logger: Logger

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Headers that must not follow a redirect to another origin.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]
    static let userAgent = "Seam/1 (server-side ad insertion; +https://github.com/seam-ssai/seam)"

    /// - Parameters:
    ///   - configuration: reads `upstream.*`, `ads.requestTimeoutSeconds` and `beacons.timeoutSeconds`.
    ///   - resolver: the system resolver; tests substitute their own.
    /// - Throws: `ConfigurationError` when `upstream.allowedHosts` or `upstream.allowedNetworks` has a bad entry.
    public init(configuration: SeamConfiguration, logger: Logger,
                resolver: any HostResolving = SystemHostResolver()) throws(ConfigurationError) {
        policy = try UpstreamPolicy(configuration: configuration)
        self.resolver = resolver
        self.logger = logger
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.redirectConfiguration = .disallow
        clientConfiguration.decompression = .disabled
        // Proxies from the environment are not used: they would bypass the address checks.
        clientConfiguration.proxy = nil
        clientConfiguration.connectionPool.idleTimeout = .seconds(30)
        // A refused connection fails at once instead of being retried until the deadline: every
        // caller has a fallback (content without ads, the fallback URL) that beats waiting.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        httpClient = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                                configuration: clientConfiguration, backgroundActivityLogger: logger)
        backgroundLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        for loop in backgroundLoops.makeIterator() {
            loop.execute {
                _ = cseam_set_thread_name("seam-ads-io")
                _ = cseam_set_thread_niceness(BackgroundExecutor.defaultNiceness)
            }
        }
        backgroundClient = HTTPClient(eventLoopGroup: backgroundLoops, configuration: clientConfiguration,
                                      backgroundActivityLogger: logger)
    }

    /// Stops the clients after in-flight requests; call once, after the HTTP server stopped.
    public func shutdown() async throws {
        var failure: (any Error)?
        do { try await httpClient.shutdown() } catch { failure = error }
        do { try await backgroundClient.shutdown() } catch { failure = failure ?? error }
        try? await backgroundLoops.shutdownGracefully()
        if let failure { throw failure }
    }

    private func client(for purpose: UpstreamPurpose) -> HTTPClient {
        purpose == .origin ? httpClient : backgroundClient
    }

    public func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let timeout = request.timeout ?? policy.timeout(for: request.purpose)
        let started = ContinuousClock.now
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        // The deadline is enforced by racing a timer, not only through HTTPClient's deadline,
        // so that DNS and body streaming are inside it too. The timer is the event loop's (cheap
        // to cancel) rather than a sleeping task: a break starting for thousands of viewers
        // makes thousands of requests at once.
        let loop = client(for: request.purpose).eventLoopGroup.next()
        let result = await withTaskGroup(of: Result<UpstreamResponse, UpstreamError>?.self) { group in
            group.addTask { await self.follow(request, deadline: deadline, timeout: timeout) }
            group.addTask {
                let timer = loop.scheduleTask(deadline: deadline) {}
                let fired = await withTaskCancellationHandler {
                    (try? await timer.futureResult.get()) != nil
                } onCancel: {
                    timer.cancel()
                }
                return fired ? .failure(.timeout(url: request.url, after: timeout)) : nil
            }
            var first: Result<UpstreamResponse, UpstreamError>?
            while first == nil, let next = await group.next() {
                first = next
            }
            group.cancelAll()
            return first ?? .failure(.timeout(url: request.url, after: timeout))
        }
        let elapsed = ContinuousClock.now - started
        switch result {
        case .success(let response):
            logger.debug("upstream fetch", metadata: [
                "purpose": "\(request.purpose.rawValue)", "url": "\(Self.redacted(response.finalURL))",
                "status": "\(response.status)", "bytes": "\(response.body.readableBytes)", "duration": "\(elapsed)",
            ])
            return response
        case .failure(let error):
            logger.info("upstream fetch failed", metadata: [
                "purpose": "\(request.purpose.rawValue)", "url": "\(Self.redacted(request.url))",
                "error": "\(Self.redacted(error.description))", "duration": "\(elapsed)",
            ])
            throw error
        }
    }

    /// Runs the request and its redirects. Never throws: the caller races this against a timer.
    private func follow(_ request: UpstreamRequest, deadline: NIODeadline, timeout: Duration) async -> Result<UpstreamResponse, UpstreamError> {
        let limit = policy.sizeLimit(for: request.purpose)
        var currentText = request.url
        do {
            var url = try UpstreamURL(request.url)
            var method = request.method
            var headers = request.headers
            var hops = 0
            while true {
                let response = try await send(url: url, method: method, headers: headers, deadline: deadline,
                                              client: client(for: request.purpose))
                let status = Int(response.status.code)
                if Self.redirectStatuses.contains(status), let location = response.headers.first(name: "location") {
                    // Drain a small redirect body so the connection can be reused; a big one is dropped.
                    _ = try? await response.body.collect(upTo: 16 * 1024)
                    hops += 1
                    guard hops <= policy.maxRedirects else { return .failure(.tooManyRedirects(url: request.url)) }
                    let nextText = URIReference.resolve(location, against: currentText)
                    let next = try UpstreamURL(nextText)
                    if next.scheme != url.scheme || next.host != url.host || next.port != url.port {
                        headers.removeAll { Self.credentialHeaders.contains($0.name.lowercased()) }
                    }
                    if status == 303, method != "HEAD" { method = "GET" }
                    url = next
                    currentText = nextText
                    continue
                }
                guard (200..<300).contains(status) else {
                    return .failure(.status(url: currentText, code: status))
                }
                if let declared = response.headers.first(name: "content-length").flatMap({ Int($0) }), declared > limit {
                    return .failure(.tooLarge(url: currentText, limit: limit))
                }
                let body = try await response.body.collect(upTo: limit)
                return .success(UpstreamResponse(
                    status: status,
                    headers: response.headers.map { (name: $0.name, value: $0.value) },
                    body: body,
                    finalURL: currentText
                ))
            }
        } catch let error as UpstreamError {
            return .failure(error)
        } catch {
            return .failure(Self.map(error, url: currentText, timeout: timeout, limit: limit))
        }
    }

    /// One hop: check host and addresses, then send to the checked address.
    private func send(url: UpstreamURL, method: String, headers: [(name: String, value: String)],
                      deadline: NIODeadline, client: HTTPClient) async throws -> HTTPClientResponse {
        try policy.checkHost(url.host)
        let addresses: [IPAddress]
        if let literal = IPAddress(url.host) {
            addresses = [literal]
        } else {
            addresses = try await resolver.resolve(host: url.host, url: url.description)
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
        if !outgoing.headers.contains(name: "user-agent") { outgoing.headers.add(name: "User-Agent", value: Self.userAgent) }
        return try await client.execute(outgoing, deadline: deadline, logger: logger)
    }

    static func map(_ error: any Error, url: String, timeout: Duration, limit: Int) -> UpstreamError {
        if error is NIOTooManyBytesError { return .tooLarge(url: url, limit: limit) }
        if error is CancellationError { return .timeout(url: url, after: timeout) }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout, .cancelled:
                return .timeout(url: url, after: timeout)
            default:
                return .unreachable(url: url, reason: String(describing: clientError))
            }
        }
        return .unreachable(url: url, reason: String(describing: error))
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
