import Foundation
import SeamKit
import Testing

/// An interstitials player's position put on the stitched timeline the engine uses: the demo
/// title (pre-roll 0–25 of two ads, mid-roll at content 30 = stitched 55–70, post-roll 100–110).
@Suite struct InterstitialTimelineTests {
    typealias F = AdEventFixtures

    static func timeline() -> InterstitialTimeline {
        var document = F.demo()
        for (index, id) in ["pre", "mid-30000", "post"].enumerated() { document.avails[index].interstitialId = id }
        var timeline = InterstitialTimeline()
        timeline.updateTracking(document)
        return timeline
    }

    static func at(_ id: String, _ asset: Int, _ time: Double) -> InterstitialPosition {
        InterstitialPosition(interstitialID: id, assetIndex: asset, assetTime: time)
    }

    @Test func aVODPlayerWalksTheStitchedTimeline() {
        var timeline = Self.timeline()
        // (primary time, interstitial, stitched time), in playing order.
        let walk: [(Double, InterstitialPosition?, Double)] = [
            (0, nil, -0.001),  // waiting at the pre-roll's cue
            (0, Self.at("pre", 0, 0), 0),
            (0, Self.at("pre", 0, 9.5), 9.5),
            (0, Self.at("pre", 1, 0), 10),
            (0, Self.at("pre", 1, 14), 24),
            (0, nil, 25),  // the pre-roll played: content starts after it
            (12, nil, 37),
            (30, nil, 54.999),  // at the mid-roll's cue
            (30, Self.at("mid-30000", 0, 5), 60),
            (30, nil, 70),
            (45, nil, 85),
            (60, nil, 99.999),  // content over, the post-roll next
            (60, Self.at("post", 0, 3), 103),
            (60, nil, 110),
        ]
        for (primary, position, stitched) in walk {
            timeline.observe(position)
            let time = timeline.time(primaryTime: primary, interstitial: position, live: false)
            #expect(
                abs(time - stitched) < 1e-9,
                "primary \(primary) \(String(describing: position)): \(time), not \(stitched)")
        }
        #expect(timeline.playedInterstitialIDs == ["pre", "mid-30000", "post"])
    }

    /// A break framed by bumpers (`ads.bumpers.*`): its asset list plays the start bumper, the
    /// ad, the end bumper, so asset 1 is the ad, placed after the bumper on the stitched timeline.
    @Test func assetIndexesCountTheBumpersInPlayOrder() {
        var document = F.demo()
        for (index, id) in ["pre", "mid-30000", "post"].enumerated() { document.avails[index].interstitialId = id }
        // The mid-roll (stitched 55–70) becomes 2 s bumper, its ad 57–72, 2 s bumper 72–74.
        document.avails[1].durationSeconds = 19
        document.avails[1].ads[0].startTimeSeconds = 57
        document.avails[1].bumpers = [
            .init(position: "end", url: "https://cdn.example/out.m3u8", startTimeSeconds: 72, durationSeconds: 2),
            .init(position: "start", url: "https://cdn.example/in.m3u8", startTimeSeconds: 55, durationSeconds: 2),
        ]
        var timeline = InterstitialTimeline()
        timeline.updateTracking(document)
        #expect(timeline.time(primaryTime: 30, interstitial: Self.at("mid-30000", 0, 1), live: false) == 56)
        #expect(timeline.time(primaryTime: 30, interstitial: Self.at("mid-30000", 1, 5), live: false) == 62)
        #expect(timeline.time(primaryTime: 30, interstitial: Self.at("mid-30000", 2, 1.5), live: false) == 73.5)
    }

    @Test func aSeekOverAnInterstitialThatDidNotPlayCountsItsBreakAsPassed() {
        var timeline = Self.timeline()
        timeline.observe(nil)
        // Content 45 s, having jumped the mid-roll: stitched 45 + 25 + 15.
        #expect(timeline.time(primaryTime: 45, interstitial: nil, live: false) == 85)
        #expect(timeline.playedInterstitialIDs.isEmpty)
    }

    @Test func liveBreaksAreOnTheirDateWhilePlaying() throws {
        var document = F.demo()
        document.avails = [document.avails[1]]
        document.avails[0].interstitialId = "scte-7-s20"
        document.avails[0].programDateTime = "2026-11-24T19:22:00.000Z"
        var timeline = InterstitialTimeline()
        timeline.updateTracking(document)
        let breakDate = 1_795_548_120.0
        // The primary's own clock outside the break; the break's date plus the time into it inside.
        #expect(timeline.time(primaryTime: 40, interstitial: nil, live: true) == 40)
        #expect(timeline.date(primaryDate: breakDate - 3, interstitial: nil) == breakDate - 3)
        #expect(timeline.time(primaryTime: 58, interstitial: Self.at("scte-7-s20", 0, 4), live: true) == 59)
        #expect(timeline.date(primaryDate: breakDate + 9, interstitial: Self.at("scte-7-s20", 0, 4)) == breakDate + 4)
        // An id the tracking JSON does not know falls back to the primary.
        #expect(timeline.time(primaryTime: 58, interstitial: Self.at("other", 0, 4), live: true) == 58)
    }
}
