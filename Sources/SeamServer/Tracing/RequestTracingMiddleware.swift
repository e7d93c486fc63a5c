import HTTPTypes
import Hummingbird
import Tracing

/// One server span per request Seam answers, named `{method} {route}` (`POST /v1/sessions`,
/// `GET /v1/sessions/{id}/media/{rendition}.m3u8`), so the request log and every span of the
/// request (`session.create`, the origin fetches, ...) share a trace id.
///
/// A `traceparent` the caller sends (an app backend creating the session inside its own trace)
/// is continued. Attributes: `http.request.method`, `http.route`, `url.path`,
/// `http.response.status_code`; a 5xx is an error. The query, the peer address and the
/// User-Agent are left out: they are the viewer's personal data. Added to the router only when
/// tracing is on. Health checks and metric scrapes (`/healthz`, `/readyz`, `/metrics`), which a
/// load balancer and Prometheus make every few seconds, are not traced.
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracer: SeamTracer

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let backend = tracer.tracer, !untracedPaths.contains(request.uri.path) else {
            return try await next(request, context)
        }
        var parent = InstrumentationContext.current ?? .topLevel
        backend.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        let span = backend.startAnySpan("\(request.method.rawValue)", context: parent, ofKind: .server)
        defer { span.end() }
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.path"] = request.uri.path
        func finish(status: Int) {
            if let route = context.endpointPath {
                span.operationName = "\(request.method.rawValue) \(route)"
                span.attributes["http.route"] = route
            }
            span.attributes["http.response.status_code"] = status
            if status >= 500 {
                span.attributes["error.type"] = "\(status)"
                span.setStatus(SpanStatus(code: .error))
            }
        }
        return try await InstrumentationContext.$current.withValue(span.context) {
            do {
                let response = try await next(request, context)
                finish(status: Int(response.status.code))
                return response
            } catch {
                finish(status: Int((error as? any HTTPResponseError)?.status.code ?? 500))
                span.recordError(error)
                throw error
            }
        }
    }
}

/// Paths `RequestTracingMiddleware` does not trace.
private let untracedPaths: Set<String> = ["/healthz", "/readyz", "/metrics"]

/// Reads propagation headers (`traceparent`, `tracestate`) from a request.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return carrier[name]
    }
}
