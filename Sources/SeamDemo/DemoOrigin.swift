import SeamServer
import Foundation
import Hummingbird
import Logging

/// The demo's content origin: a read-only static HTTP server for `Samples/media`
/// (`GET|HEAD /media/<path>`), standing in for the CDN origin Seam sits in front of, and a live
/// channel looping the sample title with SCTE-35 cues (`/live/<dialect>/master.m3u8`, see
/// ``DemoLiveChannel``).
///
/// It is deliberately plain (no caching layer, no auth) so what Seam does with the playlists is
/// the only thing that can go wrong in the demo.
package struct DemoOrigin: Sendable, DemoRouteProviding {
    /// The files under `/media/`.
    package let media: DemoFileResponder
    /// The live channel under `/live/`; its segments are the files under `/media/content/`.
    package let live: DemoLiveChannelResponder

    /// How long before start-up the live channel began by default: enough for a full window
    /// (and a break or two) from the first request.
    package static let defaultLiveLeadTime: Double = 120

    /// - Parameters:
    ///   - mediaRoot: the folder served under `/media/` (default `Samples/media`).
    ///   - liveEpoch: when the live channel's segment 0 started (seconds since 1970); default
    ///     ``defaultLiveLeadTime`` before now, in whole seconds.
    package init(mediaRoot: String = "Samples/media", liveEpoch: Double? = nil) throws {
        media = DemoFileResponder(store: try DemoFileStore(root: mediaRoot))
        let epoch = liveEpoch ?? (Date().timeIntervalSince1970.rounded(.down) - Self.defaultLiveLeadTime)
        live = DemoLiveChannelResponder(channel: DemoLiveChannel(epoch: epoch))
    }

    /// Adds `/media/**` (GET, HEAD, and a JSON 405 for other methods), `/live/...` and `/healthz`
    /// to `router`.
    package func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let media = self.media
        let handler: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await media.respond(
                to: request, encodedSubpath: Self.subpath(of: request.uri.path, after: "/media/"), context: context)
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete, .patch] {
            router.on("/media/**", method: method, use: handler)
        }
        live.addRoutes(to: router)
        router.get("/healthz") { _, _ in DemoResponses.json(["status": "ok"]) }
    }

    /// The part of an encoded request path after `prefix`, or `""` when it does not start with it.
    static func subpath(of path: String, after prefix: String) -> Substring {
        guard path.hasPrefix(prefix) else { return "" }
        return path.dropFirst(prefix.count)
    }
}
