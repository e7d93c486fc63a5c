import Hummingbird
import Logging

/// The demo's content origin: a read-only static HTTP server for `Samples/media`
/// (`GET|HEAD /media/<path>`), standing in for the CDN origin Seam sits in front of.
///
/// It is deliberately plain (no caching layer, no auth) so what Seam does with the playlists is
/// the only thing that can go wrong in the demo.
public struct DemoOrigin: Sendable {
    /// The files under `/media/`.
    public let media: DemoFileResponder

    /// - Parameter mediaRoot: the folder served under `/media/` (default `Samples/media`).
    public init(mediaRoot: String = "Samples/media") throws {
        media = DemoFileResponder(store: try DemoFileStore(root: mediaRoot))
    }

    /// Adds `/media/**` (GET, HEAD, and a JSON 405 for other methods) and `/healthz` to `router`.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let media = self.media
        let handler: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await media.respond(to: request, encodedSubpath: Self.subpath(of: request.uri.path, after: "/media/"), context: context)
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete, .patch] {
            router.on("/media/**", method: method, use: handler)
        }
        router.get("/healthz") { _, _ in DemoResponses.json(["status": "ok"]) }
    }

    /// A router with the origin's routes behind the CORS middleware.
    public func buildRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: DemoCORSMiddleware())
        addRoutes(to: router)
        return router
    }

    /// The part of an encoded request path after `prefix`, or `""` when it does not start with it.
    static func subpath(of path: String, after prefix: String) -> Substring {
        guard path.hasPrefix(prefix) else { return "" }
        return path.dropFirst(prefix.count)
    }
}
