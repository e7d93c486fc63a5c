import HLS
import NIOConcurrencyHelpers
import NIOCore
@testable import SeamServer

/// An in-memory origin for the fault-matrix tests, reached through `UpstreamFetching` (no sockets):
///
/// - `https://origin.test/vod/master.m3u8`: a 3-segment VOD media playlist;
/// - `https://origin.test/live/master.m3u8`: two variants, `v0.m3u8` and `v1.m3u8`, each a live
///   sliding window of `windowSize` 6 s segments ending at `last`, or at `servedLast` when the test
///   makes the origin go backwards.
final class FaultMatrixOrigin: UpstreamFetching, Sendable {
    struct Script: Sendable {
        var last = 20
        var windowSize = 6
        /// Serve windows ending here instead of at `last` (an origin that went backwards).
        var servedLast: Int?
        var fetches = 0
    }

    static let vodURL = "https://origin.test/vod/master.m3u8"
    static let liveURL = "https://origin.test/live/master.m3u8"

    let script = NIOLockedValueBox(Script())

    func update(_ change: (inout Script) -> Void) {
        script.withLockedValue(change)
    }

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let script = self.script.withLockedValue { script in
            script.fetches += 1
            return script
        }
        guard let parsed = try? UpstreamURL(request.url), parsed.host == "origin.test" else {
            throw .unreachable(url: request.url, reason: "the fault-matrix origin only serves origin.test")
        }
        let body: String
        switch parsed.pathAndQuery {
        case "/vod/master.m3u8":
            body =
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                + (0..<3).map { "#EXTINF:6.0,\nseg_\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        case "/live/master.m3u8":
            body =
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360\nv0.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nv1.m3u8\n"
        case "/live/v0.m3u8", "/live/v1.m3u8":
            let name = parsed.pathAndQuery.hasSuffix("v0.m3u8") ? "v0" : "v1"
            let last = script.servedLast ?? script.last
            let first = max(0, last - script.windowSize + 1)
            body =
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
                + (first...last).map { "#EXTINF:6.0,\n\(name)/seg_\($0).ts\n" }.joined()
        default:
            throw .status(url: request.url, code: 404)
        }
        return UpstreamResponse(status: 200, body: ByteBuffer(string: body), finalURL: request.url)
    }
}
