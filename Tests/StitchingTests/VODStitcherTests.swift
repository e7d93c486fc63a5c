import HLS
import Testing
@testable import Stitching

/// A multivariant title with a pre-roll of two ads, a filled and an unfilled mid-roll and a
/// post-roll, stitched without a network.
@Suite struct VODStitcherTests {
    let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "SID")

    func plan() -> BreakPlan {
        BreakPlan(breaks: [
            .init(
                position: .preroll,
                ads: [
                    .init(ad: TitleFixture.ad("A", duration: 10), creative: TitleFixture.creative("A", segments: 2)),
                    .init(ad: TitleFixture.ad("B", duration: 15), creative: TitleFixture.creative("B", segments: 3)),
                ], breakStartURLs: ["https://track.example/break/start"],
                breakEndURLs: ["https://track.example/break/end"]),
            .init(
                position: .midroll(seconds: 30),
                ads: [
                    .init(ad: TitleFixture.ad("C", duration: 20), creative: TitleFixture.creative("C", segments: 4))
                ]),
            .init(
                position: .midroll(seconds: 42),
                skippedAds: [
                    .init(
                        adID: "X",
                        reason:
                            "creative https://ads.example/X/master.m3u8 not loaded within the ad budget (ads.totalBudgetSeconds)"
                    )
                ],
                skipReason: .noFill, skipDetail: "the ad server had nothing"),
            .init(
                position: .postroll,
                ads: [
                    .init(
                        ad: TitleFixture.ad("D", duration: 6),
                        creative: TitleFixture.creative("D", segments: 2, duration: 3))
                ]),
        ])
    }

    @Test func everyRenditionGetsTheSamePodsAtTheSameBoundaries() throws {
        let content = TitleFixture.title()
        let stitched = VODStitcher.stitch(content, plan: plan(), mode: .server, urls: urls)
        #expect(Set(stitched.media.keys) == Set(["v0", "v1", "a0", "s1"].compactMap(RenditionKey.init)))
        var shapes: [[Bool]] = []
        for (key, playlist) in stitched.media {
            // 10 content segments, 2 + 3 + 4 + 2 ad segments.
            #expect(playlist.segments.count == 21, "\(key)")
            #expect(playlist.endList)
            #expect(PlaylistValidator.validate(playlist.serialized()).isValid, "\(key)")
            shapes.append(playlist.segments.map { !$0.uri.contains("origin.example") })
            let discontinuities = playlist.segments.enumerated().filter(\.element.discontinuity).map(\.offset)
            #expect(discontinuities == [2, 5, 10, 14, 19], "\(key)")
        }
        #expect(Set(shapes).count == 1, "ad segments sit at the same places in every rendition")
        // Ads route through the session; subtitles get the empty WebVTT of this session.
        let v1 = try #require(stitched.media[RenditionKey(.variant, 1)])
        #expect(v1.segments[0].uri == "https://seam.example/v1/sessions/SID/ad/0/0/v1/0.ts")
        #expect(v1.segments[4].uri == "https://seam.example/v1/sessions/SID/ad/0/1/v1/2.ts")
        #expect(v1.segments[5].uri == "https://origin.example/720p/0.ts")
        #expect(v1.segments[10].uri == "https://seam.example/v1/sessions/SID/ad/1/0/v1/0.ts")
        let subtitles = try #require(stitched.media[RenditionKey(.subtitles, 1)])
        #expect(subtitles.segments.filter { $0.uri == "https://seam.example/v1/assets/empty.vtt" }.count == 11)
    }

    @Test func theAdSegmentTablePointsAtTheMatchedCreativeRendition() throws {
        let stitched = VODStitcher.stitch(TitleFixture.title(), plan: plan(), mode: .server, urls: urls)
        // 11 ad segments in each of v0, v1 and a0; subtitles are not routed.
        #expect(stitched.adSegments.count == 33)
        #expect(!stitched.adSegments.keys.contains { $0.rendition.kind == .subtitles })
        let high = try #require(
            stitched.adSegments[AdSegmentAddress(pod: 0, ad: 1, rendition: RenditionKey(.variant, 1), segment: 2)])
        #expect(high.url == "https://ads.example/B/high/2.ts")
        #expect(high.events == [.thirdQuartile, .complete])
        let low = try #require(
            stitched.adSegments[AdSegmentAddress(pod: 0, ad: 0, rendition: RenditionKey(.variant, 0), segment: 0)])
        #expect(low.url == "https://ads.example/A/low/0.ts")
        #expect(low.events == [.impression, .start, .firstQuartile])
        // A muxed creative's audio comes from its lowest variant.
        let audio = try #require(
            stitched.adSegments[AdSegmentAddress(pod: 2, ad: 0, rendition: RenditionKey(.audio, 0), segment: 1)])
        #expect(audio.url == "https://ads.example/D/low/1.ts")
        #expect(audio.events.last == .complete)
    }

    @Test func beaconsIncludeTheBreakEventsOnTheFirstAndLastAd() {
        let stitched = VODStitcher.stitch(TitleFixture.title(), plan: plan(), mode: .server, urls: urls)
        #expect(
            stitched.beacons[.init(pod: 0, ad: 0, event: .impression)] == [
                "https://track.example/A/imp", "https://track.example/break/start",
            ])
        #expect(
            stitched.beacons[.init(pod: 0, ad: 1, event: .complete)] == [
                "https://track.example/B/done", "https://track.example/break/end",
            ])
        #expect(stitched.beacons[.init(pod: 1, ad: 0, event: .midpoint)] == ["https://track.example/C/mid"])
        #expect(stitched.beacons[.init(pod: 2, ad: 0, event: .firstQuartile)] == ["https://track.example/D/q1"])
        #expect(stitched.beacons.keys.allSatisfy { $0.pod < 3 })
    }

    @Test func trackingPlacesEveryAvailOnTheStitchedClock() throws {
        let stitched = VODStitcher.stitch(TitleFixture.title(), plan: plan(), mode: .server, urls: urls)
        let tracking = stitched.tracking
        #expect(tracking.sessionId == "SID")
        #expect(tracking.trackingMode == .server)
        #expect(tracking.durationSeconds == 60 + 25 + 20 + 6)
        #expect(tracking.cuePoints == [0, 30, 42, -1])
        #expect(tracking.avails.map(\.position) == ["preroll", "midroll", "midroll", "postroll"])
        #expect(tracking.avails.map(\.startTimeSeconds) == [0, 55, 87, 105])
        #expect(tracking.avails.map(\.durationSeconds) == [25, 20, 0, 6])
        let preroll = tracking.avails[0]
        #expect(preroll.ads.map(\.adId) == ["A", "B"])
        #expect(preroll.ads.map(\.startTimeSeconds) == [0, 10])
        #expect(preroll.ads[1].trackingEvents.first { $0.event == "firstQuartile" }?.startTimeSeconds == 13.75)
        #expect(preroll.trackingEvents.map(\.startTimeSeconds) == [0, 25])
        // Seam fires them all in server mode: the player gets no URLs to call.
        #expect(preroll.ads.allSatisfy { $0.trackingEvents.allSatisfy(\.beaconUrls.isEmpty) })
        // The unfilled break keeps its reason, its detail and the ads left out.
        let skipped = tracking.avails[2]
        #expect(skipped.skipReason == "NO_FILL")
        #expect(skipped.skipDetail == "the ad server had nothing")
        #expect(skipped.ads.isEmpty)
        #expect(skipped.skippedAds.map(\.adId) == ["X"])
        #expect(skipped.skippedAds.first?.reason.contains("not loaded") == true)
    }

    @Test func clientTrackingLeavesAdURIsAloneAndListsTheBeacons() throws {
        let stitched = VODStitcher.stitch(TitleFixture.title(), plan: plan(), mode: .client, urls: urls)
        #expect(stitched.adSegments.isEmpty)
        #expect(stitched.beacons.isEmpty)
        let v0 = try #require(stitched.media[RenditionKey(.variant, 0)])
        #expect(v0.segments[0].uri == "https://ads.example/A/low/0.ts")
        let impression = stitched.tracking.avails[0].ads[0].trackingEvents.first { $0.event == "impression" }
        #expect(impression?.beaconUrls == ["https://track.example/A/imp"])
        #expect(stitched.tracking.avails[0].trackingEvents.first?.beaconUrls == ["https://track.example/break/start"])
    }

    @Test func theMultivariantRoutesEveryRenditionThroughTheSession() {
        let stitched = VODStitcher.stitch(TitleFixture.title(), plan: plan(), mode: .server, urls: urls)
        let multivariant = stitched.multivariant
        #expect(
            multivariant.variants.map(\.uri) == [
                "https://seam.example/v1/sessions/SID/media/v0.m3u8",
                "https://seam.example/v1/sessions/SID/media/v1.m3u8",
            ])
        #expect(
            multivariant.renditions.compactMap(\.uri) == [
                "https://seam.example/v1/sessions/SID/media/a0.m3u8",
                "https://seam.example/v1/sessions/SID/media/s1.m3u8",
            ])
        #expect(multivariant.iFrameVariants.isEmpty)
    }

    @Test func aPlanWithoutAdsLeavesTheTitleAsItWas() throws {
        let content = TitleFixture.title()
        let stitched = VODStitcher.stitch(content, plan: BreakPlan(breaks: []), mode: .server, urls: urls)
        let v0 = try #require(stitched.media[RenditionKey(.variant, 0)])
        #expect(v0.segments.map(\.uri) == content.reference.segments.map(\.uri))
        #expect(stitched.tracking.avails.isEmpty)
        #expect(stitched.tracking.durationSeconds == 60)
    }
}
