import SeamServer
import Hummingbird

/// Lets the demo web page, served by Seam on another port, read from the demo servers.
///
/// Adds `Access-Control-Allow-Origin: *` to every answer (errors too, or the page cannot read
/// them), answers preflight `OPTIONS` itself, and turns Hummingbird's plain-text errors (an
/// unknown route, say) into the JSON error shape the rest of Seam uses.
struct DemoCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var response = Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = "GET, HEAD, POST, PUT, DELETE, OPTIONS"
            response.headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders] ?? "*"
            response.headers[.accessControlMaxAge] = "600"
            return Self.addCORS(to: response)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response =
                error.status == .notFound
                ? DemoResponses.notFound(request.uri.path)
                : DemoResponses.jsonError(
                    error.status, code: "HTTP_\(error.status.code)", message: error.status.reasonPhrase)
        }
        return Self.addCORS(to: response)
    }

    private static func addCORS(to response: Response) -> Response {
        var response = response
        response.headers[.accessControlAllowOrigin] = "*"
        response.headers[.accessControlExposeHeaders] = "Content-Length, Content-Range, Accept-Ranges, ETag"
        return response
    }
}
