import Foundation
import Testing
@testable import DASH

/// The MPD reader: typed views of what a stitcher reads, inheritance as DASH defines it, and
/// errors that name the element.
@Suite struct MPDTests {
    static func fixture(_ name: String) throws -> MPD {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "mpd", subdirectory: "Resources"))
        return try MPD(parsing: Array(try Data(contentsOf: url)))
    }

    @Test func anOnDemandMPDWithATimelineAndProtection() throws {
        let mpd = try Self.fixture("static-timeline-drm")
        #expect(!mpd.isDynamic)
        #expect(mpd.mediaPresentationDuration == 60.5)
        let period = try #require(mpd.periods.first)
        #expect(period.id == "content-0" && period.start == 0)
        let (video, audio) = (period.adaptationSets[0], period.adaptationSets[1])
        #expect(video.contentType == "video" && video.isProtected)
        #expect(audio.contentType == "audio" && audio.lang == "en" && audio.roles == ["main"] && !audio.isProtected)
        // Representations inherit their set's codecs and template, and keep their own.
        #expect(video.representations.map(\.codecs) == ["avc1.640028", "avc1.64001f"])
        #expect(video.representations.map(\.bandwidth) == [800_000, 3_000_000])
        #expect(video.representations.map(\.height) == [360, 720])
        let template = try #require(video.representations[0].segmentTemplate)
        #expect(template.timescale == 90_000 && template.presentationTimeOffset == 0)
        #expect(template.media == "video/$RepresentationID$/$Time$.m4s")
        #expect(template.timeline == [.init(t: 0, d: 540_000, r: 9), .init(d: 45_000)])
        #expect(audio.representations[0].segmentTemplate?.timeline == [.init(t: 0, d: 288_768, r: -1)])
        #expect(video.representations[1].path == "MPD/Period[1]/AdaptationSet[1]/Representation[2]")
    }

    @Test func aLiveMPDWithSCTE35EventStreamsAndTemplateInheritance() throws {
        let mpd = try Self.fixture("dynamic-scte35")
        #expect(mpd.isDynamic)
        #expect(mpd.availabilityStartTime == "2026-11-30T08:00:00Z" && mpd.publishTime == "2026-11-30T09:00:12Z")
        #expect(mpd.minimumUpdatePeriod == 6)
        let period = try #require(mpd.periods.first)
        #expect(period.baseURLs == ["https://origin.example/live/"])
        #expect(
            period.eventStreams.map(\.schemeIdUri) == ["urn:scte:scte35:2013:xml", "urn:scte:scte35:2014:xml+bin"])
        let splice = try #require(period.eventStreams[0].events.first)
        #expect(splice.presentationTime == 324_000_000 && splice.duration == 2_700_000 && splice.id == "17")
        #expect(splice.element.elements.first?.localName == "SpliceInfoSection")
        #expect(period.eventStreams[1].timescale == 1)
        #expect(
            period.eventStreams[1].events.first?.element.elements(named: "Signal").first?.elements(named: "Binary")
                .first?.text == "/DAlAAAAAAAAAP/wFAUAAAASf+/+AAAAAP4AKTLgAAEAAAAAlKBXbw==")
        let representations = period.adaptationSets[0].representations
        // The set's template, refined by the 720p representation's own startNumber.
        #expect(representations.map { $0.segmentTemplate?.startNumber } == [1, 3])
        #expect(representations.map { $0.segmentTemplate?.duration } == [6, 6])
        #expect(representations[1].segmentTemplate?.media == "$RepresentationID$/$Number$.m4s")
    }

    @Test func aPrefixedNamespaceAndSegmentBaseAndListAddressing() throws {
        let mpd = try Self.fixture("prefixed-segmentbase")
        #expect(mpd.mediaPresentationDuration == 3600)
        #expect(mpd.baseURLs == ["https://cdn.example/title/"])
        #expect(mpd.periods.map(\.duration) == [1800, 1800])
        #expect(mpd.periods.map(\.id) == [nil, "second"])
        let first = try #require(mpd.periods.first?.adaptationSets.first?.representations.first)
        #expect(first.hasSegmentBase && first.segmentTemplate == nil && first.baseURLs == ["video-1.mp4"])
        #expect(first.codecs == "hvc1.1.6.L93.90")
        #expect(mpd.periods[1].adaptationSets[0].representations[0].hasSegmentList)
        #expect(mpd.periods[0].adaptationSets[0].contentType == "video")
    }

    @Test(arguments: [
        ("<Manifest/>", "Manifest", "not <MPD>"),
        ("<MPD/>", "MPD", "no <Period>"),
        (#"<MPD type="live"><Period/></MPD>"#, "MPD", "neither static nor dynamic"),
        (#"<MPD mediaPresentationDuration="1 hour"><Period/></MPD>"#, "MPD", "xs:duration"),
        (#"<MPD><Period><AdaptationSet/></Period></MPD>"#, "MPD/Period[1]/AdaptationSet[1]", "no <Representation>"),
        (
            #"<MPD><Period><AdaptationSet><Representation bandwidth="1"/></AdaptationSet><AdaptationSet><Representation id="a" bandwidth="lots"/></AdaptationSet></Period></MPD>"#,
            "MPD/Period[1]/AdaptationSet[1]/Representation[1]", "no id"
        ),
        (
            #"<MPD><Period><AdaptationSet><Representation id="a" bandwidth="1"/></AdaptationSet><AdaptationSet><Representation id="a" bandwidth="lots"/></AdaptationSet></Period></MPD>"#,
            "MPD/Period[1]/AdaptationSet[2]/Representation[1]", "bandwidth=\"lots\""
        ),
        (
            #"<MPD><Period><AdaptationSet><SegmentTemplate><SegmentTimeline><S t="0" d="6"/><S d="0"/></SegmentTimeline></SegmentTemplate><Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>"#,
            "MPD/Period[1]/AdaptationSet[1]/SegmentTemplate/SegmentTimeline/S[2]", "d=\"0\""
        ),
        (
            #"<MPD><Period><SegmentTemplate timescale="0"/><AdaptationSet><Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>"#,
            "MPD/Period[1]/SegmentTemplate", "timescale"
        ),
        (#"<MPD><Period><EventStream/></Period></MPD>"#, "MPD/Period[1]/EventStream[1]", "schemeIdUri"),
    ])
    func aBrokenRuleNamesItsElement(_ text: String, _ path: String, _ reason: String) {
        #expect {
            try MPD(parsing: text)
        } throws: { error in
            guard case .invalidMPD(let where_, let why) = error as? DASHParseError else { return false }
            return where_ == path && why.contains(reason)
        }
    }

    @Test(arguments: [
        ("PT30S", 30.0), ("PT1H2M3.5S", 3723.5), ("P1DT2H", 93_600.0), ("PT0S", 0.0), ("P0DT1H0M0.000S", 3600.0),
        (" PT6S ", 6.0),
    ])
    func durationsReadAsSeconds(_ text: String, _ seconds: Double) {
        #expect(DASHDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["30", "P1Y", "P1M", "PT", "P", "-PT5S", "PT5", "PT1.2.3S", "PTS", "P5H", "PT5D"])
    func durationsThatAreNotRead(_ text: String) {
        #expect(DASHDuration.seconds(text) == nil)
    }

    @Test func durationsAreWrittenToTheMillisecond() {
        #expect(DASHDuration.text(30) == "PT30S")
        #expect(DASHDuration.text(12.5) == "PT12.5S")
        #expect(DASHDuration.text(0.0404) == "PT0.04S")
        #expect(DASHDuration.text(-3) == "PT0S")
    }
}
