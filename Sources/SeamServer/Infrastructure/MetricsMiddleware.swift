import Hummingbird

/// Counts requests and times them by route pattern, method and status (`SeamMetrics`).
/// Outermost middleware, so errors turned into responses further in are counted with their status.
package struct SeamMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    package let metrics: SeamMetrics

    package init(metrics: SeamMetrics) { self.metrics = metrics }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await RequestOutcome.observing(request, context: context, next: next) { outcome in
            let elapsed = outcome.elapsed.components
            metrics.recordRequest(
                route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: outcome.status,
                nanoseconds: elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        }
    }
}
