import Foundation
import Testing

/// `seam validate` on DASH MPDs: the real executable on files. Exit 0 clean, 1 errors (each naming
/// its rule and element), 2 an MPD that cannot be read.
@Suite struct ValidateMPDTests {
    static let clean = """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT24S">
          <Period id="a" duration="PT12S"><AdaptationSet><SegmentTemplate timescale="1" duration="6" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period>
          <Period id="b" duration="PT12S"><AdaptationSet><SegmentTemplate timescale="1" duration="6" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period>
        </MPD>
        """

    @Test func aCleanMPDExitsZero() async throws {
        let workspace = try Workspace()
        try workspace.write("clean.mpd", Self.clean)
        let result = try await workspace.seam("validate", workspace.path("clean.mpd"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("1 MPD checked: 0 errors, 0 warnings"), "\(result)")
    }

    @Test func aGapBetweenPeriodsIsAnErrorNamingThePeriod() async throws {
        let workspace = try Workspace()
        try workspace.write(
            "gap.mpd",
            Self.clean.replacingOccurrences(
                of: #"<Period id="b" duration"#, with: #"<Period id="b" start="PT14S" duration"#))
        let result = try await workspace.seam("validate", workspace.path("gap.mpd"), "--json")
        #expect(result.status == 1, "\(result)")
        let object = try result.json()
        #expect(object["valid"] as? Bool == false)
        let finding = try #require(
            (object["findings"] as? [[String: Any]])?.first { $0["rule"] as? String == "period-continuity" })
        #expect(finding["path"] as? String == "MPD/Period[2]")
        #expect((finding["message"] as? String)?.contains("a gap") == true, "\(finding)")
    }

    @Test func anMPDThatCannotBeReadExitsTwoSayingWhere() async throws {
        let workspace = try Workspace()
        try workspace.write(
            "bad.mpd",
            #"<MPD><Period><AdaptationSet><Representation id="v" bandwidth="lots"/></AdaptationSet></Period></MPD>"#)
        let result = try await workspace.seam("validate", workspace.path("bad.mpd"))
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stdout.contains("[mpd-read] MPD/Period[1]/AdaptationSet[1]/Representation[1]: bandwidth=\"lots\""),
            "\(result)")
        try workspace.write("entity.mpd", "<!DOCTYPE MPD [<!ENTITY x \"y\">]><MPD/>")
        let hostile = try await workspace.seam("validate", workspace.path("entity.mpd"))
        #expect(hostile.status == 2, "\(hostile)")
        #expect(hostile.stdout.contains("document type declaration"), "\(hostile)")
    }
}
