import DASH
import Foundation
import Testing
import SeamTesting
@testable import SeamServer

/// GStreamer following a live DASH session of the demo channel in real time, across two breaks
/// replaced by ad periods and completed by the DASH slate, while `seam validate` follows the same
/// MPD (`LiveDASHEndToEndTests` has the rest, on a held clock). The channel's epoch is chosen so
/// the player starts inside an ad period: GStreamer 1.22's dashdemux2 cannot start inside a
/// period listed by a `SegmentTimeline`, so ad and slate periods that meet the next are written
/// with fixed-length templates (docs/dash.md, "GStreamer and live DASH").
@Suite(.heavyLong, .serialized) struct LiveDASHPlayerTests {
    /// Seconds the player watches: start-up buffering, the rest of the break it starts in, then
    /// the next break (each 24 s: a 20 s ad and 4 s of slate) 42 s after the first.
    static let watch = 90.0

    @Test(.timeLimit(HeavyTier.timeLimit))
    func gstreamerStartsInsideAnAdPeriodThenFollowsTheNextBreakAndEachBeaconFiresOnce() async throws {
        guard PlayerTools.require("gst-launch-1.0", for: "GStreamer live DASH playback") else { return }
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record("the seam binary is not built; run swift build first")
            return
        }
        // Breaks start 18 s into every 42 s (channel segment 3 + 7n). At 162 s after the epoch the
        // player's live point (12 s behind) is 150 s: 6 s into the ad of the break at 144 s.
        let epoch = Date().timeIntervalSince1970.rounded(.down) - 162
        try await SeamStack.run(
            demo: { $0.liveEpoch = epoch },
            configure: { configuration, demo in
                configuration.ads.trackingMode = "server"
                configuration.live.dashSlateURL = demo.origin.baseURL + "/media/slate/dash/manifest.mpd"
            }
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

            // Breaks replaced by ad3, the player fetching every ad segment it plays through
            // Seam's route, whichever representation; each beacon once per break:
            // - the ad it started inside, from the segment it started at to its end: the events
            //   due from there (a suffix: complete always, impression and start only from the
            //   first segment). How far in that is depends on how fast the machine brings the
            //   player up (a loaded one started it in the third segment: no first quartile or
            //   midpoint for that ad);
            // - the next breaks whole, at least one;
            // - perhaps a last break the watch ends inside, up to where it was fetched (a prefix).
            await stack.drainBeacons()
            let beacons = try await stack.beacons()
            let counts = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                event in beacons.filter { $0 == "/track/ad3/\(event)" }.count
            }
            let played = counts[5]
            #expect(played >= 2, "ad3 played to its end \(played) times: \(beacons)")
            #expect(counts.allSatisfy { (played - 1...played + 1).contains($0) }, "\(counts): \(beacons)")
            #expect(counts[0] == counts[1], "\(counts): \(beacons)")
            // The events of the break it joined are a suffix: once an event has its joined-break
            // count, every later one has it too (counts never fall by more than the last break's).
            #expect(
                zip(counts, counts.dropFirst()).allSatisfy { $1 >= $0 - 1 }, "\(counts): \(beacons)")
        }
    }
}
