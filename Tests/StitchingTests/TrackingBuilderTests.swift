import HLS
import Testing
@testable import Stitching

@Suite struct TrackingBuilderTests {
    @Test func liveAvailsListDecidedBreaksWithAdsEventsAndProgramDateTime() throws {
        let fixture = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)], windowSize: 10)
        var driver = LiveSessionDriver(channel: fixture)
        for last in 10...20 { driver.advance(last: last) }
        let item = try #require(driver.timeline.breakNumbered(0))
        let layout = try #require(item.layout)
        let ads = [TitleFixture.ad("ad0", duration: 10), TitleFixture.ad("ad1", duration: 15)]
        let document = TrackingBuilder.live(sessionID: "LIVE", mode: .hybrid, timeline: driver.timeline) { number in
            number == 0
                ? TrackingBuilder.LiveDecision(
                    layout: layout, ads: ads, skipReason: nil, detail: nil, skippedAds: [],
                    breakStartURLs: ["https://track.example/bs"], breakEndURLs: ["https://track.example/be"]) : nil
        }
        #expect(document.sessionId == "LIVE")
        #expect(document.trackingMode == .hybrid)
        #expect(document.durationSeconds == driver.timeline.sessionDuration)
        let avail = try #require(document.avails.first)
        let start = item.sessionTime
        #expect(avail.position == "live")
        #expect(avail.startTimeSeconds == start)
        #expect(document.cuePoints == [start])
        // Two ads (10 s, 15 s) and 5 s of slate fill the 30 s break.
        #expect(avail.durationSeconds == 30)
        #expect(avail.ads.map(\.adId) == ["ad0", "ad1"])
        #expect(avail.ads.map(\.startTimeSeconds) == [start, start + 10])
        #expect(avail.ads.map(\.durationSeconds) == [10, 15])
        #expect(avail.ads[1].trackingEvents.first { $0.event == "midpoint" }?.startTimeSeconds == start + 10 + 7.5)
        // Hybrid: Seam fires impressions, the player the rest and the break events.
        #expect(avail.ads[0].trackingEvents.first { $0.event == "impression" }?.beaconUrls == [])
        #expect(
            avail.ads[0].trackingEvents.first { $0.event == "start" }?.beaconUrls == ["https://track.example/ad0/start"]
        )
        #expect(avail.trackingEvents.map(\.event) == ["breakStart", "breakEnd"])
        #expect(avail.trackingEvents.map(\.startTimeSeconds) == [start, start + 30])
        #expect(avail.trackingEvents.first?.beaconUrls == ["https://track.example/bs"])
        #expect(avail.programDateTime == DateTime(secondsSince1970: fixture.epoch + 13 * 6).text)
        #expect(avail.endedEarly == nil)
    }

    @Test func anUnfilledLiveBreakKeepsItsReasonAndAPendingOneIsNotListed() throws {
        let fixture = LiveChannelFixture(
            breaks: [.init(start: 13, planned: 30, returnAt: 18), .init(start: 22, planned: 12, returnAt: 24)],
            windowSize: 10)
        var driver = LiveSessionDriver(channel: fixture)
        driver.decide = { _ in LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil) }
        for last in 10...20 { driver.advance(last: last) }
        for last in 21...23 { driver.advance(last: last, hold: { $0.number == 1 }) }
        #expect(driver.timeline.breakNumbered(1)?.phase == .pending)
        let document = TrackingBuilder.live(sessionID: "LIVE", mode: .server, timeline: driver.timeline) {
            number -> TrackingBuilder.LiveDecision<PlannedAd>? in
            guard number == 0, let layout = driver.timeline.breakNumbered(0)?.layout else { return nil }
            return TrackingBuilder.LiveDecision(
                layout: layout, ads: [], skipReason: .adsTimeout, detail: "no ad decision within the ad budget",
                skippedAds: [BreakPlan.SkippedAd(adID: "late", reason: "too slow", code: .creativeLate)],
                breakStartURLs: [],
                breakEndURLs: [])
        }
        #expect(document.avails.count == 1)
        let avail = try #require(document.avails.first)
        #expect(avail.availId == "0")
        #expect(avail.skipReason == "ADS_TIMEOUT")
        #expect(avail.skipDetail == "no ad decision within the ad budget")
        #expect(avail.skippedAds == [.init(adId: "late", reason: "too slow", code: "creative_late")])
        #expect(avail.durationSeconds == 0)
        #expect(avail.ads.isEmpty)
        #expect(avail.trackingEvents.isEmpty)
    }
    /// Which beacons Seam fires as a player fetches the segments of a live break's ads: each ad's
    /// own at its segments, `breakStart` with the first played ad's impression and `breakEnd`
    /// with the last played ad's completion, and only the events the tracking mode gives Seam.
    @Test(arguments: [
        // Two 5 s segments: impression, start and the first quartile (2.5 s) fall in the first; the
        // midpoint (5 s), third quartile and completion in the second.
        (
            TrackingMode.server, 0, 0,
            [
                "impression": ["https://track.example/ad0/imp", "https://track.example/bs"],
                "start": ["https://track.example/ad0/start"],
                "firstQuartile": ["https://track.example/ad0/q1"],
            ]
        ),
        (
            TrackingMode.server, 1, 1,
            [
                "midpoint": ["https://track.example/ad1/mid"], "thirdQuartile": ["https://track.example/ad1/q3"],
                "complete": ["https://track.example/ad1/done", "https://track.example/be"],
            ]
        ),
        (
            TrackingMode.server, 1, 0,
            [
                "impression": ["https://track.example/ad1/imp"], "start": ["https://track.example/ad1/start"],
                "firstQuartile": ["https://track.example/ad1/q1"],
            ]
        ),
        (TrackingMode.hybrid, 0, 0, ["impression": ["https://track.example/ad0/imp"]]),
        (TrackingMode.client, 0, 0, [:]),
    ])
    func liveSegmentBeacons(mode: TrackingMode, ad: Int, segment: Int, expected: [String: [String]]) throws {
        let twoSegments = try MediaPlaylist(
            parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXTINF:5,\na.ts\n#EXTINF:5,\nb.ts\n#EXT-X-ENDLIST\n")
        let layout = LiveBreakLayout.make(breakDuration: 20, ads: [[5, 5], [5, 5]], slate: nil)
        let decision = TrackingBuilder.LiveDecision(
            layout: layout, ads: [TitleFixture.ad("ad0", duration: 10), TitleFixture.ad("ad1", duration: 10)],
            skipReason: nil, detail: nil, skippedAds: [],
            breakStartURLs: ["https://track.example/bs"], breakEndURLs: ["https://track.example/be"])
        let fired = TrackingBuilder.liveSegmentBeacons(
            ad: ad, segment: segment, adPlaylist: twoSegments, decision: decision, mode: mode)
        #expect(Dictionary(uniqueKeysWithValues: fired.beacons.map { ($0.key.rawValue, $0.value) }) == expected)
        #expect(!fired.events.isEmpty, "the events due at the segment are reported whoever fires them")
    }
}
