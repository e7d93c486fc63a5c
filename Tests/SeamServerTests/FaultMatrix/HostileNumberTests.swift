import Foundation
import HLS
import Testing
import SeamTesting
@testable import SeamServer

/// Fault matrix — hostile numbers. An origin Seam may fetch from serves playlists whose numbers
/// no stream can carry (issue 9: one such EXTINF used to kill the process with SIGILL). Each
/// must leave the server running and answer what docs/reliability.md documents: a VOD
/// session start gets `502 ORIGIN_INVALID_PLAYLIST` naming the line, a live session keeps its
/// last good window and then answers `ORIGIN_INVALID_PLAYLIST`.
@Suite(.serialized) struct HostileNumberTests {
    static let vodCases: [(name: String, line: Int, playlist: String)] = [
        (
            "extinf-int64", 4,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:9223372036854775808,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "extinf-400-digits", 4,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:\(String(repeating: "9", count: 400)).5,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "extinf-negative", 4,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:-9223372036854775809,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "byterange", 4,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "media-sequence", 3,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:99999999999999999999\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "target-duration", 2,
            "#EXTM3U\n#EXT-X-TARGETDURATION:9223372036854775807\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "cue-out", 4,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-CUE-OUT:DURATION=99999999999999999999\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "part-duration", 4,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PART:DURATION=99999999999999999999.5,URI=\"p.ts\"\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        ),
    ]

    @Test(arguments: 0..<vodCases.count)
    func aVODPlaylistWithAHostileNumberIsRefusedWithItsLine(_ index: Int) async throws {
        let item = Self.vodCases[index]
        let origin = FaultServer()
        origin.route("/vod.m3u8", .text(item.playlist))
        try await SeamStack.run { stack in
            try await origin.run { base in
                let answer = try await stack.request("/v1/sessions", method: .POST, json: ["url": base + "/vod.m3u8"])
                #expect(answer.status == 502, "\(item.name): \(answer.body)")
                #expect(answer.errorCode == "ORIGIN_INVALID_PLAYLIST", "\(item.name): \(answer.body)")
                #expect(answer.body.contains("line \(item.line)"), "\(item.name): \(answer.body)")
                // The server is still there, and still serves a good title.
                #expect(try await stack.request("/healthz").status == 200)
                _ = try await stack.createSession()
            }
        }
    }

    @Test func aVariantWithAHostileBandwidthRefusesTheSession() async throws {
        let origin = FaultServer()
        origin.route("/master.m3u8", .text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=99999999999999999999\nv.m3u8\n"))
        origin.route("/v.m3u8", .text(Self.vodCases[0].playlist))
        try await SeamStack.run { stack in
            try await origin.run { base in
                let answer = try await stack.request(
                    "/v1/sessions", method: .POST, json: ["url": base + "/master.m3u8"])
                #expect(answer.status == 502, "\(answer.body)")
                #expect(answer.errorCode == "ORIGIN_INVALID_PLAYLIST", "\(answer.body)")
                #expect(answer.body.contains("line 2"), "\(answer.body)")
            }
        }
    }

    /// A fallback URL still wins over the error, as for any origin trouble at session start.
    @Test func aHostilePlaylistWithAFallbackRedirectsToIt() async throws {
        let origin = FaultServer()
        origin.route("/vod.m3u8", .text(Self.vodCases[0].playlist))
        try await SeamStack.run { stack in
            try await origin.run { base in
                let answer = try await stack.request(
                    "/v1/sessions", method: .POST,
                    json: ["url": base + "/vod.m3u8", "fallbackUrl": "https://backup.example/title.m3u8"])
                #expect(answer.status == 302, "\(answer.body)")
                #expect(answer.header("location") == "https://backup.example/title.m3u8")
            }
        }
    }

    /// A program date-time no clock can show is kept as text and ignored, as players ignore it:
    /// the session plays.
    @Test func aHostileProgramDateTimeDoesNotStopTheSession() async throws {
        let origin = FaultServer()
        origin.route(
            "/vod.m3u8",
            .text(
                "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:99999-99-99T99:99:99.99999999999999999999Z\n#EXTINF:10,\na.ts\n#EXTINF:10,\nb.ts\n#EXT-X-ENDLIST\n"
            ))
        try await SeamStack.run { stack in
            try await origin.run { base in
                let session = try await stack.createSession(url: base + "/vod.m3u8")
                let manifest = try #require(session["manifestUrl"] as? String)
                let master = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
                let media = try await stack.request(try #require(master.variants.first?.uri))
                #expect(media.status == 200, "\(media.body)")
                #expect(media.body.contains("a.ts") && media.body.contains("b.ts"))
            }
        }
    }

    /// Live: a window that gains a hostile segment is not used; viewers keep the last good
    /// window for `live.maxStaleSeconds`, then get `ORIGIN_INVALID_PLAYLIST`; the numbers of
    /// what they were served never go back.
    @Test func aLiveWindowWithAHostileNumberKeepsTheLastGoodWindowThenErrs() async throws {
        let origin = FaultServer()
        origin.route("/live.m3u8", .text(Self.liveWindow(last: 20)))
        // The cache's ages are read from the test's clock: moved, not waited out.
        let clock = TestClock()
        try await SeamStack.run(
            clock: clock,
            { configuration in
                configuration.live.originCacheSeconds = 0.2
                configuration.live.maxStaleSeconds = 3
            }
        ) { stack in
            try await origin.run { base in
                let session = try await stack.createSession(url: base + "/live.m3u8")
                let manifest = try #require(session["manifestUrl"] as? String)
                let master = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
                let url = try #require(master.variants.first?.uri)
                let good = try MediaPlaylist(parsing: try await stack.request(url).body)
                #expect(good.segments.last?.uri.hasSuffix("seg_20.ts") == true)

                origin.route("/live.m3u8", .text(Self.liveWindow(last: 21, hostile: "#EXTINF:9223372036854775808,")))
                clock.advance(.milliseconds(500))
                let stale = try await stack.request(url)
                #expect(stale.status == 200, "\(stale.body)")
                let kept = try MediaPlaylist(parsing: stale.body)
                #expect(kept.mediaSequence == good.mediaSequence)
                #expect(kept.segments.map(\.uri) == good.segments.map(\.uri))

                clock.advance(.milliseconds(3200))
                let refused = try await stack.request(url)
                #expect(refused.status == 502, "\(refused.body)")
                #expect(refused.errorCode == "ORIGIN_INVALID_PLAYLIST", "\(refused.body)")
                #expect(try await stack.request("/healthz").status == 200)

                // The origin mends: the session goes on, forward.
                // (after the cache's retry pause following a failure).
                origin.route("/live.m3u8", .text(Self.liveWindow(last: 22)))
                var answer = try await stack.request(url)
                for _ in 0..<200 where answer.status != 200 {
                    clock.advance(.milliseconds(200))
                    try await Task.sleep(for: .milliseconds(50))
                    answer = try await stack.request(url)
                }
                #expect(answer.status == 200, "\(answer.body)")
                let back = try MediaPlaylist(parsing: answer.body)
                #expect(back.mediaSequence >= good.mediaSequence)
                #expect(back.segments.last?.uri.hasSuffix("seg_22.ts") == true)
            }
        }
    }

    /// A six-segment live window ending at `last`; `hostile` replaces the last segment's EXTINF.
    static func liveWindow(last: Int, hostile: String? = nil) -> String {
        let first = last - 5
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for k in first...last {
            text += (k == last ? hostile : nil) ?? "#EXTINF:6.0,"
            text += "\nseg_\(k).ts\n"
        }
        return text
    }
}
