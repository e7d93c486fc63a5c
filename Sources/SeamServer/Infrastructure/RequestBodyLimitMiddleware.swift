import Hummingbird
import NIOCore

/// Refuses request bodies larger than `server.maxRequestBodyBytes` with 413 `PAYLOAD_TOO_LARGE`.
///
/// A declared `Content-Length` over the limit is refused before reading anything. A body without
/// one (chunked, or HTTP/2) is read up to the limit and refused as soon as it passes it; within the
/// limit it is handed on already collected, so routes decode it without their own limit mattering.
/// GET and HEAD requests without body framing are passed through untouched (the hot path).
package struct RequestBodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    package let maxBytes: Int

    package init(maxBytes: Int) { self.maxBytes = maxBytes }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }) {
            if declared > maxBytes { throw tooLarge() }
            if declared == 0 { return try await next(request, context) }
        } else if request.headers[.transferEncoding] == nil, request.method == .get || request.method == .head {
            return try await next(request, context)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw tooLarge()
        }
        return try await next(request, context)
    }

    private func tooLarge() -> SeamError {
        SeamError(
            .payloadTooLarge,
            "The request body is larger than \(maxBytes) bytes, the most Seam accepts (server.maxRequestBodyBytes).")
    }
}
