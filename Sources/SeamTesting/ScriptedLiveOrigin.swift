import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing
import SeamServer

/// A live origin whose window the test moves by hand: two variants (`v0`, `v1`), 6 s segments,
/// `EXT-X-CUE-OUT` breaks where the test puts them, and switches for trouble (failing, going
/// backwards, LL-HLS tags). Counts the requests for each path.
///
/// Served over loopback HTTP (`run`) or in memory as Seam's upstream (`UpstreamFetching`, no
/// sockets), where it also plays the ad server: `vastURL` answers one 20 s HLS ad (`ad3`, two
/// renditions of four 5 s segments).
package final class ScriptedLiveOrigin: UpstreamFetching, Sendable {
    package struct Script: Sendable {
        package var last = 20
        package var windowSize = 6
        /// Segment → planned break seconds (an `EXT-X-CUE-OUT` there).
        package var cueOuts: [Int: Double] = [:]
        /// Segment carrying the tag → (id, segment the break starts at, planned seconds): an
        /// `EXT-X-DATERANGE` SCTE-35 out written ahead of its `START-DATE`.
        package var dateRangesAhead: [Int: (id: String, start: Int, planned: Double)] = [:]
        /// Segment → tag lines written before it as they are (`#EXT-X-CUE-OUT-CONT:...`, `#EXT-X-CUE-IN`).
        package var tags: [Int: [String]] = [:]
        package var failing = false
        /// Serve this window end instead of `last` (an origin that went backwards).
        package var servedLast: Int?
        package var lowLatency = false
        /// List a subtitle rendition (`s0.m3u8`) in the multivariant playlist.
        package var subtitles = false
        /// Hold ad server requests (in memory) until `releaseAds`.
        package var holdingAds = false
        package var requests: [String: Int] = [:]
        /// The query of the last request for each name (`vast.xml`: the ad tag's parameters).
        package var queries: [String: String] = [:]
    }

    package static let liveURL = "https://origin.test/live/master.m3u8"
    package static let vastURL = "http://ads.test/vast.xml"

    package init() {}

    package let script = NIOLockedValueBox(Script())
    private let heldAds = NIOLockedValueBox<[CheckedContinuation<Void, Never>]>([])

    package func update(_ change: (inout Script) -> Void) {
        script.withLockedValue(change)
    }

    package func requests(_ path: String) -> Int {
        script.withLockedValue { $0.requests[path] ?? 0 }
    }

    package func window(_ name: String) -> String {
        let script = self.script.withLockedValue { $0 }
        let last = script.servedLast ?? script.last
        let first = max(0, last - script.windowSize + 1)
        var text = "#EXTM3U\n#EXT-X-VERSION:\(script.lowLatency ? 9 : 3)\n#EXT-X-TARGETDURATION:6\n"
        if script.lowLatency {
            text +=
                "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=36\n#EXT-X-PART-INF:PART-TARGET=1.0\n"
        }
        text += "#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for k in first...last {
            text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: 1_800_000_000 + Double(k) * 6).text)\n"
            if let planned = script.cueOuts[k] { text += "#EXT-X-CUE-OUT:\(planned)\n" }
            for line in script.tags[k] ?? [] { text += line + "\n" }
            if let ahead = script.dateRangesAhead[k] {
                let start = DateTime(secondsSince1970: 1_800_000_000 + Double(ahead.start) * 6).text
                text += "#EXT-X-DATERANGE:ID=\"\(ahead.id)\",START-DATE=\"\(start)\",PLANNED-DURATION=\(ahead.planned),"
                text += "SCTE35-OUT=0xFC302000000000000000FFF00F05000000017FFFFE000000000000000000007A3D9BBD\n"
            }
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

    /// The origin's answer for `name` (`master.m3u8`, `v0.m3u8`, `v1.m3u8`), nil for an unknown one.
    package func body(_ name: String) -> String? {
        let subtitles = script.withLockedValue(\.subtitles)
        switch name {
        case "master.m3u8" where subtitles:
            return
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",URI=\"s0.m3u8\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360,SUBTITLES=\"subs\"\nv0.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,SUBTITLES=\"subs\"\nv1.m3u8\n"
        case "master.m3u8":
            return
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360\nv0.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nv1.m3u8\n"
        case "v0.m3u8", "v1.m3u8",
            "s0.m3u8" where subtitles:
            return window(String(name.dropLast(5)))
        default:
            return nil
        }
    }

    /// The ad server's answer for `path`: the VAST, the creative's multivariant and media playlists.
    package static func adBody(_ path: String) -> String? {
        switch path {
        case "/vast.xml":
            return InlineVAST.vast(InlineVAST.ad(id: "ad3", duration: "00:00:20"))
        case "/media/ad3/master.m3u8":
            return
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360\nv0.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nv1.m3u8\n"
        case "/media/ad3/v0.m3u8", "/media/ad3/v1.m3u8":
            return "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:5\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                + (0..<4).map { "#EXTINF:5.0,\nseg_\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        default:
            return nil
        }
    }

    package func releaseAds() {
        script.withLockedValue { $0.holdingAds = false }
        let held = heldAds.withLockedValue { held in
            defer { held = [] }
            return held
        }
        for continuation in held { continuation.resume() }
    }

    /// In memory: `origin.test` is the origin, `ads.test` the ad server and its creatives.
    package func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        guard let parsed = try? UpstreamURL(request.url) else {
            throw .unreachable(url: request.url, reason: "not a URL")
        }
        let path = String(parsed.pathAndQuery.prefix { $0 != "?" })
        let name = String(path.split(separator: "/").last ?? "")
        let (failing, holding) = script.withLockedValue { script -> (Bool, Bool) in
            script.requests[name, default: 0] += 1
            script.queries[name] = String(parsed.pathAndQuery.drop { $0 != "?" }.dropFirst())
            return (script.failing, script.holdingAds)
        }
        let body: String?
        switch parsed.host {
        case "origin.test":
            if failing { throw .status(url: request.url, code: 503) }
            body = path.hasPrefix("/live/") ? self.body(name) : nil
        case "ads.test":
            if holding {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = heldAds.withLockedValue { held -> Bool in
                        guard script.withLockedValue({ $0.holdingAds }) else { return true }
                        held.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
            body = Self.adBody(path)
        default:
            body = nil
        }
        guard let body else { throw .status(url: request.url, code: 404) }
        return UpstreamResponse(status: 200, body: ByteBuffer(string: body), finalURL: request.url)
    }

    /// Runs the origin on a free loopback port for the duration of `body`.
    package func run(_ body: @escaping @Sendable (_ baseURL: String) async throws -> Void) async throws {
        let router = Router()
        let origin = self
        router.get("/live/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let failing = origin.script.withLockedValue { script -> Bool in
                script.requests[name, default: 0] += 1
                return script.failing
            }
            if failing { return Response(status: .serviceUnavailable) }
            guard let body = origin.body(name) else { return Response(status: .notFound) }
            return Response(
                status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        // A segment (`v0/seg_12.ts`): a player's fetch answered, with bytes that are no media.
        router.get("/live/:name/:segment") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "video/mp2t"],
                body: .init(byteBuffer: ByteBuffer(repeating: 0x47, count: 188)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)/live")
        }
    }
}
