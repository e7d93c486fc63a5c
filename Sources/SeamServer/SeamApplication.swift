import Hummingbird
import Logging
import ServiceLifecycle

/// A part of Seam's HTTP surface (the session routes, the demo's origin, ...). Providers add their
/// routes to the one router; the infrastructure (errors as JSON, gzip, logging, metrics, body
/// limit) already wraps every route they add.
public protocol SeamRouteProvider: Sendable {
    func addRoutes(to router: Router<SeamRequestContext>)
    /// Background work to run as long as the server runs (a session sweeper, ...). Default: none.
    var services: [any Service] { get }
}

extension SeamRouteProvider {
    public var services: [any Service] { [] }
}

/// Builds Seam's Hummingbird application: the infrastructure middlewares, `/healthz`, `/readyz`,
/// `/metrics`, then every provider's routes, bound to `server.host`:`server.port`.
///
/// Middleware order, outermost first: metrics → request log → gzip → error JSON → body limit →
/// routes. Metrics and the log are outside the error middleware so they see the final status;
/// gzip is outside it so large error bodies could be compressed too.
///
/// - Parameters:
///   - metrics: the registry `/metrics` shows. A fresh one by default; the serve command passes the
///     one it bootstrapped the process-wide `MetricsSystem` with.
///   - readiness: what `/readyz` asks; ready by default.
public func buildSeamApplication(
    configuration: SeamConfiguration,
    logger: Logger,
    routes: [any SeamRouteProvider],
    metrics: SeamMetrics = SeamMetrics(),
    readiness: @escaping @Sendable () async -> Bool = { true }
) -> some ApplicationProtocol {
    let router = Router(context: SeamRequestContext.self)
    // Middlewares first: Hummingbird wraps each route with the middlewares present when it is added.
    router.add(middleware: SeamMetricsMiddleware(metrics: metrics))
    router.add(middleware: RequestLoggingMiddleware())
    if configuration.server.gzip {
        router.add(middleware: GzipMiddleware())
    }
    router.add(middleware: SeamErrorMiddleware())
    router.add(middleware: RequestBodyLimitMiddleware(maxBytes: configuration.server.maxRequestBodyBytes))
    HealthRoutes(metrics: metrics, readiness: readiness).addRoutes(to: router)
    for provider in routes {
        provider.addRoutes(to: router)
    }
    return Application(
        router: router,
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.server.host, port: configuration.server.port),
            serverName: "Seam"
        ),
        services: routes.flatMap(\.services),
        logger: logger
    )
}

/// Runs Seam until SIGTERM or SIGINT: builds the upstream client, the metrics registry (and points
/// the process-wide `MetricsSystem` at it), asks `extraRoutes` for the route providers, serves,
/// then shuts down gracefully: in-flight requests get `server.shutdownTimeoutSeconds` to finish,
/// and the upstream client is shut down after the server has stopped.
///
/// - Parameter extraRoutes: the product's routes, built from the shared services, e.g.
///   `{ services in [SessionRoutes(services: services)] }`.
public func runSeam(
    configuration: SeamConfiguration,
    logger: Logger,
    extraRoutes: @Sendable (SeamServices) throws -> [any SeamRouteProvider] = { _ in [] },
    readiness: @escaping @Sendable () async -> Bool = { true }
) async throws {
    let upstream = try SafeUpstreamClient(configuration: configuration, logger: logger)
    do {
        let metrics = SeamMetrics()
        metrics.bootstrapMetricsSystem()
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
            sessionIDs: secret.key
        )
        let app = buildSeamApplication(
            configuration: configuration, logger: logger, routes: try extraRoutes(services),
            metrics: metrics, readiness: readiness
        )
        var groupConfiguration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        )
        groupConfiguration.maximumGracefulShutdownDuration =
            UpstreamPolicy.duration(seconds: configuration.server.shutdownTimeoutSeconds)
        logger.info("Seam starting", metadata: [
            "address": "\(configuration.server.host):\(configuration.server.port)",
            "domains.mode": "\(configuration.domains.mode.rawValue)",
        ])
        try await ServiceGroup(configuration: groupConfiguration).run()
    } catch {
        try? await upstream.shutdown()
        throw error
    }
    try await upstream.shutdown()
    logger.info("Seam stopped")
}
