import DASH
import Foundation
import Testing
import SeamTesting
@testable import SeamServer

/// Real players on a DASH session of the demo title (`DASHEndToEndTests` has the rest). GStreamer's
/// DASH demuxer (dashdemux2, through playbin3) plays the stitched MPD, bumpers and all, to its end; playbin's older
/// dashdemux stalls at the first period change, and ffmpeg's dashdec reads one period only (its
/// longest), so neither can play a multi-period MPD (docs/dash.md, "Players").
@Suite(.heavy, .serialized) struct DASHPlayerTests {
    /// With DASH bumpers framing each break (2 s each side, from the slate's segments): 12 s more
    /// than the title and its ads, and no beacon of their own.
    @Test func gstreamerPlaysEveryPeriodToTheEndAndEachBeaconFiresOnce() async throws {
        guard PlayerTools.require("gst-launch-1.0", for: "GStreamer DASH playback") else { return }
        try await SeamStack.run(configure: { configuration, demo in
            let bumper = demo.origin.baseURL + "/media/bumper/dash/manifest.mpd"
            configuration.ads.bumpers.dashStartURL = bumper
            configuration.ads.bumpers.dashEndURL = bumper
        }) { stack in
            let session = try await stack.createSession(["trackingMode": "server"], url: stack.demo.dashContentURL)
            let manifest = try #require(session["manifestUrl"] as? String)
            let run = try await PlayerTools.runAsync(
                "bash",
                [
                    "scripts/players/gst_play.sh", manifest, "--playbin3", "--by-frames", "--timeout", "120",
                    "--expect-duration", String(DASHEndToEndTests.expectedDuration + 12), "--json",
                ])
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            #expect(run.json["eos"] as? Bool == true)
            #expect((run.json["errors"] as? [Any])?.isEmpty == true)
            // 123 s at 25 frames a second: every period's every frame, the six bumpers' included.
            #expect(run.json["video_frames"] as? Int == 3075, "\(run.output.suffix(1000))")
            let expected = VODEndToEndTests.everyBeaconOfTheTitle
            await stack.drainBeacons()
            #expect(try await VODEndToEndTests.beaconsOnceSent(stack, expected).sorted() == expected.sorted())
        }
    }

    /// `seam validate` (the binary) on the session's MPD URL: period continuity, ids, coverage.
    @Test func seamValidatePassesTheStitchedMPD() async throws {
        try await SeamStack.run { stack in
            let manifest = try #require(
                try await stack.createSession(url: stack.demo.dashContentURL)["manifestUrl"] as? String)
            guard let seam = PlayerTools.seamExecutable() else {
                Issue.record("the seam binary is not built; run swift build first")
                return
            }
            let run = try await PlayerTools.runAsync(seam, ["validate", manifest, "--json"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.json["valid"] as? Bool == true, "\(run.output)")
        }
    }
}
