import Hummingbird
import HummingbirdCore
import NIOCore
import Logging
import ServiceLifecycle

/// A part of Seam's HTTP surface (the session routes, the demo's origin, ...). Providers add their
/// routes to the one router; the infrastructure (errors as JSON, gzip, logging, metrics, body
/// limit) already wraps every route they add.
package protocol SeamRouteProvider: Sendable {
    func addRoutes(to router: Router<SeamRequestContext>)
    /// Background work to run as long as the server runs (a session sweeper, ...). Default: none.
    var services: [any Service] { get }
    /// Whether what these routes depend on can serve now (`/readyz`): the session routes answer
    /// for their store. Default: ready.
    func isReady() async -> Bool
    /// Playlists these routes can answer on the event loop, before the router
    /// (`CachedPlaylistHandler`). Default: none.
    var cachedPlaylists: (any CachedPlaylistAnswering)? { get }
}

extension SeamRouteProvider {
    package var services: [any Service] { [] }
    package var cachedPlaylists: (any CachedPlaylistAnswering)? { nil }
    package func isReady() async -> Bool { true }
}

/// Builds Seam's Hummingbird application: the infrastructure middlewares, `/healthz`, `/readyz`,
/// `/metrics`, then every provider's routes, bound to `server.host`:`server.port`.
///
/// Middleware order, outermost first: metrics → request span (tracing on only) → request log →
/// gzip → loop guard (`LoopGuard`) → CORS → error JSON → body limit → routes. Metrics and the log are outside the error middleware
/// so they see the final status; gzip is outside it so large error bodies could be compressed
/// too; the request span is outside the log so the log line carries its trace id.
///
/// - Parameters:
///   - metrics: the registry `/metrics` shows. A fresh one by default; the serve command passes the
///     one it bootstrapped the process-wide `MetricsSystem` with.
///   - readiness: what `/readyz` asks; ready by default.
///   - onServerRunning: called with the listening channel once the server runs (its local address
///     tells the port when `server.port` is 0).
///   - tracer: when on, every request is a server span (`RequestTracingMiddleware`); the
///     services' tracer (`SeamServices.tracer`).
package func buildSeamApplication(
    configuration: SeamConfiguration,
    logger: Logger,
    routes: [any SeamRouteProvider],
    metrics: SeamMetrics = SeamMetrics(),
    readiness: @escaping @Sendable () async -> Bool = { true },
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in },
    tracer: SeamTracer = .off
) -> some ApplicationProtocol {
    let router = Router(context: SeamRequestContext.self)
    // Middlewares first: Hummingbird wraps each route with the middlewares present when it is added.
    router.add(middleware: SeamMetricsMiddleware(metrics: metrics))
    if tracer.isOn {
        router.add(middleware: RequestTracingMiddleware(tracer: tracer))
    }
    router.add(middleware: RequestLoggingMiddleware())
    if configuration.server.gzip {
        router.add(middleware: GzipMiddleware())
    }
    // Outside the error middleware: the Via mark goes on error answers too.
    router.add(middleware: LoopGuardMiddleware())
    // Cross-origin access for web players, on every answer (errors too: the error middleware
    // inside has made them answers) and every preflight, whatever the path.
    router.add(middleware: seamCORSMiddleware())
    router.add(middleware: SeamErrorMiddleware())
    router.add(middleware: RequestBodyLimitMiddleware(maxBytes: configuration.server.maxRequestBodyBytes))
    HealthRoutes(metrics: metrics, readiness: readiness).addRoutes(to: router)
    for provider in routes {
        provider.addRoutes(to: router)
    }
    // Answered before the router only where the router's path would add nothing: no request
    // spans, no per-request log lines.
    let cached = routes.lazy.compactMap(\.cachedPlaylists).first.flatMap { answering in
        tracer.isOn || logger.logLevel <= .debug
            ? nil
            : CachedPlaylistHandler.Settings(
                answering: answering, metrics: metrics, gzip: configuration.server.gzip, serverName: serverName)
    }
    return Application(
        router: router,
        server: httpServer(configuration.server, metrics: metrics, cachedPlaylists: cached),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.server.host, port: configuration.server.port),
            serverName: serverName,
            // Room for a burst of new viewers while the accept loop catches up (the kernel caps it
            // at net.core.somaxconn).
            backlog: 1024
        ),
        services: routes.flatMap(\.services),
        onServerRunning: onServerRunning,
        logger: logger
    )
}

/// The `Server` header of every answer.
let serverName = "Seam"

/// Cross-origin access to the session API and its playlists: Hummingbird's `CORSMiddleware` at
/// router level, so a preflight of any path is answered (the router runs its middlewares for
/// paths and methods it has no route for) and no list of paths is kept by hand.
///
/// Web players fetch playlists and segments with CORS (hls.js always does; Chromium's native
/// HLS player only plays segments from another origin when `<video crossorigin>` is set and
/// every response carries `Access-Control-Allow-Origin`). Seam's playlists point at origin and
/// ad CDNs, so every answer, errors and redirects included, allows any origin; `Location` is
/// exposed so a page can follow the implicit route's redirect.
func seamCORSMiddleware<Context: RequestContext>() -> CORSMiddleware<Context> {
    CORSMiddleware(
        allowOrigin: .all,
        allowHeaders: [.accept, .authorization, .contentType, .origin, .range],
        allowMethods: [.get, .head, .post, .delete, .options],
        exposedHeaders: ["Content-Length", "Content-Type", "Location"],
        maxAge: .seconds(86400))
}

/// HTTP/1.1 with Seam's connection limits: in front of Hummingbird's channel, Seam's guard for the
/// header-read time-out (`server.headerReadTimeoutSeconds`), the idle time-out between requests
/// (`server.idleTimeoutSeconds`) and the connection limit (`server.maxConnections`), so idle and
/// half-sent connections cannot keep a new viewer out (see `ConnectionRegistry`). Hummingbird's
/// own idle time-out is off: it cannot see the playlists answered before its handlers.
/// - Parameter cachedPlaylists: playlists answered on the event loop (`CachedPlaylistHandler`); nil: none.
func httpServer(
    _ server: SeamConfiguration.Server, metrics: SeamMetrics,
    cachedPlaylists: CachedPlaylistHandler.Settings? = nil
) -> HTTPServerBuilder {
    let registry = ConnectionRegistry(maxConnections: server.maxConnections, metricsFactory: metrics.factory)
    let headerReadTimeout = TimeAmount.nanoseconds(Int64(server.headerReadTimeoutSeconds * 1_000_000_000))
    let idleTimeout = TimeAmount.nanoseconds(Int64(server.idleTimeoutSeconds * 1_000_000_000))
    return HTTPServerBuilder { responder in
        GuardedHTTP1Channel(
            http1: HTTP1Channel(
                responder: responder,
                configuration: .init(additionalChannelHandlers: [RequestProgressHandler()], idleTimeout: nil)),
            registry: registry, headerReadTimeout: headerReadTimeout, idleTimeout: idleTimeout,
            cachedPlaylists: cachedPlaylists)
    }
}

/// Runs Seam until SIGTERM or SIGINT: builds the upstream client, the metrics registry (and points
/// the process-wide `MetricsSystem` at it), asks `extraRoutes` for the route providers, serves,
/// then shuts down gracefully: in-flight requests get `server.shutdownTimeoutSeconds` to finish,
/// and the upstream client is shut down after the server has stopped.
///
/// - Parameters:
///   - extraRoutes: the product's routes, built from the shared services, e.g.
///     `{ services in [SessionRoutes(services: services)] }`.
///   - tracing: the span exporter (`SeamTracing.make`, built before the logging system so logs
///     can carry trace ids); its service runs in the group and stops last, after the server,
///     so the spans of the last requests are still sent. Off by default.
package func runSeam(
    configuration: SeamConfiguration,
    logger: Logger,
    extraRoutes: @Sendable (SeamServices) throws -> [any SeamRouteProvider] = { _ in [] },
    readiness: @escaping @Sendable () async -> Bool = { true },
    tracing: SeamTracing = .off
) async throws {
    let metrics = SeamMetrics()
    metrics.bootstrapMetricsSystem()
    var configuration = configuration
    configuration.server.maxConnections = raiseOpenFileLimit(for: configuration.server, logger: logger)
    let upstream = try SafeUpstreamClient(configuration: configuration, logger: logger, metricsFactory: metrics.factory)
    do {
        let secret = SessionIDSecret.resolve(configuration.sessions)
        switch secret.source {
        case .processOnly(let reason):
            logger.warning("session ids are signed with \(secret.source): \(reason)")
        default:
            logger.info("session ids are signed with the secret from \(secret.source)")
        }
        let services = SeamServices(
            configuration: configuration,
            logger: logger,
            upstream: upstream,
            domainMatcher: try DomainMatcher(configuration: configuration.domains),
            metrics: metrics,
            sessionIDs: secret.key,
            tracer: tracing.tracer
        )
        let drain = ShutdownDrain(seconds: configuration.server.drainSeconds, logger: logger)
        let providers = try extraRoutes(services)
        // Ready: not draining, the caller's check, and every provider's (the session store).
        let app = buildSeamApplication(
            configuration: configuration, logger: logger, routes: providers,
            metrics: metrics,
            readiness: {
                guard !drain.isDraining, await readiness() else { return false }
                for provider in providers where !(await provider.isReady()) { return false }
                return true
            },
            tracer: tracing.tracer
        )
        // Shut down in reverse: the drain (not ready, still serving) first, then the server,
        // then the span exporter (it sends what the last requests recorded).
        var groupConfiguration = ServiceGroupConfiguration(
            services: tracing.services + [app as any Service, drain], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        groupConfiguration.maximumGracefulShutdownDuration =
            UpstreamPolicy.duration(seconds: configuration.server.shutdownTimeoutSeconds)
        logger.info(
            "Seam starting",
            metadata: [
                "address": "\(configuration.server.host):\(configuration.server.port)",
                "domains.mode": "\(configuration.domains.mode.rawValue)",
                "tracing":
                    "\(tracing.tracer.isOn ? TracingUpstream.redacted(configuration.tracing.otlpEndpoint) : "off")",
            ])
        try await ServiceGroup(configuration: groupConfiguration).run()
    } catch {
        try? await upstream.shutdown()
        throw ListenFailure(error, server: configuration.server) ?? error
    }
    try await upstream.shutdown()
    logger.info("Seam stopped")
}

/// Raises the open-file limit as far as allowed, and returns the connection limit to use:
/// `server.maxConnections`, or lower when the open-file limit cannot hold it plus 256 descriptors
/// for upstream connections and files. Past the descriptor limit `accept` fails, new viewers wait
/// and a core spins (1,100 idle connections under a 1,024 limit, seen with the old 10,000
/// default); under the limit the oldest idle connection is closed for the new viewer instead.
func raiseOpenFileLimit(for server: SeamConfiguration.Server, logger: Logger) -> Int {
    guard let limits = OpenFileLimit.raise() else { return server.maxConnections }
    let lowered = effectiveMaxConnections(server.maxConnections, openFileLimit: limits.soft)
    if lowered < server.maxConnections {
        logger.warning(
            "server.maxConnections lowered from \(server.maxConnections) to \(lowered): the open-file limit (\(limits.soft), hard \(limits.hard)) holds no more with 256 left for upstream connections and files; raise it (ulimit -n, LimitNOFILE= in systemd) to allow more"
        )
    }
    return lowered
}

/// `configured`, or the open-file limit minus 256 when that is lower (at least 16).
func effectiveMaxConnections(_ configured: Int, openFileLimit: UInt64) -> Int {
    let room = openFileLimit > 256 ? Int(clamping: openFileLimit - 256) : 0
    return min(configured, max(16, room))
}
