import SeamServer
import DASH
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
    /// The live channel as MPEG-DASH under `/live-dash/` (nil when the samples have no DASH form).
    package let liveDASH: DemoLiveDASHChannel?

    /// How long before start-up the live channel began by default: enough for a full window
    /// (and a break or two) from the first request.
    package static let defaultLiveLeadTime: Double = 120

    /// - Parameters:
    ///   - mediaRoot: the folder served under `/media/` (default `Samples/media`).
    ///   - liveEpoch: when the live channel's segment 0 started (seconds since 1970); default
    ///     ``defaultLiveLeadTime`` before now, in whole seconds.
    ///   - liveClock: the live channels' clock (seconds since 1970); nil for the wall clock.
    package init(
        mediaRoot: String = "Samples/media", liveEpoch: Double? = nil, liveClock: (@Sendable () -> Double)? = nil
    ) throws {
        media = DemoFileResponder(store: try DemoFileStore(root: mediaRoot))
        let epoch = liveEpoch ?? (Date().timeIntervalSince1970.rounded(.down) - Self.defaultLiveLeadTime)
        let channel = DemoLiveChannel(epoch: epoch)
        live =
            liveClock.map { DemoLiveChannelResponder(channel: channel, now: $0) }
            ?? DemoLiveChannelResponder(channel: channel)
        let sample = try? String(contentsOfFile: mediaRoot + "/content/dash/manifest.mpd", encoding: .utf8)
        liveDASH = sample.flatMap { try? MPD(parsing: $0) }.flatMap {
            DemoLiveDASHChannel(channel: channel, sample: $0)
        }
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
        if let liveDASH {
            let now = live.now
            // `?end=S` ends the channel S seconds after its segment 0 (the DASH-IF way: see
            // `DemoLiveDASHChannel.manifest`), for trying how a session ends with it.
            router.get("/live-dash/manifest.mpd") { request, _ in
                let end = request.uri.queryParameters.get("end").flatMap(Double.init).flatMap {
                    $0 > 0 && $0 < 1e9 ? $0 : nil
                }
                var response = DemoResponses.text(
                    liveDASH.manifest(now: now(), endingAfter: end), contentType: DemoContentType.forExtension("mpd"))
                response.headers[.cacheControl] = DemoLiveChannelResponder.cacheControl
                return response
            }
            router.on("/live-dash/:file", method: .head) { request, context in
                guard let file = DemoLiveDASHChannel.sampleFile((context.parameters.get("file") ?? "")[...]) else {
                    return DemoResponses.notFound(request.uri.path)
                }
                return try await media.respond(
                    to: request, encodedSubpath: "content/dash/\(file)"[...], context: context)
            }
            router.get("/live-dash/:file") { request, context in
                guard let file = DemoLiveDASHChannel.sampleFile((context.parameters.get("file") ?? "")[...]) else {
                    return DemoResponses.notFound(request.uri.path)
                }
                return try await media.respond(
                    to: request, encodedSubpath: "content/dash/\(file)"[...], context: context)
            }
        }
        router.get("/healthz") { _, _ in DemoResponses.json(["status": "ok"]) }
    }

    /// The part of an encoded request path after `prefix`, or `""` when it does not start with it.
    static func subpath(of path: String, after prefix: String) -> Substring {
        guard path.hasPrefix(prefix) else { return "" }
        return path.dropFirst(prefix.count)
    }
}
