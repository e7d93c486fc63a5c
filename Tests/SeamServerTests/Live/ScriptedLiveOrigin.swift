import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing

/// A live origin whose window the test moves by hand: two variants (`v0`, `v1`), 6 s segments,
/// `EXT-X-CUE-OUT` breaks where the test puts them, and switches for trouble (failing, going
/// backwards, LL-HLS tags). Counts the requests for each path.
final class ScriptedLiveOrigin: Sendable {
    struct Script: Sendable {
        var last = 20
        var windowSize = 6
        /// Segment → planned break seconds (an `EXT-X-CUE-OUT` there).
        var cueOuts: [Int: Double] = [:]
        var failing = false
        /// Serve this window end instead of `last` (an origin that went backwards).
        var servedLast: Int?
        var lowLatency = false
        /// List a subtitle rendition (`s0.m3u8`) in the multivariant playlist.
        var subtitles = false
        var requests: [String: Int] = [:]
    }

    let script = NIOLockedValueBox(Script())

    func update(_ change: (inout Script) -> Void) {
        script.withLockedValue(change)
    }

    func requests(_ path: String) -> Int {
        script.withLockedValue { $0.requests[path] ?? 0 }
    }

    func window(_ name: String) -> String {
        let script = self.script.withLockedValue { $0 }
        let last = script.servedLast ?? script.last
        let first = max(0, last - script.windowSize + 1)
        var text = "#EXTM3U\n#EXT-X-VERSION:\(script.lowLatency ? 9 : 3)\n#EXT-X-TARGETDURATION:6\n"
        if script.lowLatency {
            text += "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=36\n#EXT-X-PART-INF:PART-TARGET=1.0\n"
        }
        text += "#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for k in first...last {
            text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: 1_800_000_000 + Double(k) * 6).text)\n"
            if let planned = script.cueOuts[k] { text += "#EXT-X-CUE-OUT:\(planned)\n" }
            if script.lowLatency && k == last {
                for part in 0..<6 { text += "#EXT-X-PART:DURATION=1.0,URI=\"\(name)/seg_\(k).part\(part).ts\"\n" }
            }
            text += "#EXTINF:6.0,\n\(name)/seg_\(k).ts\n"
        }
        if script.lowLatency {
            text += "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(name)/seg_\(last + 1).part0.ts\"\n"
            text += "#EXT-X-RENDITION-REPORT:URI=\"\(name == "v0" ? "v1" : "v0").m3u8\",LAST-MSN=\(last),LAST-PART=5\n"
        }
        return text
    }

    /// Runs the origin on a free loopback port for the duration of `body`.
    func run(_ body: @escaping @Sendable (_ baseURL: String) async throws -> Void) async throws {
        let router = Router()
        let origin = self
        router.get("/live/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let (failing, subtitles) = origin.script.withLockedValue { script -> (Bool, Bool) in
                script.requests[name, default: 0] += 1
                return (script.failing, script.subtitles)
            }
            if failing { return Response(status: .serviceUnavailable) }
            let body: String
            switch name {
            case "master.m3u8" where subtitles:
                body = "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",URI=\"s0.m3u8\"\n"
                    + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360,SUBTITLES=\"subs\"\nv0.m3u8\n"
                    + "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,SUBTITLES=\"subs\"\nv1.m3u8\n"
            case "master.m3u8":
                body = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360\nv0.m3u8\n"
                    + "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nv1.m3u8\n"
            case "v0.m3u8", "v1.m3u8", "s0.m3u8" where subtitles:
                body = origin.window(String(name.dropLast(5)))
            default:
                return Response(status: .notFound)
            }
            return Response(status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl"],
                             body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)/live")
        }
    }
}
