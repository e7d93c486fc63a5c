import DASH
import Foundation
import Testing
import SeamTesting
@testable import SeamServer

/// GStreamer following a live DASH session of the demo channel in real time, across two breaks
/// replaced by ad periods, while `seam validate` follows the same MPD (`LiveDASHEndToEndTests`
/// has the rest, on a held clock). The channel's epoch is chosen so the player starts in content
/// 15 s before a break: GStreamer 1.22's dashdemux2 cannot start inside a period listed by a
/// `SegmentTimeline` (an ad period's form; docs/dash.md, "GStreamer and live DASH").
@Suite(.heavyLong, .serialized) struct LiveDASHPlayerTests {
    /// Seconds the player watches: about 15 s of start-up buffering, then two breaks (each 24 s,
    /// a 20 s ad) 42 s apart.
    static let watch = 90.0

    @Test(.timeLimit(HeavyTier.timeLimit)) func gstreamerFollowsTwoReplacedBreaksAndEachBeaconFiresOnce()
        async throws
    {
        guard PlayerTools.require("gst-launch-1.0", for: "GStreamer live DASH playback") else { return }
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record("the seam binary is not built; run swift build first")
            return
        }
        // Breaks start 18 s into every 42 s (channel segment 3 + 7n). At 141 s after the epoch the
        // player's live point (12 s behind) is 129 s: content, 15 s before the break at 144 s.
        let epoch = Date().timeIntervalSince1970.rounded(.down) - 141
        try await SeamStack.run(
            demo: { $0.liveEpoch = epoch },
            configure: { configuration, _ in configuration.ads.trackingMode = "server" }
        ) { stack in
            let session = try await stack.createSession(url: stack.demo.liveDASHURL)
            let manifest = try #require(session["manifestUrl"] as? String)
            async let validation = PlayerTools.runAsync(
                seam, ["validate", manifest, "--duration", "60", "--json"], timeout: 150)
            let play = try await PlayerTools.runAsync(
                "bash",
                [
                    "scripts/players/gst_play.sh", manifest, "--playbin3", "--by-frames", "--live",
                    String(Int(Self.watch)), "--min-advance", "0.6", "--json",
                ], timeout: Self.watch + 60)
            #expect(play.status == 0, "\(play.output.suffix(2000))")
            #expect((play.json["errors"] as? [Any])?.isEmpty == true, "\(play.output.suffix(1000))")
            let checked = try await validation
            #expect(checked.status == 0, "\(checked.output.suffix(2000))")
            #expect(checked.json["valid"] as? Bool == true, "\(checked.output.suffix(2000))")

            // Two breaks replaced by ad3, each beacon of each once: the player fetched every ad
            // segment through Seam's route, whichever representation.
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let filled = (tracking["avails"] as? [[String: Any]] ?? []).filter {
                ($0["ads"] as? [[String: Any]])?.isEmpty == false
            }
            #expect(filled.count >= 2, "\(tracking)")
            await stack.drainBeacons()
            let beacons = try await stack.beacons()
            // (A third break may open before the watch ends: its ad counts only once complete.)
            let counts = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                event in beacons.filter { $0 == "/track/ad3/\(event)" }.count
            }
            let played = counts.last ?? 0
            #expect(played >= 2 && played <= filled.count, "ad3 played \(played) times: \(beacons)")
            #expect(counts.allSatisfy { $0 >= played && $0 <= played + 1 }, "\(counts): \(beacons)")
        }
    }
}
