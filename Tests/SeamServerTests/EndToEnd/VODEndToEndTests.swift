import CompressNIO
import Foundation
import HLS
import Testing
import SeamTesting
@testable import SeamServer

/// The product's first complete job, as a viewer gets it: a VOD title with pre-, mid- and
/// post-rolls, on real players, over real HTTP on loopback.
@Suite(.heavy, .serialized) struct VODEndToEndTests {
    /// Content 60 s; pre-roll pod ad1 (10 s) + ad2 (15 s); mid-roll at 30 s: ad3 (20 s) behind a
    /// wrapper; post-roll ad4 (6 s).
    static let expectedDuration = 60.0 + 25 + 20 + 6

    @Test func stitchedPlaylistsAreValidAndAgreeAcrossRenditions() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession()
            let manifest = try #require(session["manifestUrl"] as? String)
            #expect((session["sessionId"] as? String)?.count == SessionID.length)
            #expect(
                session["trackingUrl"] as? String == manifest.replacingOccurrences(of: "master.m3u8", with: "tracking"))
            let master = try await stack.request(manifest)
            #expect(master.status == 200)
            #expect(master.header("content-type") == "application/vnd.apple.mpegurl")
            let multivariant = try MultivariantPlaylist(parsing: master.body)
            #expect(multivariant.variants.count == 3)
            var renditions: [(name: String, playlist: MediaPlaylist)] = []
            for variant in multivariant.variants {
                #expect(variant.uri.hasPrefix(stack.seamBaseURL + "/v1/sessions/"))
                let media = try await stack.request(variant.uri)
                let report = PlaylistValidator.validate(media.body, source: variant.uri)
                #expect(report.isValid, "\(report.diagnostics)")
                guard case .media(let playlist)? = report.playlist else { continue }
                #expect(abs(playlist.duration - Self.expectedDuration) < 0.01)
                #expect(playlist.segments.filter(\.discontinuity).count == 5)
                #expect(playlist.endList)
                renditions.append((variant.uri, playlist))
            }
            #expect(RenditionSetValidator.check(renditions).isEmpty)

            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            #expect(tracking["cuePoints"] as? [Double] == [0, 30, -1])
            let avails = try #require(tracking["avails"] as? [[String: Any]])
            #expect(avails.map { $0["startTimeSeconds"] as? Double } == [0, 55, 111 - 6])
            #expect(
                avails.map { ($0["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } ?? [] } == [
                    ["ad1", "ad2"], ["ad3"], ["ad4"],
                ])
            #expect(avails.allSatisfy { $0["skipReason"] == nil })
        }
    }

    /// Players ask for gzip on every reload: they get the playlist compressed once at session
    /// creation, and it inflates to exactly the plain bytes.
    @Test func playlistsAreServedGzippedToClientsThatAskForIt() async throws {
        try await SeamStack.run { stack in
            let manifest = try #require(try await stack.createSession()["manifestUrl"] as? String)
            let media = manifest.replacingOccurrences(of: "master.m3u8", with: "media/v0.m3u8")
            let plain = try await stack.rawRequest(media)
            #expect(plain.headers.first { $0.0.lowercased() == "content-encoding" } == nil)
            let compressed = try await stack.rawRequest(media, headers: [("Accept-Encoding", "gzip, deflate")])
            #expect(compressed.headers.first { $0.0.lowercased() == "content-encoding" }?.1 == "gzip")
            #expect(compressed.body.readableBytes < plain.body.readableBytes / 2)
            var gzip = compressed.body
            let inflated = try gzip.decompress(with: .gzip())
            #expect(inflated == plain.body)
        }
    }

    /// `seam validate` (the binary) on the session's multivariant URL: every rendition passes.
    @Test func seamValidatePassesEveryRendition() async throws {
        try await SeamStack.run { stack in
            let manifest = try #require(try await stack.createSession()["manifestUrl"] as? String)
            let seam = PlayerTools.repositoryRoot.appendingPathComponent(".build/debug/seam").path
            guard FileManager.default.isExecutableFile(atPath: seam) else {
                Issue.record("the seam binary is not built at \(seam); run swift build first")
                return
            }
            let run = try await PlayerTools.runAsync(seam, ["validate", manifest, "--json"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.json["valid"] as? Bool == true)
            #expect((run.json["playlists"] as? [String])?.count == 4)
        }
    }

    /// Chromium plays the stitched title to `ended`, with content plus ads as its duration, and in
    /// server-side tracking mode the ad server gets every beacon exactly once. The playlists carry
    /// ad-ID decoration (a date range per ad and per break, Seam's program date-times) and a
    /// rendition filter (720p left out): a player plays them as it plays the plain ones.
    @Test func chromiumPlaysToTheEndAndEveryBeaconFiresOnce() async throws {
        guard PlayerTools.require("chromium", for: "Chromium playback") else { return }
        try await SeamStack.run { stack in
            let manifest = try #require(
                try await stack.createSession([
                    "trackingMode": "server", "adIdDecoration": true, "renditions": ["maxHeight": 540],
                ])["manifestUrl"] as? String)
            let variant = try #require(
                try MultivariantPlaylist(parsing: try await stack.request(manifest).body).variants.first?.uri)
            let media = try await stack.request(URIReference.resolve(variant, against: manifest)).body
            #expect(media.contains(#"CLASS="urn:svta:advertising-wg:ad-creative-signaling""#))
            // --gap-jump: Chromium's native player does not step over the few-millisecond audio gaps
            // AAC leaves at every splice; hls.js and Shaka do, and so does the demo page.
            let run = try await PlayerTools.runAsync(
                "python3",
                [
                    "scripts/players/chromium_play.py", manifest, "--rate", "8", "--gap-jump", "0.5",
                    "--expect-duration", String(Self.expectedDuration), "--tolerance", "0.5", "--json",
                ])
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            #expect(run.json["ended"] as? Bool == true)
            #expect((run.json["errors"] as? [Any])?.isEmpty == true)
            let duration = try #require(run.json["duration"] as? Double)
            #expect(abs(duration - Self.expectedDuration) < 0.5)

            let expected = Self.everyBeaconOfTheTitle
            #expect(try await Self.beaconsOnceSent(stack, expected).sorted() == expected.sorted())
        }
    }

    /// Every beacon of the demo title's three breaks, once: each ad's events (the wrapper's
    /// too) and each break's own.
    static var everyBeaconOfTheTitle: [String] {
        var expected: [String] = []
        for ad in ["ad1", "ad2", "ad3", "ad4", "wrapper"] {
            for event in ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
                expected.append("/track/\(ad)/\(event)")
            }
        }
        for pod in ["preroll", "midroll-1", "postroll"] {
            expected += ["/track/\(pod)/breakStart", "/track/\(pod)/breakEnd"]
        }
        return expected
    }

    /// The beacons the demo ad server received, once `expected.count` are in or 5 s have passed
    /// (they are sent in the background).
    static func beaconsOnceSent(_ stack: SeamStack, _ expected: [String]) async throws -> [String] {
        // Returns as soon as they are all in; the minute is a hang guard, not a budget (the
        // dispatcher sends in the background, and a loaded 2-core machine took more than 5 s).
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        var received = try await stack.beacons()
        while received.count < expected.count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            received = try await stack.beacons()
        }
        return received
    }

    /// ffprobe reads the stitched stream and sees one timestamp discontinuity per splice.
    @Test func ffprobeSeesOneDiscontinuityPerSplice() async throws {
        guard PlayerTools.require("ffprobe", for: "ffprobe demux") else { return }
        try await SeamStack.run { stack in
            let manifest = try #require(
                try await stack.createSession(["trackingMode": "client"])["manifestUrl"] as? String)
            let run = try await PlayerTools.runAsync("python3", ["scripts/players/ffprobe_check.py", manifest])
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            #expect(run.json["discontinuities"] as? Int == 5, "\(run.output.suffix(3000))")
            let duration = try #require(run.json["demuxed_duration"] as? Double)
            #expect(abs(duration - Self.expectedDuration) < 0.5)
        }
    }

    /// GStreamer decodes every stitched rendition from start to end. Each variant's media playlist
    /// is played on its own: GStreamer 1.22's adaptive demuxer hangs at random points of
    /// multivariant playback here (with the plain sample title too), while Chromium covers the
    /// multivariant playlist and variant switching.
    @Test func gstreamerDecodesEveryStitchedRendition() async throws {
        guard PlayerTools.require("gst-launch-1.0", for: "GStreamer playback") else { return }
        try await SeamStack.run { stack in
            let manifest = try #require(
                try await stack.createSession(["trackingMode": "client"])["manifestUrl"] as? String)
            let master = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
            #expect(master.variants.count == 3)
            for variant in master.variants {
                // A normal run takes a few seconds; a hang is known by the time-out.
                let arguments = [
                    "scripts/players/gst_play.sh", variant.uri, "--timeout", "20",
                    "--expect-duration", String(Self.expectedDuration),
                ]
                func hung(_ run: PlayerTools.Run) -> Bool {
                    run.status != 0
                        && (run.output.contains("timeout after") || run.output.contains("status 124")
                            || run.output.contains("status 137"))
                }
                // GStreamer 1.22's hlsdemux stops mid-stream without an error, at random, on about
                // half of its runs over HTTP/1.1 keep-alive connections — against nginx serving the
                // plain sample files as much as against Seam; over HTTP/1.0 (Python's http.server)
                // it never did in the same trials (scripts/players/README.md). A hang is tried
                // again, up to four runs; four hangs are reported as inconclusive, never as a pass
                // of the checks below. An error or a wrong duration always fails.
                var run = try await PlayerTools.runAsync("bash", arguments)
                var attempts = 1
                while hung(run), attempts < 4 {
                    print("GStreamer hung on \(variant.uri) (\(run.output.suffix(200))); trying again")
                    run = try await PlayerTools.runAsync("bash", arguments)
                    attempts += 1
                }
                if hung(run) {
                    print("GStreamer hung \(attempts) times on \(variant.uri): inconclusive, not counted")
                    continue
                }
                #expect(run.status == 0, "\(variant.uri): \(run.output.suffix(2000))")
                #expect(run.output.contains("reached EOS"))
            }
        }
    }
}
