import DASH
import Foundation
import Testing
@testable import Stitching

/// Cutting a DASH period at a common segment boundary: the halves address exactly the origin's
/// segments, numbered and timed on.
@Suite struct DASHPeriodSplitTests {
    static func mpd(_ text: String) throws -> MPD { try MPD(parsing: text) }

    static func onDemand() throws -> MPD {
        let url = try #require(
            Bundle.module.url(forResource: "static-timeline-drm", withExtension: "mpd", subdirectory: "Resources/dash"))
        return try MPD(parsing: Array(try Data(contentsOf: url)))
    }

    /// Every representation's segments (URL, start) in the period built from `element`.
    static func segments(_ element: XMLElement, duration: Double) throws -> [String: [(String, Double)]] {
        var root = XMLElement(name: "MPD", attributes: [.init(name: "xmlns", value: "urn:mpeg:dash:schema:mpd:2011")])
        root.children = [.element(element)]
        let mpd = try MPD(document: XMLDocument(root: root))
        var result: [String: [(String, Double)]] = [:]
        for set in try #require(mpd.periods.first).adaptationSets {
            for representation in set.representations {
                result[representation.id ?? "?"] =
                    representation.segmentTemplate?.segments(
                        representationID: representation.id ?? "", bandwidth: representation.bandwidth,
                        periodDuration: duration
                    ).map { ($0.url, $0.start) } ?? []
            }
        }
        return result
    }

    @Test func aTimelinePeriodIsCutAtTheCommonBoundaryAndEverySegmentKeepsItsAddress() throws {
        let mpd = try Self.onDemand()
        let period = try #require(mpd.periods.first)
        // Video segments are 6 s, audio 6.016 s: 12 s is common (within 50 ms), 13 s is not a boundary.
        let halves = try DASHPeriodSplit.split(period, at: 13, periodDuration: 60.5).get()
        #expect(halves.boundary == 12)
        #expect(halves.before[attribute: "id"] == "content-0" && halves.before[attribute: "duration"] == "PT12S")
        #expect(halves.after[attribute: "id"] == "content-0-12000")
        #expect(halves.after[attribute: "start"] == "PT12S" && halves.after[attribute: "duration"] == "PT48.5S")

        let original = try Self.segments(period.element, duration: 60.5)
        let before = try Self.segments(halves.before, duration: 12)
        let after = try Self.segments(halves.after, duration: 48.5)
        for id in ["v360", "v720", "a128"] {
            let all = try #require(original[id])
            let first = try #require(before[id])
            let second = try #require(after[id])
            // The same URLs, split in two, none lost or added.
            #expect(first.map(\.0) + second.map(\.0) == all.map(\.0), "\(id)")
            #expect(first.count == 2, "\(id)")
            // The second half's times start from its own start (the boundary taken off).
            #expect(abs((second.first?.1 ?? -1) - 0) < 0.05, "\(id): \(second.prefix(2))")
        }
        // The video timeline of the second half starts with an explicit t and keeps the last short segment.
        let template = try #require(
            halves.after.elements(named: "AdaptationSet").first?.elements(named: "SegmentTemplate").first)
        #expect(template[attribute: "presentationTimeOffset"] == "1080000")
        #expect(template[attribute: "startNumber"] == "3")
        let entries = template.elements(named: "SegmentTimeline").first?.elements(named: "S") ?? []
        #expect(
            entries.map { $0.attributes.map { "\($0.name)=\($0.value)" } } == [
                ["t=1080000", "d=540000", "r=7"], ["d=45000"],
            ])
        // Everything else of the period passes through (protection, roles, the vendor's markup).
        #expect(halves.after.elements(named: "AdaptationSet").first?.elements(named: "ContentProtection").count == 2)
    }

    @Test func aNumberedTemplateCountsOnAtEveryLevelThatWritesIt() throws {
        let mpd = try Self.mpd(
            #"<MPD type="static" mediaPresentationDuration="PT30S"><Period id="t"><AdaptationSet><SegmentTemplate timescale="1" duration="6" startNumber="1" media="$RepresentationID$/$Number$.ts"/><Representation id="a" bandwidth="1"/><Representation id="b" bandwidth="2"><SegmentTemplate startNumber="3"/></Representation></AdaptationSet></Period></MPD>"#
        )
        let period = try #require(mpd.periods.first)
        let halves = try DASHPeriodSplit.split(period, at: 11, periodDuration: 30).get()
        #expect(halves.boundary == 12)
        let original = try Self.segments(period.element, duration: 30)
        let after = try Self.segments(halves.after, duration: 18)
        #expect(after["a"]?.map(\.0) == ["a/3.ts", "a/4.ts", "a/5.ts"])
        #expect(after["b"]?.map(\.0) == ["b/5.ts", "b/6.ts", "b/7.ts"])
        #expect(original["b"]?.suffix(3).map(\.0) == after["b"]?.map(\.0))
        let set = try #require(halves.after.elements(named: "AdaptationSet").first)
        #expect(set.elements(named: "SegmentTemplate").first?[attribute: "presentationTimeOffset"] == "12")
    }

    @Test func whatCannotBeCutIsRefusedNamingIt() throws {
        let based = try Self.mpd(
            #"<MPD><Period><AdaptationSet><Representation id="v" bandwidth="1"><SegmentBase indexRange="0-9"/></Representation></AdaptationSet></Period></MPD>"#
        )
        #expect(
            DASHPeriodSplit.split(try #require(based.periods.first), at: 10, periodDuration: 30)
                == .failure(.notTemplated(path: "MPD/Period[1]/AdaptationSet[1]/Representation[1]")))
        let unaligned = try Self.mpd(
            #"<MPD><Period><AdaptationSet><SegmentTemplate timescale="10" duration="60" media="v$Number$"/><Representation id="v" bandwidth="1"/></AdaptationSet><AdaptationSet><SegmentTemplate timescale="10" duration="64" media="a$Number$"/><Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>"#
        )
        let refusal = DASHPeriodSplit.split(try #require(unaligned.periods.first), at: 6, periodDuration: 20)
        #expect(refusal == .failure(.noCommonBoundary(near: 6, path: "MPD/Period[1]")))
        if case .failure(let why) = refusal { #expect(why.description.contains("segmentAlignment")) }
    }
}

/// A VOD MPD with a pre-roll, a mid-roll and a post-roll stitched in as periods.
@Suite struct DASHVODSplicerTests {
    static func adPeriod(_ name: String, seconds: Double) -> XMLElement {
        let text = """
            <Period duration="\(DASHDuration.text(seconds))"><BaseURL>https://ads.example/\(name)/</BaseURL><AdaptationSet contentType="video" mimeType="video/mp4"><SegmentTemplate timescale="1" duration="5" media="$Number$.m4s" initialization="init.mp4"/><Representation id="\(name)" bandwidth="500000" codecs="avc1.640028"/></AdaptationSet></Period>
            """
        return (try? XMLReader().read(text).root) ?? XMLElement(name: "Period")
    }

    @Test func adPeriodsGoBeforeBetweenAndAfterTheContentOnOneTimeline() throws {
        let mpd = try DASHPeriodSplitTests.onDemand()
        let pods = [
            DASHVODSplicer.Pod(contentTime: 12, periods: [Self.adPeriod("mid", seconds: 20)]),
            DASHVODSplicer.Pod(contentTime: 0, periods: [Self.adPeriod("pre", seconds: 10)]),
            DASHVODSplicer.Pod(contentTime: -1, periods: [Self.adPeriod("post", seconds: 6)]),
        ]
        let (stitched, placed) = try DASHVODSplicer.splice(
            mpd, contentURL: "https://origin.example/vod/title.mpd", pods: pods
        ).get()
        #expect(stitched.mediaPresentationDuration == 96.5)
        #expect(stitched.periods.map(\.start) == [0, 10, 22, 42, 90.5])
        #expect(stitched.periods.map(\.duration) == [10, 12, 20, 48.5, 6])
        #expect(stitched.periods.map(\.id) == [nil, "content-0", nil, "content-0-12000", nil])
        #expect(
            placed == [
                .init(pod: 0, start: 22, duration: 20), .init(pod: 1, start: 0, duration: 10),
                .init(pod: 2, start: 90.5, duration: 6),
            ])
        // The content's relative addresses resolve where the origin put them.
        #expect(stitched.baseURLs == ["https://origin.example/vod/"])
        #expect(stitched.periods[2].baseURLs == ["https://ads.example/mid/"])
        // The content halves address the origin's segments, none lost.
        let original = try DASHPeriodSplitTests.segments(try #require(mpd.periods.first).element, duration: 60.5)
        let first = try DASHPeriodSplitTests.segments(stitched.periods[1].element, duration: 12)
        let second = try DASHPeriodSplitTests.segments(stitched.periods[3].element, duration: 48.5)
        for id in ["v360", "v720", "a128"] {
            #expect(
                (first[id] ?? []).map(\.0) + (second[id] ?? []).map(\.0) == (original[id] ?? []).map(\.0), "\(id)")
        }
        // Continuous periods, every segment covered, the total right: nothing for a player to guess.
        #expect(MPDValidator.check(stitched).isEmpty, "\(MPDValidator.check(stitched))")
        // What was not a period stays (the vendor's element), and the result reads back the same.
        let again = try MPD(parsing: stitched.serialized())
        #expect(again.document == stitched.document)
        #expect(stitched.root.elements.contains { $0.name == "ext:Packager" })
    }

    @Test func liveAndUnalignedContentAreRefusedSayingWhy() throws {
        let live = try MPD(
            parsing:
                #"<MPD type="dynamic"><Period><AdaptationSet><Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>"#
        )
        #expect(throws: DASHVODSplicer.Refusal.dynamic) {
            try DASHVODSplicer.splice(live, contentURL: "https://o.example/a.mpd", pods: []).get()
        }
        let unknown = try MPD(
            parsing:
                #"<MPD><Period><AdaptationSet><Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>"#)
        #expect(throws: DASHVODSplicer.Refusal.unknownLength(path: "MPD/Period[1]")) {
            try DASHVODSplicer.splice(unknown, contentURL: "https://o.example/a.mpd", pods: []).get()
        }
    }
}

/// An ad's own MPD as a period of the stitched one.
@Suite struct DASHAdPeriodTests {
    static let creative = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT15S">
          <BaseURL>media/</BaseURL>
          <Period id="0"><AdaptationSet contentType="video" mimeType="video/mp4"><SegmentTemplate timescale="1" duration="5" media="v/$Number$.m4s" initialization="v/init.mp4"/><Representation id="v" bandwidth="500000" codecs="avc1.640028"/></AdaptationSet></Period>
        </MPD>
        """

    @Test func anAdsPeriodTakesItsIdLengthAndAbsoluteBase() throws {
        let period = try DASHAdPeriod.make(
            try MPD(parsing: Self.creative), url: "https://ads.example/c1/manifest.mpd", id: "seam-ad-mid-12000-0"
        ).get()
        #expect(period[attribute: "id"] == "seam-ad-mid-12000-0")
        #expect(period[attribute: "duration"] == "PT15S")
        #expect(period.elements(named: "BaseURL").map(\.text) == ["https://ads.example/c1/media/"])
        // Stitched into the title: every period continuous and covered.
        let (stitched, _) = try DASHVODSplicer.splice(
            try DASHPeriodSplitTests.onDemand(), contentURL: "https://origin.example/vod/title.mpd",
            pods: [.init(contentTime: 12, periods: [period])]
        ).get()
        #expect(MPDValidator.check(stitched).isEmpty, "\(MPDValidator.check(stitched))")
        #expect(stitched.periods.map(\.id) == ["content-0", "seam-ad-mid-12000-0", "content-0-12000"])
        #expect(stitched.mediaPresentationDuration == 75.5)
    }

    @Test func aLiveOrLengthlessAdIsRefused() throws {
        let live = try MPD(
            parsing:
                #"<MPD type="dynamic"><Period id="p"><AdaptationSet><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>"#
        )
        #expect(
            DASHAdPeriod.make(live, url: "https://a.example/x.mpd", id: "a")
                == .failure(.dynamic(url: "https://a.example/x.mpd")))
        let lengthless = try MPD(
            parsing:
                #"<MPD><Period><AdaptationSet><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>"#)
        #expect(
            DASHAdPeriod.make(lengthless, url: "https://a.example/x.mpd", id: "a")
                == .failure(.unknownLength(url: "https://a.example/x.mpd")))
    }
}
