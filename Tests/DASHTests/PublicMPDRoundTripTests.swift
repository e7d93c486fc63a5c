import Foundation
import Testing
@testable import DASH

/// MPDs that public packagers and players test with (`Resources/public`, where each came from is in
/// its README.md): each is read, written and read again, and keeps its XML tree, what Seam reads
/// from it and what the validator finds in it; the two Seam refuses are refused for their reason.
@Suite struct PublicMPDRoundTripTests {
    /// Every `.mpd` in `Resources/public`, by name without the extension.
    static let files: [String] = {
        // The folder its README is found in (the one-file look-up the other suites use), listed.
        var urls: [URL] = []
        if let folder = Bundle.module.url(forResource: "README", withExtension: "md", subdirectory: "Resources/public")?
            .deletingLastPathComponent()
        {
            urls = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        }
        return urls.filter { $0.pathExtension == "mpd" }.map { $0.deletingPathExtension().lastPathComponent }.sorted()
    }()

    /// The files Seam refuses to read as an MPD (their XML still reads and round-trips), with the error.
    static let refused: [String: DASHParseError] = [
        // `PT1M00s`: xs:duration's designators are upper case, so this is no duration (dash.js reads
        // it case-insensitively). Seam refuses a presentation it cannot time rather than guess.
        "dashjs-manifest-insert": .invalidMPD(
            path: "MPD", reason: "mediaPresentationDuration=\"PT1M00s\" is not an xs:duration such as PT30S"),
        // The Representation has no bandwidth, which the MPD schema requires (the ExoPlayer fixture
        // only tests the live window's timing, and ExoPlayer reads a missing bandwidth as unknown).
        "androidx-media-sample_mpd_live_with_time_shift_buffer_16_secs": .invalidMPD(
            path: "MPD/Period[1]/AdaptationSet[1]/Representation[1]",
            reason: "bandwidth=\"\" is not a whole number of bits per second"),
    ]

    static let readable = files.filter { refused[$0] == nil }

    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "mpd", subdirectory: "Resources/public"))
        return Array(try Data(contentsOf: url))
    }

    static func mpd(_ name: String) throws -> MPD {
        try MPD(parsing: try bytes(name))
    }

    /// What Seam reads from an MPD, a line per element: the presentation, each period, adaptation
    /// set and representation, and the first five segment URLs of each templated representation.
    static func meaning(of mpd: MPD) -> [String] {
        var lines = ["MPD dynamic=\(mpd.isDynamic) duration=\(shown(mpd.mediaPresentationDuration))"]
        for (index, period) in mpd.periods.enumerated() {
            let events = period.eventStreams.map { "\($0.schemeIdUri ?? "-") x\($0.events.count)" }
            lines.append(
                "\(period.path) id=\(shown(period.id)) start=\(shown(period.start)) "
                    + "duration=\(shown(period.duration)) events=\(events)")
            for set in period.adaptationSets {
                lines.append(
                    "\(set.path) \(shown(set.contentType)) codecs=\(shown(set.codecs)) lang=\(shown(set.lang)) "
                        + "roles=\(set.roles) protected=\(set.isProtected)")
                for representation in set.representations {
                    lines.append(
                        "\(representation.path) id=\(shown(representation.id)) "
                            + "bandwidth=\(shown(representation.bandwidth)) codecs=\(shown(representation.codecs)) "
                            + "base=\(representation.hasSegmentBase) list=\(representation.hasSegmentList) "
                            + "segments=\(firstURLs(representation, of: mpd, period: index))")
                }
            }
        }
        return lines
    }

    static func shown<Value>(_ value: Value?) -> String { value.map { "\($0)" } ?? "-" }

    /// The first five segment URLs of a templated representation (none for `SegmentBase` or `SegmentList`).
    static func firstURLs(_ representation: Representation, of mpd: MPD, period index: Int) -> [String] {
        guard let template = representation.segmentTemplate else { return [] }
        let segments = template.segments(
            representationID: representation.id ?? "", bandwidth: representation.bandwidth,
            periodDuration: periodLength(mpd, index))
        return segments.prefix(5).map(\.url)
    }

    /// A period's length: its duration, else up to the next period's start or the presentation's end.
    static func periodLength(_ mpd: MPD, _ index: Int) -> Double? {
        let periods = mpd.periods
        if let duration = periods[index].duration { return duration }
        let end = index + 1 < periods.count ? periods[index + 1].start : mpd.mediaPresentationDuration
        return end.map { $0 - (periods[index].start ?? 0) }
    }

    @Test func thePublicMPDsAreBundled() {
        #expect(Self.files.count >= 12, "\(Self.files)")
        #expect(Set(Self.refused.keys).isSubset(of: Set(Self.files)))
    }

    @Test(arguments: files)
    func theXMLTreeSurvivesWriteAndRead(_ name: String) throws {
        let document = try XMLReader().read(try Self.bytes(name))
        let written = XMLWriter.write(document)
        let again = try XMLReader().read(written)
        #expect(again == document, "\(name): the tree changed through write and read")
        #expect(XMLWriter.write(again) == written, "\(name): writing is not stable")
    }

    @Test(arguments: files)
    func eachIsReadOrRefusedForItsReason(_ name: String) throws {
        let bytes = try Self.bytes(name)
        if let refusal = Self.refused[name] {
            #expect(throws: refusal) { try MPD(parsing: bytes) }
        } else {
            _ = try MPD(parsing: bytes)
        }
    }

    @Test(arguments: readable)
    func whatSeamReadsAndFindsIsTheSameAfterARoundTrip(_ name: String) throws {
        let mpd = try Self.mpd(name)
        let again = try MPD(parsing: mpd.serialized())
        #expect(again.document == mpd.document)
        #expect(Self.meaning(of: again) == Self.meaning(of: mpd))
        #expect(MPDValidator.check(again) == MPDValidator.check(mpd))
    }

    static let templated: [(String, Int, [String])] = [
        (
            "shaka-packager-bear-640x360-av-live-cenc-golden", 0,
            ["output_video-1.m4s", "output_video-2.m4s", "output_video-3.m4s"]
        ),
        ("shaka-packager-bear-640x360-av-live-static-ad_cues-golden", 1, ["output_video-3.m4s"]),
        (
            "dashjs-enc-unenc", 1,
            [
                "BBB_720_1M_video_1.mp4", "BBB_720_1M_video_2.mp4", "BBB_720_1M_video_3.mp4", "BBB_720_1M_video_4.mp4",
                "BBB_720_1M_video_5.mp4",
            ]
        ),
        ("dashjs-laurl", 0, ["1/0001.m4s", "1/0002.m4s", "1/0003.m4s", "1/0004.m4s", "1/0005.m4s"]),
        ("dashjs-video_gap_at_start_timeline", 0, ["v1_2.m4s", "v1_3.m4s", "v1_4.m4s", "v1_5.m4s", "v1_6.m4s"]),
        (
            "dashjs-DynamicManifest", 0,
            ["video1/0.m4s", "video1/1.m4s", "video1/2.m4s", "video1/3.m4s", "video1/4.m4s"]
        ),
        ("androidx-media-sample_mpd_event_stream", 0, ["sq/0", "sq/1", "sq/2"]),
    ]

    /// A period's first representation addresses the segments its packager numbered, through the
    /// template inherited from its period or adaptation set or its own.
    @Test(arguments: templated)
    func templatesAddressTheSegmentsTheirPackagerWrote(_ name: String, _ period: Int, _ urls: [String]) throws {
        let mpd = try Self.mpd(name)
        let representation = try #require(mpd.periods[period].adaptationSets.first?.representations.first)
        #expect(Self.firstURLs(representation, of: mpd, period: period) == urls)
    }

    @Test func segmentBaseAndSegmentListAreSeenAsSuch() throws {
        let onDemand = try Self.mpd("shaka-packager-bear-640x360-av-cenc-golden").periods[0].adaptationSets
        #expect(onDemand.flatMap(\.representations).allSatisfy { $0.hasSegmentBase && $0.segmentTemplate == nil })
        let listed = try Self.mpd("go-dash-segment_list").periods[0].adaptationSets
        #expect(listed.flatMap(\.representations).allSatisfy { $0.hasSegmentList && $0.segmentTemplate == nil })
    }

    @Test func eventStreamsKeepTheirPayloads() throws {
        let streams = try Self.mpd("androidx-media-sample_mpd_event_stream").periods[0].eventStreams
        #expect(streams.count == 5)
        #expect(streams[0].events.first?.element[attribute: "messageData"] == "+ 1 800 10101010")
        // A CDATA section, and SCTE-35 under a prefix the MPD never declares.
        #expect(streams[2].events.first?.element.text.hasPrefix("<BroadcastEvent>") == true)
        let binary = streams[3].events.first?.element.elements(named: "Signal").first?.elements(named: "Binary").first
        #expect(binary?.text.contains("/DAIAAAAAAAAAAAQAAZ/I0VniQAQAgBDVUVJQAAAAH+cAAAAAA==") == true)
    }

    @Test func theValidatorFindsWhatTheSourcesGetWrong() throws {
        // shaka-player's car manifest gives two video representations the id "5".
        let car = MPDValidator.check(try Self.mpd("shaka-player-car-20120827-manifest"))
        #expect(car.map(\.rule) == [.representationIDs], "\(car)")
        // shaka-packager's live golden names no period.
        let live = MPDValidator.check(try Self.mpd("shaka-packager-bear-640x360-av-live-cenc-golden"))
        #expect(live.map(\.rule) == [.periodIDs], "\(live)")
        // dash.js's gap fixture: the video starts 6 s into its period (it tests players' gap jumping).
        let gap = MPDValidator.check(try Self.mpd("dashjs-video_gap_at_start_timeline"))
        #expect(
            gap.contains { $0.rule == .segmentCoverage && $0.message.contains("first segment starts PT6S") }, "\(gap)")
    }

    @Test func protectionOnRepresentationsAndRolesInAnyCase() throws {
        // shaka-packager writes ContentProtection inside each Representation.
        let sets = try Self.mpd("shaka-packager-bear-640x360-av-cenc-golden").periods[0].adaptationSets
        #expect(sets.allSatisfy { $0.isProtected })
        // androidx/media writes the role scheme as urn:mpeg:DASH:role:2011.
        let roles = try Self.mpd("androidx-media-sample_mpd_event_stream").periods[0].adaptationSets.map(\.roles)
        #expect(roles.contains(["main"]), "\(roles)")
    }
}
