import SeamServer
import Foundation
import Hummingbird

/// Serves the demo live channel over HTTP: `GET|HEAD /live/<dialect>/master.m3u8` and
/// `/live/<dialect>/<rendition>/index.m3u8`, rendered from the clock on every request.
package struct DemoLiveChannelResponder: Sendable {
    package let channel: DemoLiveChannel
    /// Seconds since 1970; injectable so tests see a fixed window.
    let now: @Sendable () -> Double

    package init(channel: DemoLiveChannel, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.channel = channel
        self.now = now
    }

    /// Players reload live playlists every target duration: a second of caching lets a CDN
    /// absorb a crowd without serving a window older than one reload.
    static let cacheControl = "max-age=1"

    package func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let responder = self
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/live/:dialect/master.m3u8", method: method) { request, context in
                responder.multivariant(dialect: context.parameters.get("dialect") ?? "", request: request)
            }
            router.on("/live/:dialect/:rendition/index.m3u8", method: method) { request, context in
                responder.media(
                    dialect: context.parameters.get("dialect") ?? "",
                    rendition: context.parameters.get("rendition") ?? "", request: request)
            }
        }
    }

    func multivariant(dialect word: String, request: Request) -> Response {
        guard DemoLiveChannelDialect(word: word) != nil else { return DemoResponses.notFound(request.uri.path) }
        return playlist(channel.multivariantPlaylist(), request: request)
    }

    func media(dialect word: String, rendition: String, request: Request) -> Response {
        guard let dialect = DemoLiveChannelDialect(word: word) else { return DemoResponses.notFound(request.uri.path) }
        let text: String?
        do {
            text = try channel.mediaPlaylist(rendition: rendition, dialect: dialect, now: now())
        } catch {
            return DemoResponses.jsonError(
                .internalServerError, code: "CUE_ENCODING_FAILED", message: error.description)
        }
        guard let text else { return DemoResponses.notFound(request.uri.path) }
        return playlist(text, request: request)
    }

    private func playlist(_ text: String, request: Request) -> Response {
        var response = DemoResponses.text(text, contentType: DemoContentType.forExtension("m3u8"))
        response.headers[.cacheControl] = Self.cacheControl
        guard request.method == .head else { return response }
        // Same headers (Content-Length included), no body.
        return Response(status: response.status, headers: response.headers, body: ResponseBody())
    }
}
