import HTTPTypes
import Hummingbird
import NIOCore

/// Cross-origin access to the session API and its playlists.
///
/// Web players fetch playlists and segments with CORS (hls.js always does; Chromium's native
/// HLS player only plays segments from another origin when `<video crossorigin>` is set and
/// every response carries `Access-Control-Allow-Origin`). Seam's playlists point at origin and
/// ad CDNs, so every answer, errors and redirects included, allows any origin.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = SeamRequestContext

    static let headers: HTTPFields = [
        .accessControlAllowOrigin: "*",
        .accessControlExposeHeaders: "Content-Length, Content-Type, Location",
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            return Response(status: .noContent, headers: Self.headers + [
                .accessControlAllowMethods: "GET, HEAD, POST, DELETE, OPTIONS",
                .accessControlAllowHeaders: request.headers[.accessControlRequestHeaders] ?? "Content-Type",
                .accessControlMaxAge: "86400",
            ])
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as SeamError {
            // Answered here rather than by the error middleware, so the CORS headers go on errors too.
            response = JSONResponses.error(error)
        }
        for field in Self.headers { response.headers[field.name] = field.value }
        return response
    }
}

extension HTTPFields {
    static func + (a: HTTPFields, b: HTTPFields) -> HTTPFields {
        var result = a
        result.append(contentsOf: b)
        return result
    }
}
