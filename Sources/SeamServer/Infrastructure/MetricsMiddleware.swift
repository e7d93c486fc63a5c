import Hummingbird

/// Counts requests and times them by route pattern, method and status (`SeamMetrics`).
/// Outermost middleware, so errors turned into responses further in are counted with their status.
package struct SeamMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    package let metrics: SeamMetrics

    package init(metrics: SeamMetrics) { self.metrics = metrics }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: Int(response.status.code), since: started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context, status: Int(status), since: started)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        metrics.recordRequest(
            route: context.endpointPath ?? "unmatched", method: request.method.rawValue,
            status: status, nanoseconds: nanoseconds)
    }
}
