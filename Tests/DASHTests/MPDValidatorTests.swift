import Foundation
import Testing
@testable import DASH

/// Timing and addressing checks of an MPD: clean on the test MPDs, and each rule found where it is broken.
@Suite struct MPDValidatorTests {
    @Test(arguments: ["static-timeline-drm", "dynamic-scte35", "prefixed-segmentbase"])
    func theTestMPDsAreClean(_ name: String) throws {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "mpd", subdirectory: "Resources"))
        let mpd = try MPD(parsing: Array(try Data(contentsOf: url)))
        #expect(MPDValidator.check(mpd).isEmpty, "\(MPDValidator.check(mpd))")
    }

    static let set =
        #"<AdaptationSet><SegmentTemplate timescale="1" duration="6" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet>"#

    @Test(arguments: [
        (
            #"<MPD mediaPresentationDuration="PT24S"><Period duration="PT12S">\#(set)</Period><Period start="PT14S" duration="PT10S">\#(set)</Period></MPD>"#,
            MPDValidator.Rule.periodContinuity, "MPD/Period[2]", "a gap"
        ),
        (
            #"<MPD mediaPresentationDuration="PT24S"><Period duration="PT12S">\#(set)</Period><Period start="PT10S" duration="PT14S">\#(set)</Period></MPD>"#,
            .periodContinuity, "MPD/Period[2]", "inside the previous period"
        ),
        (
            #"<MPD mediaPresentationDuration="PT24S"><Period id="a" duration="PT12S">\#(set)</Period><Period id="a" duration="PT12S">\#(set)</Period></MPD>"#,
            .periodIDs, "MPD/Period[2]", "used by an earlier period"
        ),
        (#"<MPD type="dynamic"><Period>\#(set)</Period></MPD>"#, .periodIDs, "MPD/Period[1]", "no id"),
        (
            #"<MPD mediaPresentationDuration="PT12S"><Period><AdaptationSet><SegmentTemplate timescale="1" duration="6" media="$Number$"/><Representation id="v" bandwidth="1"/><Representation id="v" bandwidth="2"/></AdaptationSet></Period></MPD>"#,
            .representationIDs, "MPD/Period[1]/AdaptationSet[1]/Representation[2]", "used twice"
        ),
        (
            #"<MPD mediaPresentationDuration="PT18S"><Period><AdaptationSet><SegmentTemplate timescale="1" media="$Time$"><SegmentTimeline><S t="0" d="6"/><S t="12" d="6"/></SegmentTimeline></SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>"#,
            .segmentCoverage, "MPD/Period[1]/AdaptationSet[1]/Representation[1]", "hole"
        ),
        (
            #"<MPD mediaPresentationDuration="PT20S"><Period><AdaptationSet><SegmentTemplate timescale="1" media="$Time$"><SegmentTimeline><S t="0" d="6" r="1"/></SegmentTimeline></SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>"#,
            .segmentCoverage, "MPD/Period[1]/AdaptationSet[1]/Representation[1]", "before the period's PT20S"
        ),
        (
            #"<MPD mediaPresentationDuration="PT30S"><Period duration="PT12S">\#(set)</Period></MPD>"#,
            .presentationDuration, "MPD", "the last period ends at PT12S"
        ),
    ])
    func eachBrokenRuleIsFoundWhereItIsBroken(
        _ text: String, _ rule: MPDValidator.Rule, _ path: String, _ message: String
    ) throws {
        let findings = MPDValidator.check(try MPD(parsing: text))
        #expect(
            findings.contains {
                $0.rule == rule && $0.path == path && $0.message.contains(message) && $0.severity == .error
            },
            "\(findings)")
    }

    @Test func aLivePeriodsGrowingTimelineIsNotShort() throws {
        let mpd = try MPD(
            parsing:
                #"<MPD type="dynamic"><Period id="p" start="PT0S"><AdaptationSet><SegmentTemplate timescale="1" media="$Time$"><SegmentTimeline><S t="0" d="6" r="2"/></SegmentTimeline></SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>"#
        )
        #expect(MPDValidator.check(mpd).isEmpty)
    }
}

/// An origin's numbers far out of range: checked, written and reported, never trapped on.
@Suite struct DASHHostileNumbersTests {
    @Test func hugeDurationsAreBoundedWhenWritten() throws {
        #expect(DASHDuration.text(1e300) == "PT9000000000000S")
        #expect(DASHDuration.text(.infinity) == "PT9000000000000S")
        #expect(DASHDuration.text(.nan) == "PT0S")
        let mpd = try MPD(
            parsing:
                #"<MPD mediaPresentationDuration="P99999999999999999999D"><Period start="P99999999999999999999D"><AdaptationSet><SegmentTemplate timescale="1" duration="9223372036854775807" startNumber="9223372036854775807"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>"#
        )
        #expect(!MPDValidator.check(mpd).isEmpty)
    }
}
