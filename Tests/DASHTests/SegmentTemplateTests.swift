import Testing
@testable import DASH

/// What a `SegmentTemplate` addresses: the segments of a representation with their numbers,
/// times and URLs, from a timeline or from a fixed length.
@Suite struct SegmentTemplateTests {
    static func template(_ xml: String) throws -> SegmentTemplate {
        SegmentTemplate(try XMLReader().read(xml).root)
    }

    @Test func aTimelineListsEverySegmentWithItsTimeAndNumber() throws {
        let template = try Self.template(
            #"<SegmentTemplate timescale="90000" startNumber="10" presentationTimeOffset="90000" media="v/$RepresentationID$/$Time$-$Number%05d$.m4s"><SegmentTimeline><S t="90000" d="540000" r="2"/><S d="45000"/></SegmentTimeline></SegmentTemplate>"#
        )
        let segments = template.segments(representationID: "v1", bandwidth: 800_000, periodDuration: nil)
        #expect(segments.map(\.number) == [10, 11, 12, 13])
        #expect(segments.map(\.time) == [90_000, 630_000, 1_170_000, 1_710_000])
        #expect(segments.map(\.start) == [0, 6, 12, 18], "the presentation time offset is taken off")
        #expect(segments.map(\.duration) == [6, 6, 6, 0.5])
        #expect(segments.first?.url == "v/v1/90000-00010.m4s")
    }

    @Test func aRepeatUntilTheEndFillsThePeriodOrTheNextEntry() throws {
        let toEnd = try Self.template(
            #"<SegmentTemplate timescale="10" media="$Number$.m4s"><SegmentTimeline><S t="0" d="40" r="-1"/></SegmentTimeline></SegmentTemplate>"#
        )
        #expect(toEnd.segments(representationID: "a", bandwidth: nil, periodDuration: 10).count == 3)
        #expect(toEnd.segments(representationID: "a", bandwidth: nil, periodDuration: nil).count == 1)
        let toNext = try Self.template(
            #"<SegmentTemplate timescale="1" media="$Time$.m4s"><SegmentTimeline><S t="0" d="6" r="-1"/><S t="30" d="2"/></SegmentTimeline></SegmentTemplate>"#
        )
        #expect(
            toNext.segments(representationID: "a", bandwidth: nil, periodDuration: nil).map(\.time) == [
                0, 6, 12, 18, 24, 30,
            ])
    }

    @Test func aFixedLengthTemplateNeedsThePeriodsLength() throws {
        let template = try Self.template(
            #"<SegmentTemplate timescale="1" duration="6" startNumber="1" media="$RepresentationID$_$Bandwidth$_$Number$.ts"/>"#
        )
        let segments = template.segments(representationID: "360p", bandwidth: 466_400, periodDuration: 20)
        #expect(segments.map(\.number) == [1, 2, 3, 4])
        #expect(segments.map(\.url).first == "360p_466400_1.ts")
        #expect(template.segments(representationID: "360p", bandwidth: nil, periodDuration: nil).isEmpty)
    }

    @Test func hostileNumbersAreBoundedNotTrapped() throws {
        let huge = try Self.template(
            #"<SegmentTemplate timescale="1" startNumber="9223372036854775807" presentationTimeOffset="9223372036854775807" duration="1"><SegmentTimeline><S t="18446744073709551000" d="1000" r="9000000000000000000"/></SegmentTimeline></SegmentTemplate>"#
        )
        let segments = huge.segments(representationID: "a", bandwidth: nil, periodDuration: 1e300)
        #expect(segments.count <= SegmentTemplate.maxSegments)
        #expect(segments.allSatisfy { $0.number == Int.max || $0.number > 0 })
        let fixed = try Self.template(#"<SegmentTemplate duration="1"/>"#)
        #expect(
            fixed.segments(representationID: "a", bandwidth: nil, periodDuration: 1e9).count
                == SegmentTemplate.maxSegments)
    }

    @Test(arguments: [
        ("$RepresentationID$/$Number$.m4s", "v1/7.m4s"),
        ("$Number%03d$-$Time%012d$", "007-000000000090"),
        ("cost$$$Bandwidth$", "cost$500"),
        ("$Unknown$-$Number$", "$Unknown$-7"),
        ("open$Number", "open$Number"),
        ("no identifiers", "no identifiers"),
    ])
    func identifiersAreFilledIn(_ template: String, _ url: String) {
        #expect(
            SegmentTemplate.substitute(template, representationID: "v1", number: 7, time: 90, bandwidth: 500) == url)
    }
}
