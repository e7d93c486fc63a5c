import DASH
import Foundation
import HLS
import Testing

@testable import Stitching

/// Fitting ads' MPDs to a title's adaptation sets, the ad periods a session plays, and the whole
/// stitch from a `BreakPlan`: no network, the content is `static-timeline-drm.mpd` (60.5 s, video
/// avc1 in two representations, English audio mp4a) and the ads are written here.
@Suite struct DASHVODStitcherTests {
    static let content = "https://origin.example/title/manifest.mpd"
    static let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "s1")

    /// An ad's MPD: `sets` are (contentType, codecs, lang) triples, each with one representation
    /// of 5 s `$Number$` segments (`seconds` long in all).
    static func ad(
        _ sets: [(String, String, String?)], seconds: Int = 10, addressing: String? = nil, type: String = "static"
    ) -> String {
        let body = sets.enumerated().map { index, set in
            let (kind, codecs, lang) = set
            let language = lang.map { " lang=\"\($0)\"" } ?? ""
            let segments =
                addressing
                    ?? """
                    <SegmentTemplate timescale="1000" duration="5000" startNumber="1" initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/seg-$Number%03d$.m4s"/>
                    """
            return """
                <AdaptationSet contentType="\(kind)" mimeType="\(kind)/mp4" codecs="\(codecs)"\(language)>
                  \(segments)
                  <Representation id="\(kind)\(index)" bandwidth="\(100_000 * (index + 1))"/>
                </AdaptationSet>
                """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" mediaPresentationDuration="PT\(seconds)S">
              <Period id="p0">
            \(body)
              </Period>
            </MPD>
            """
    }

    static let plainAd = ad([("video", "avc1.4d401f", nil), ("audio", "mp4a.40.2", "en")])

    static func title() throws -> MPD { try DASHPeriodSplitTests.onDemand() }

    static func fit(
        _ text: String, url: String = "https://ads.example/a/ad.mpd"
    ) throws -> Result<
        DASHCreativeFit, AdSkip
    > {
        DASHCreativeFit.fit(try MPD(parsing: text), url: url, content: try title())
    }

    @Test func anAdStandsInForEveryVideoAndAudioSetPreferringTheContentsLanguage() throws {
        let twoLanguages = Self.ad([
            ("video", "avc1.42c01e", nil), ("audio", "mp4a.40.2", "es"), ("audio", "mp4a.40.2", "en-GB"),
        ])
        let fit = try Self.fit(twoLanguages).get()
        #expect(fit.pairs.map(\.content.id) == ["1", "2"])
        #expect(fit.pairs.map(\.ad.contentType) == ["video", "audio"])
        // The content's English is nearer `en-GB` than `es`.
        #expect(fit.pairs[1].ad.lang == "en-GB")
        #expect(fit.duration == 10)
    }

    @Test func anAdThatCannotStandInIsUnusableNamingWhatItLacks() throws {
        let cases: [(String, String)] = [
            (
                Self.ad([("video", "hvc1.1.6.L93.B0", nil), ("audio", "mp4a.40.2", nil)]),
                "no video adaptation set with codecs avc1"
            ),
            (Self.ad([("video", "avc1.4d401f", nil)]), "no audio adaptation set"),
            (
                Self.ad(
                    [("video", "avc1.4d401f", nil), ("audio", "mp4a.40.2", nil)],
                    addressing: #"<SegmentBase indexRange="0-100"/>"#),
                "without a SegmentTemplate"
            ),
            (Self.ad([("video", "avc1.4d401f", nil), ("audio", "mp4a.40.2", nil)], type: "dynamic"), "dynamic"),
        ]
        for (text, words) in cases {
            guard case .failure(.unusable(let why)) = try Self.fit(text) else {
                Issue.record("expected \(words) to be refused")
                continue
            }
            #expect(why.contains(words), "\(why)")
            #expect(why.contains("https://ads.example/a/ad.mpd"))
        }
    }

    /// Server-side tracking: the ad period carries the content sets' ids, language and roles, its
    /// representations are renamed by rendition key, and every segment goes through Seam's route,
    /// numbered from 0, with the events each reaches.
    @Test func aFittedPeriodRoutesItsSegmentsThroughTheSession() throws {
        let fit = try Self.fit(Self.plainAd).get()
        let period = DASHAdPeriod.fitted(fit, id: "seam-ad-preroll-0-1", pod: 0, ad: 1, mode: .server, urls: Self.urls)
        let written = Period(element: period.element, path: "MPD/Period[1]")
        #expect(written.id == "seam-ad-preroll-0-1")
        #expect(written.duration == 10)
        let sets = written.adaptationSets
        #expect(sets.map(\.id) == ["1", "2"])
        #expect(sets[1].lang == "en")
        #expect(sets[1].roles == ["main"])
        #expect(sets.map { $0.representations.map(\.id) } == [["v0"], ["a0"]])
        let video = try #require(sets[0].representations.first?.segmentTemplate)
        #expect(video.media == "https://seam.example/v1/sessions/s1/ad/0/1/v0/$Number$.m4s")
        #expect(video.startNumber == 0)
        #expect(video.initialization == "https://ads.example/a/video0/init.mp4")
        #expect(
            video.segments(representationID: "v0", bandwidth: nil, periodDuration: 10).map(\.url) == [
                "https://seam.example/v1/sessions/s1/ad/0/1/v0/0.m4s",
                "https://seam.example/v1/sessions/s1/ad/0/1/v0/1.m4s",
            ])
        let first = AdSegmentAddress(pod: 0, ad: 1, rendition: RenditionKey(.variant, 0), segment: 0)
        let last = AdSegmentAddress(pod: 0, ad: 1, rendition: RenditionKey(.audio, 0), segment: 1)
        #expect(period.adSegments.count == 4)
        #expect(period.adSegments[first]?.url == "https://ads.example/a/video0/seg-001.m4s")
        #expect(period.adSegments[first]?.events == [.impression, .start, .firstQuartile])
        #expect(period.adSegments[last]?.url == "https://ads.example/a/audio1/seg-002.m4s")
        #expect(period.adSegments[last]?.events == [.midpoint, .thirdQuartile, .complete])
    }

    /// Client-side tracking: the creative's own addresses, made absolute, and nothing routed.
    @Test func withTheClientTrackingTheSegmentsLoadFromTheAdsCDN() throws {
        let fit = try Self.fit(Self.plainAd).get()
        let period = DASHAdPeriod.fitted(fit, id: "ad", pod: 0, ad: 0, mode: .client, urls: Self.urls)
        #expect(period.adSegments.isEmpty)
        let template = try #require(
            Period(element: period.element, path: "MPD/Period[1]").adaptationSets[0].representations.first?
                .segmentTemplate)
        #expect(template.media == "https://ads.example/a/video0/seg-$Number%03d$.m4s")
        #expect(template.startNumber == 1)
    }

    /// The whole stitch: pre-, mid- and post-roll periods on one timeline, the tracking JSON's
    /// avails where the periods are, the beacons Seam fires, and an MPD that passes its rules.
    @Test func aPlanBecomesPeriodsTrackingAndBeacons() throws {
        let creative = AdCreative(url: "https://ads.example/a/ad.mpd", dash: try MPD(parsing: Self.plainAd))
        func planned(_ id: String) -> BreakPlan.Ad {
            BreakPlan.Ad(
                ad: PlannedAd(
                    id: id, duration: 10, creativeURL: creative.url,
                    beacons: [.impression: ["https://track.example/\(id)/impression"]]),
                creative: creative)
        }
        let plan = BreakPlan(breaks: [
            BreakPlan.Break(position: .preroll, ads: [planned("pre1"), planned("pre2")]),
            BreakPlan.Break(position: .midroll(seconds: 13), ads: [planned("mid")]),
            BreakPlan.Break(position: .midroll(seconds: 31), skipReason: .noFill),
            BreakPlan.Break(position: .postroll, ads: [planned("post")]),
        ])
        let stitched = try DASHVODStitcher.stitch(
            try Self.title(), contentURL: Self.content, plan: plan, mode: .server, urls: Self.urls
        ).get()
        let periods = stitched.mpd.periods
        #expect(
            periods.map(\.id) == [
                "seam-ad-preroll-0-0", "seam-ad-preroll-0-1", "content-0", "seam-ad-midroll-1-0", "content-0-12000",
                "seam-ad-postroll-2-0",
            ])
        // The mid-roll asked at 13 s goes at 12 s, the boundary video and audio share.
        #expect(periods.map(\.start) == [0, 10, 20, 32, 42, 90.5])
        #expect(stitched.mpd.mediaPresentationDuration == 100.5)
        #expect(MPDValidator.check(stitched.mpd).isEmpty, "\(MPDValidator.check(stitched.mpd))")
        let avails = stitched.tracking.avails
        // The unfilled break at 31 s of content sits where it would have been, after 30 s of ads.
        #expect(avails.map(\.startTimeSeconds) == [0, 32, 61, 90.5])
        #expect(avails.map(\.durationSeconds) == [20, 10, 0, 10])
        #expect(avails[0].ads.map(\.startTimeSeconds) == [0, 10])
        #expect(stitched.tracking.durationSeconds == 100.5)
        #expect(
            stitched.beacons[TrackingBuilder.BeaconKey(pod: 1, ad: 0, event: .impression)] == [
                "https://track.example/mid/impression"
            ])
        // Every ad's every representation, 2 segments each (video and audio).
        #expect(stitched.adSegments.count == 4 * 2 * 2)
    }

    /// A mid-roll where the content cannot be cut plays content, `NO_SPLICE_POINT` with the reason,
    /// and the rest of the plan still plays: the session starts.
    @Test func aBreakTheContentCannotBeCutForPlaysContentWithTheReason() throws {
        let title = try MPD(
            parsing: """
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT60S"><Period id="c">
                <AdaptationSet contentType="video" mimeType="video/mp4" codecs="avc1.4d401f"><Representation id="v" bandwidth="1"><BaseURL>v.mp4</BaseURL><SegmentBase indexRange="0-99"/></Representation></AdaptationSet>
                <AdaptationSet contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en"><Representation id="a" bandwidth="1"><BaseURL>a.mp4</BaseURL><SegmentBase indexRange="0-99"/></Representation></AdaptationSet>
                </Period></MPD>
                """)
        let creative = AdCreative(url: "https://ads.example/a/ad.mpd", dash: try MPD(parsing: Self.plainAd))
        let ad = BreakPlan.Ad(ad: PlannedAd(id: "mid", duration: 10, creativeURL: creative.url), creative: creative)
        let plan = BreakPlan(breaks: [
            BreakPlan.Break(position: .preroll, ads: [ad]), BreakPlan.Break(position: .midroll(seconds: 30), ads: [ad]),
        ])
        let stitched = try DASHVODStitcher.stitch(
            title, contentURL: Self.content, plan: plan, mode: .server, urls: Self.urls
        )
        .get()
        #expect(stitched.mpd.periods.map(\.id) == ["seam-ad-preroll-0-0", "c"])
        let mid = stitched.tracking.avails[1]
        #expect(mid.skipReason == "NO_SPLICE_POINT")
        #expect(mid.skipDetail?.contains("SegmentBase") == true, "\(mid.skipDetail ?? "")")
        #expect(mid.skippedAds.map(\.code) == ["no_splice_point"])
        #expect(stitched.plan.filled.count == 1)
    }

    /// A cut keeps each SCTE-35 event in the half it falls in, at its place on the timeline, and a
    /// sidecar subtitle file (no template) stays with the first half.
    @Test func aCutKeepsEventsInTheirHalfAndASidecarInTheFirst() throws {
        let title = try MPD(
            parsing: """
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT60S"><Period id="c">
                <EventStream schemeIdUri="urn:example" timescale="10"><Event presentationTime="100" id="a"/><Event presentationTime="400" id="b"/></EventStream>
                <AdaptationSet contentType="video" mimeType="video/mp4" codecs="avc1.4d401f"><SegmentTemplate timescale="1" duration="6" media="v$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet>
                <AdaptationSet contentType="text" mimeType="text/vtt" lang="en"><Representation id="t" bandwidth="1"><BaseURL>subs.vtt</BaseURL></Representation></AdaptationSet>
                </Period></MPD>
                """)
        let halves = try DASHPeriodSplit.split(try #require(title.periods.first), at: 30, periodDuration: 60).get()
        #expect(halves.boundary == 30)
        let before = Period(element: halves.before, path: "a")
        let after = Period(element: halves.after, path: "b")
        #expect(before.eventStreams.first?.events.map(\.id) == ["a"])
        #expect(after.eventStreams.first?.events.map(\.id) == ["b"])
        #expect(after.eventStreams.first?.element[attribute: "presentationTimeOffset"] == "300")
        #expect(before.adaptationSets.map(\.contentType) == ["video", "text"])
        #expect(after.adaptationSets.map(\.contentType) == ["video"])
    }

    /// A break is fitted to the content period it is in: a mid-roll in a period whose audio is
    /// E-AC-3 needs an E-AC-3 ad, where the first period's AAC would not.
    @Test func anAdIsFittedToThePeriodItsBreakIsIn() throws {
        func period(_ id: String, start: Int, audio: String) -> String {
            """
            <Period id="\(id)" start="PT\(start)S" duration="PT30S">
            <AdaptationSet id="1" contentType="video" mimeType="video/mp4" codecs="avc1.4d401f"><SegmentTemplate timescale="1" duration="6" media="v$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet>
            <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" codecs="\(audio)"><SegmentTemplate timescale="1" duration="6" media="a$Number$.m4s"/><Representation id="a" bandwidth="1"/></AdaptationSet>
            </Period>
            """
        }
        let title = try MPD(
            parsing: """
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT60S">
                \(period("one", start: 0, audio: "mp4a.40.2"))\(period("two", start: 30, audio: "ec-3"))</MPD>
                """)
        let ad = try MPD(parsing: Self.plainAd)
        #expect(
            (try? DASHCreativeFit.fit(ad, url: "https://ads.example/ad.mpd", content: title, cuePoint: 12).get()) != nil
        )
        guard
            case .failure(.unusable(let why)) = DASHCreativeFit.fit(
                ad, url: "https://ads.example/ad.mpd", content: title, cuePoint: 42)
        else {
            Issue.record("an AAC ad fitted the E-AC-3 period")
            return
        }
        #expect(why.contains("ec-3"), "\(why)")
        #expect(
            (try? DASHCreativeFit.fit(ad, url: "https://ads.example/ad.mpd", content: title, cuePoint: -1).get()) == nil
        )
    }
}
