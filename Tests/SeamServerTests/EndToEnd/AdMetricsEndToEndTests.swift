import Foundation
import SeamTesting
import Testing

@testable import SeamServer

/// The ad KPIs at `/metrics` as an operator reads them after a viewer watched the demo title
/// with `seam watch`: the same avails, seconds and ads as the session's tracking JSON, and the
/// same beacons as the ad server received.
@Suite struct AdMetricsEndToEndTests {
    @Test(
        "After the demo title is watched through, /metrics counts its avails, seconds and ads as its tracking JSON does, and its beacons as the ad server received them"
    )
    func kpisAgreeWithTheTrackingJSONAndTheAdServer() async throws {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record(
                "the seam executable is not built next to the tests (swift build --build-tests builds it; or set SEAM_BINARY)"
            )
            return
        }
        try await SeamStack.run { stack in
            // `seam watch` ends its session when the title ends, and an ended session has no
            // tracking JSON; the demo title plans the same breaks for every session, so a second
            // session of it, left open, shows the plan both are counted by.
            let open = try await stack.createSession(["trackingMode": "server"])
            let tracking = try await stack.request(try #require(open["trackingUrl"] as? String)).json
            let avails = tracking["avails"] as? [[String: Any]] ?? []
            #expect(avails.count == 3, "the demo title has a pre-, a mid- and a post-roll: \(tracking)")

            let run = try await PlayerTools.runAsync(
                seam,
                [
                    "watch", stack.demo.contentURL, "--seam", stack.seamBaseURL, "--speed", "40",
                    "--tracking", "server", "--json",
                ], timeout: 120)
            #expect(run.status == 0, "\(run.output.suffix(2000))")
            #expect(WatchCommandTests.lines(run.output).last?["event"] as? String == "ended")
            let sessions = 2.0

            // What the tracking JSON says, worked out as an operator would.
            let ads = avails.flatMap { $0["ads"] as? [[String: Any]] ?? [] }
            let filled = avails.filter { !($0["ads"] as? [Any] ?? []).isEmpty }
            let availSeconds = avails.reduce(0) { $0 + ($1["durationSeconds"] as? Double ?? 0) }
            let adSeconds = ads.reduce(0) { $0 + ($1["durationSeconds"] as? Double ?? 0) }
            let skippedAds = avails.reduce(0) { $0 + ($1["skippedAds"] as? [Any] ?? []).count }

            // Seam sends beacons in the background after each segment fetch: wait for them on
            // command, then read the ad server's own log and the metrics.
            await stack.drainBeacons()
            let metrics = PrometheusText(try await stack.request("/metrics").body)
            let received = try await stack.beacons().filter { $0.hasPrefix("/track/") }
            #expect(metrics.sum("seam_beacons_total", ["outcome": "sent"]) == Double(received.count), "\(received)")

            #expect(metrics.sum("seam_sessions_created_total", ["kind": "vod", "mode": "stitched"]) == sessions)
            #expect(metrics.sum("seam_sessions_ended_total", ["reason": "deleted"]) == 1, "the watched one")
            #expect(metrics.sum("seam_sessions_active", ["kind": "vod"]) == 1, "the open one")
            #expect(metrics.sum("seam_avails_total", ["kind": "vod"]) == sessions * Double(avails.count))
            #expect(
                metrics.sum("seam_avails_total", ["kind": "vod", "outcome": "filled"]) == sessions
                    * Double(filled.count))
            #expect(abs(metrics.sum("seam_avail_seconds_total", ["kind": "vod"]) - sessions * availSeconds) < 0.001)
            #expect(abs(metrics.sum("seam_avail_filled_seconds_total", ["kind": "vod"]) - sessions * adSeconds) < 0.001)
            #expect(metrics.sum("seam_ads_inserted_total", ["kind": "vod"]) == sessions * Double(ads.count))
            #expect(metrics.sum("seam_ads_skipped_total", ["kind": "vod"]) == sessions * Double(skippedAds))
            #expect(metrics.sum("seam_ad_requests_total", ["outcome": "ok"]) >= 1)
            // Every ad that plays is in the wrapper-depth histogram; the demo's mid-roll (ad3) is
            // the one that comes through a wrapper.
            #expect(metrics.sum("seam_vast_wrapper_depth_count") == sessions * Double(ads.count))
            #expect(metrics.sum("seam_vast_wrapper_depth_sum") == sessions * 1)

            // Beacons by event: what Seam counts as sent is what the ad server got (a VMAP break's
            // breakStart URLs go out with its first ad's impression, breakEnd with its last complete).
            let riding = ["impression": "breakStart", "complete": "breakEnd"]
            for event in ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
                let got = received.filter { path in
                    path.hasSuffix("/\(event)") || riding[event].map { path.hasSuffix("/\($0)") } == true
                }.count
                #expect(got >= ads.count, "\(event): \(received)")
                #expect(
                    metrics.sum("seam_beacons_total", ["event": event, "outcome": "sent"]) == Double(got),
                    "\(event): \(received)")
            }
            #expect(metrics.sum("seam_beacons_total", ["outcome": "failed"]) == 0)

            // Every family on the page says what it is.
            #expect(
                metrics.typed.subtracting(metrics.helped).isEmpty,
                "no # HELP: \(metrics.typed.subtracting(metrics.helped))")
        }
    }
}
