import Hummingbird
import Logging

/// One log event per request: method, path, status, duration. The query string is left out, because
/// Seam URLs can carry ad parameters, consent strings and tokens in it.
///
/// Successful requests log at `debug` (players fetch playlists every few seconds; at `info` that
/// would drown everything else); 4xx at `info`; 5xx at `warning`.
package struct RequestLoggingMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await RequestOutcome.observing(request, context: context, next: next) { outcome in
            log(request, context, outcome)
        }
    }

    private func log(_ request: Request, _ context: Context, _ outcome: RequestOutcome) {
        let (status, elapsed) = (outcome.status, outcome.elapsed)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let level: Logger.Level = status >= 500 ? .warning : (status >= 400 ? .info : .debug)
        context.logger.log(
            level: level, "request",
            metadata: [
                "http.method": "\(request.method.rawValue)",
                "http.path": "\(request.uri.path)",
                "http.status": "\(status)",
                "http.duration_ms": "\((milliseconds * 10).rounded() / 10)",
            ])
    }
}
