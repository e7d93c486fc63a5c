import Testing
@testable import HLS

// The MUST (and some SHOULD) rules of draft-pantos-hls-rfc8216bis that `seam validate` used to let
// through (issue 25, item 8). Each test names its rule id and quotes the draft's sentence; it
// plants the fault in a small playlist, asserts the finding's rule, line, severity and a message
// naming the tag or attribute to change, then checks the playlist without the fault is clean.
// Line numbers count from `#EXTM3U` on line 1. The draft quoted is revision 22.

/// Validates `text` and checks that it gives `rule` on `line` as a warning only: the playlist
/// stays valid and nothing else is reported.
@discardableResult
private func expectWarning(
    _ text: String,
    _ rule: PlaylistRule,
    line: Int?,
    mentioning words: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) -> ValidationReport {
    let report = PlaylistValidator.validate(text)
    let dump = report.diagnostics.map(\.description).joined(separator: "\n")
    #expect(report.isValid, "a warning should leave the playlist valid; got:\n\(dump)", sourceLocation: sourceLocation)
    let matching = report.warnings.filter { $0.rule == rule && $0.line == line }
    #expect(
        !matching.isEmpty, "no \(rule.rawValue) warning on line \(line.map(String.init) ?? "nil"); got:\n\(dump)",
        sourceLocation: sourceLocation)
    for word in words {
        #expect(
            matching.contains { $0.message.contains(word) },
            "the \(rule.rawValue) message should mention \"\(word)\"; got:\n\(dump)", sourceLocation: sourceLocation)
    }
    #expect(
        report.diagnostics.count == matching.count, "unexpected findings besides \(rule.rawValue):\n\(dump)",
        sourceLocation: sourceLocation)
    return report
}

/// A tag the draft allows once, in a playlist that is clean with it once.
struct OnceOnlyCase: Sendable, CustomTestStringConvertible {
    var tag: String
    /// The draft's sentence.
    var rule: String
    var lines: [String]
    /// Index in `lines` of the tag to repeat (its 1-based line is `index + 1`).
    var index: Int

    var testDescription: String { "\(tag) twice" }

    var once: String { lines.joined(separator: "\n") + "\n" }
    var twice: String {
        var repeated = lines
        repeated.insert(lines[index], at: index + 1)
        return repeated.joined(separator: "\n") + "\n"
    }
}

private let vod = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:10", "#EXTINF:10,", "a.ts", "#EXT-X-ENDLIST"]
private let lowLatency = [
    "#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0",
    "#EXT-X-PART-INF:PART-TARGET=1.0", "#EXT-X-MEDIA-SEQUENCE:10", "#EXTINF:4,", "s10.ts",
    "#EXT-X-PART:DURATION=1.0,URI=\"s11.p0.ts\"",
]
private let multivariant = ["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=800000", "v.m3u8"]

@Suite("Strict checks: the draft's MUST rules, each quoted")
struct DraftRuleTests {
    // MARK: Tags allowed once

    static let onceOnly: [OnceOnlyCase] = [
        OnceOnlyCase(
            tag: "EXT-X-VERSION", rule: "4.4.1.2: A Playlist file MUST NOT contain more than one EXT-X-VERSION tag.",
            lines: vod, index: 1),
        OnceOnlyCase(
            tag: "EXT-X-INDEPENDENT-SEGMENTS", rule: "4.4.2.1: This tag MUST NOT appear more than once in a Playlist",
            lines: ["#EXTM3U", "#EXT-X-INDEPENDENT-SEGMENTS"] + vod.dropFirst(), index: 1),
        OnceOnlyCase(
            tag: "EXT-X-START", rule: "4.4.2.2: This tag MUST NOT appear more than once in a Playlist",
            lines: ["#EXTM3U", "#EXT-X-START:TIME-OFFSET=0"] + vod.dropFirst(), index: 1),
        OnceOnlyCase(
            tag: "EXT-X-TARGETDURATION",
            rule: "4.4.3: There MUST NOT be more than one Media Playlist tag of each type in any Media Playlist.",
            lines: vod, index: 2),
        OnceOnlyCase(
            tag: "EXT-X-MEDIA-SEQUENCE", rule: "4.4.3 (as above)",
            lines: ["#EXTM3U", "#EXT-X-TARGETDURATION:10", "#EXT-X-MEDIA-SEQUENCE:4", "#EXTINF:10,", "a.ts"],
            index: 2),
        OnceOnlyCase(
            tag: "EXT-X-DISCONTINUITY-SEQUENCE", rule: "4.4.3 (as above)",
            lines: [
                "#EXTM3U", "#EXT-X-TARGETDURATION:10", "#EXT-X-MEDIA-SEQUENCE:4", "#EXT-X-DISCONTINUITY-SEQUENCE:1",
                "#EXTINF:10,", "a.ts",
            ], index: 3),
        OnceOnlyCase(tag: "EXT-X-ENDLIST", rule: "4.4.3 (as above)", lines: vod, index: 5),
        OnceOnlyCase(
            tag: "EXT-X-PLAYLIST-TYPE", rule: "4.4.3 (as above)",
            lines: ["#EXTM3U", "#EXT-X-PLAYLIST-TYPE:VOD"] + vod.dropFirst(), index: 1),
        OnceOnlyCase(
            tag: "EXT-X-I-FRAMES-ONLY", rule: "4.4.3 (as above)",
            lines: [
                "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:10", "#EXT-X-I-FRAMES-ONLY", "#EXTINF:10,",
                "a.ts",
            ],
            index: 3),
        OnceOnlyCase(tag: "EXT-X-SERVER-CONTROL", rule: "4.4.3 (as above)", lines: lowLatency, index: 2),
        OnceOnlyCase(tag: "EXT-X-PART-INF", rule: "4.4.3 (as above)", lines: lowLatency, index: 3),
        OnceOnlyCase(
            tag: "EXT-X-SKIP",
            rule: "4.4.5: The only exception to this rule is an EXT-X-SKIP, which MUST NOT appear more than once.",
            lines: [
                "#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:6", "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36",
                "#EXT-X-MEDIA-SEQUENCE:100", "#EXT-X-SKIP:SKIPPED-SEGMENTS=10", "#EXTINF:6,", "seg110.ts",
            ], index: 5),
        OnceOnlyCase(
            tag: "EXT-X-VERSION (multivariant)", rule: "4.4.1.2 (as above)",
            lines: ["#EXTM3U", "#EXT-X-VERSION:3"] + multivariant.dropFirst(), index: 1),
        OnceOnlyCase(
            tag: "EXT-X-INDEPENDENT-SEGMENTS (multivariant)",
            rule: "4.4.2: Tags in this section MUST NOT appear more than once in a Playlist.",
            lines: ["#EXTM3U", "#EXT-X-INDEPENDENT-SEGMENTS"] + multivariant.dropFirst(), index: 1),
        OnceOnlyCase(
            tag: "EXT-X-START (multivariant)", rule: "4.4.2 (as above)",
            lines: ["#EXTM3U", "#EXT-X-START:TIME-OFFSET=-12"] + multivariant.dropFirst(), index: 1),
        OnceOnlyCase(
            tag: "EXT-X-CONTENT-STEERING",
            rule: "4.4.6.6: It MUST NOT appear more than once in a Multivariant Playlist.",
            lines: ["#EXTM3U", "#EXT-X-CONTENT-STEERING:SERVER-URI=\"https://steer.example/m.json\""]
                + multivariant.dropFirst(), index: 1),
    ]

    @Test("duplicate-tag: a tag the draft allows once appears twice", arguments: onceOnly)
    func duplicateTag(_ c: OnceOnlyCase) {
        let tag = c.tag.split(separator: " ").first.map(String.init) ?? c.tag
        expectError(
            c.twice, .duplicateTag, line: c.index + 2,
            mentioning: ["#\(tag)", "first on line \(c.index + 1)", "keep one"])
        expectClean(c.once)
    }

    @Test(
        "duplicate-tag: not EXT-X-DEFINE (4.4.2: \"The only exception to this rule is EXT-X-DEFINE, which MAY appear more than once.\")"
    )
    func defineMayRepeat() {
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-DEFINE:NAME=\"host\",VALUE=\"cdn.example\"",
                "#EXT-X-DEFINE:NAME=\"path\",VALUE=\"v1\"",
                "#EXTINF:10,",
                "https://{$host}/{$path}/a.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    // MARK: EXT-X-VERSION (section 8)

    static let versionCases: [ValidatorRuleTests.VersionCase] = [
        // "A Playlist MUST indicate an EXT-X-VERSION of 10 or higher if it contains: An EXT-X-SKIP tag
        // that replaces EXT-X-DATERANGE tags in a Playlist Delta Update."
        ValidatorRuleTests.VersionCase(
            feature: "SKIP of date ranges", required: 10, mentions: ["RECENTLY-REMOVED-DATERANGES", "(line 6)"],
            versionLine: 2
        ) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:6",
                "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36,CAN-SKIP-DATERANGES=YES",
                "#EXT-X-MEDIA-SEQUENCE:100",
                "#EXT-X-SKIP:SKIPPED-SEGMENTS=10,RECENTLY-REMOVED-DATERANGES=\"\"",
                "#EXTINF:6,",
                "seg110.ts"
            )
        },
        // "A Playlist MUST indicate an EXT-X-VERSION of 11 or higher if it contains: An EXT-X-DEFINE
        // tag with a QUERYPARAM attribute."
        ValidatorRuleTests.VersionCase(
            feature: "QUERYPARAM", required: 11, mentions: ["QUERYPARAM", "(line 4)"], versionLine: 2
        ) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-DEFINE:QUERYPARAM=\"token\"",
                "#EXTINF:10,",
                "a.ts?t={$token}",
                "#EXT-X-ENDLIST"
            )
        },
        ValidatorRuleTests.VersionCase(
            feature: "QUERYPARAM (multivariant)", required: 11, mentions: ["QUERYPARAM"], versionLine: 2
        ) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-DEFINE:QUERYPARAM=\"token\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000",
                "v.m3u8?t={$token}"
            )
        },
        // "A Playlist MUST indicate an EXT-X-VERSION of 12 or higher if it contains: An attribute
        // whose name starts with "REQ-"."
        ValidatorRuleTests.VersionCase(
            feature: "REQ-VIDEO-LAYOUT", required: 12, mentions: ["REQ-VIDEO-LAYOUT", "(line 3)"], versionLine: 2
        ) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,REQ-VIDEO-LAYOUT=\"CH-STEREO,CH-MONO\"",
                "v.m3u8"
            )
        },
        // "A Playlist MUST indicate an EXT-X-VERSION of 13 or higher if it contains: An EXT-X-MEDIA
        // tag with INSTREAM-ID attribute for non CLOSED-CAPTIONS TYPE."
        ValidatorRuleTests.VersionCase(
            feature: "INSTREAM-ID on AUDIO", required: 13, mentions: ["INSTREAM-ID", "TYPE=AUDIO", "(line 3)"],
            versionLine: 2
        ) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",INSTREAM-ID=\"1\",URI=\"en.m3u8\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO=\"a\"",
                "v.m3u8"
            )
        },
    ]

    @Test("version-too-low: the features of versions 10 to 13", arguments: versionCases)
    func versionTooLow(_ c: ValidatorRuleTests.VersionCase) {
        expectError(
            c.text(c.required - 1), .versionTooLow, line: c.versionLine,
            mentioning: c.mentions + ["#EXT-X-VERSION:\(c.required)", "declares \(c.required - 1)"])
        expectClean(c.text(c.required))
        expectClean(c.text(c.required + 1))
    }

    // MARK: Media playlist tags

    @Test("invalid-attribute-value: EXT-X-TARGETDURATION:0 (4.4.3.1: \"Its value MUST be at least 1.\")")
    func targetDurationAtLeastOne() {
        func text(_ target: Int) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:3",
                "#EXT-X-TARGETDURATION:\(target)",
                "#EXTINF:0.4,",
                "a.ts",
                "#EXT-X-ENDLIST"
            )
        }
        expectError(text(0), .invalidAttributeValue, line: 3, mentioning: ["#EXT-X-TARGETDURATION:0", "at least 1"])
        expectClean(text(1))
        // The proxy reads it all the same.
        #expect((try? MediaPlaylist(parsing: text(0)))?.targetDuration == 0)
    }

    @Test(
        "discontinuity-sequence-after-segments: after an EXT-X-DISCONTINUITY (4.4.3.3: \"The EXT-X-DISCONTINUITY-SEQUENCE tag MUST appear before any EXT-X-DISCONTINUITY tag.\")"
    )
    func discontinuitySequenceBeforeDiscontinuity() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:5",
                "#EXT-X-DISCONTINUITY",
                "#EXT-X-DISCONTINUITY-SEQUENCE:2",
                "#EXTINF:10,",
                "a.ts"
            ), .discontinuitySequenceAfterSegments, line: 5,
            mentioning: ["#EXT-X-DISCONTINUITY-SEQUENCE", "#EXT-X-DISCONTINUITY (line 4)", "move it up"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:5",
                "#EXT-X-DISCONTINUITY-SEQUENCE:2",
                "#EXT-X-DISCONTINUITY",
                "#EXTINF:10,",
                "a.ts"
            ))
    }

    @Test("invalid-attribute-value: EXT-X-KEY attributes the method rules out (4.4.4.4)")
    func keyAttributes() {
        func text(_ key: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:5",
                "#EXT-X-TARGETDURATION:10",
                key,
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-ENDLIST"
            )
        }
        // "If the encryption method is NONE, other attributes MUST NOT be present."
        expectError(
            text("#EXT-X-KEY:METHOD=NONE,KEYFORMAT=\"identity\""), .invalidAttributeValue, line: 4,
            mentioning: ["METHOD=NONE", "KEYFORMAT"])
        expectClean(text("#EXT-X-KEY:METHOD=NONE"))
        // SAMPLE-AES-CTR: "The IV attribute MUST NOT be present."
        expectError(
            text("#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI=\"skd://k\",IV=0x000102030405060708090A0B0C0D0E0F"),
            .invalidAttributeValue, line: 4, mentioning: ["METHOD=SAMPLE-AES-CTR", "IV"])
        expectClean(text("#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI=\"skd://k\""))
        // "If an EXT-X-KEY tag uses the AES-256-GCM encryption method then it MUST NOT have an IV
        // attribute." The method itself is one the draft defines ("Clients MAY additionally
        // support the SAMPLE-AES-CTR and the AES-256-GCM methods").
        expectError(
            text("#EXT-X-KEY:METHOD=AES-256-GCM,URI=\"https://k.example/1\",IV=0x000102030405060708090A0B0C0D0E0F"),
            .invalidAttributeValue, line: 4, mentioning: ["METHOD=AES-256-GCM", "IV"])
        expectClean(text("#EXT-X-KEY:METHOD=AES-256-GCM,URI=\"https://k.example/1\""))
    }

    @Test("invalid-attribute-value and missing-attribute: EXT-X-DEFINE names and values (4.4.2.3)")
    func defineForms() {
        func text(_ define: String, uri: String = "a.ts") -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-TARGETDURATION:10",
                define,
                "#EXTINF:10,",
                uri,
                "#EXT-X-ENDLIST"
            )
        }
        // NAME: "All characters in the quoted-string MUST be from the following set: [a-z], [A-Z],
        // [0-9], '-', and '_'."
        expectError(
            text("#EXT-X-DEFINE:NAME=\"cdn host\",VALUE=\"x\""), .invalidAttributeValue, line: 4,
            mentioning: ["NAME=\"cdn host\"", "a-z"])
        // VALUE: "This attribute is REQUIRED if the EXT-X-DEFINE tag has a NAME attribute. The
        // quoted-string MAY be empty."
        expectError(
            text("#EXT-X-DEFINE:NAME=\"host\""), .missingAttribute, line: 4, mentioning: ["NAME=\"host\"", "VALUE"])
        expectClean(text("#EXT-X-DEFINE:NAME=\"cdn_host-2\",VALUE=\"\"", uri: "a.ts?h={$cdn_host-2}"))
        // An IMPORT in a media playlist is what the draft means it for.
        expectClean(text("#EXT-X-DEFINE:IMPORT=\"token\"", uri: "a.ts?t={$token}"))
        // "EXT-X-DEFINE tags containing the IMPORT attribute MUST NOT occur in Multivariant Playlists"
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-DEFINE:IMPORT=\"token\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000",
                "v.m3u8?t={$token}"
            ), .invalidAttributeValue, line: 3, mentioning: ["IMPORT=\"token\"", "NAME and VALUE"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-DEFINE:NAME=\"token\",VALUE=\"abc\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000",
                "v.m3u8?t={$token}"
            ))
    }

    // MARK: Low latency

    /// A low-latency live playlist whose one segment has the parts `parts` (lines 6...), then
    /// `#EXTINF:4,` and `s10.ts`.
    static func withParts(_ parts: [String], holdBack: String = "3.0") -> String {
        ([
            "#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=\(holdBack)",
            "#EXT-X-PART-INF:PART-TARGET=1.0", "#EXT-X-MEDIA-SEQUENCE:10",
        ]
            + parts.enumerated().map { "#EXT-X-PART:DURATION=\($0.element),URI=\"s10.p\($0.offset).mp4\"" }
            + ["#EXTINF:4,", "s10.ts"]).joined(separator: "\n") + "\n"
    }

    @Test(
        "part-too-short: a part under 85% of PART-TARGET (4.4.4.9: \"The duration of each Partial Segment MUST be at least 85% of the Part Target Duration\")"
    )
    func partTooShort() {
        expectError(
            Self.withParts(["1.0", "0.5", "1.0", "1.0", "0.5"]), .partTooShort, line: 7,
            mentioning: ["DURATION=0.5", "85%", "PART-TARGET=1", "0.85"])
        expectClean(Self.withParts(["1.0", "0.85", "1.0", "1.0", "0.15"]))
        // "...with the exception of Partial Segments with the INDEPENDENT=YES or GAP=YES attribute,
        // Partial Segments that are immediately followed by a Partial Segment with a GAP=YES
        // attribute, and the final Partial Segment of any Parent Segment."
        expectClean(Self.withParts(["1.0", "0.5,INDEPENDENT=YES", "1.0", "1.0", "0.5"]))
        expectClean(Self.withParts(["1.0", "0.5", "1.0,GAP=YES", "1.0", "0.5"]))
        expectClean(Self.withParts(["1.0", "1.0", "0.5,GAP=YES", "1.0", "0.5"]))
    }

    @Test(
        "tag-after-part: EXT-X-PROGRAM-DATE-TIME or EXT-X-KEY after the first part of its segment (4.4.4.9: \"...so they MUST appear before the first EXT-X-PART tag of that Parent Segment.\")"
    )
    func tagAfterPart() {
        func text(_ tags: [String]) -> String {
            ([
                "#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0",
                "#EXT-X-PART-INF:PART-TARGET=1.0", "#EXT-X-MEDIA-SEQUENCE:10", "#EXTINF:4,", "s10.ts",
            ] + tags).joined(separator: "\n") + "\n"
        }
        let part0 = "#EXT-X-PART:DURATION=1.0,URI=\"s11.p0.mp4\""
        let part1 = "#EXT-X-PART:DURATION=1.0,URI=\"s11.p1.mp4\""
        let date = "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:44.000Z"
        let key = "#EXT-X-KEY:METHOD=AES-128,URI=\"https://k.example/2\""
        expectError(
            text([part0, date, part1]), .tagAfterPart, line: 9,
            mentioning: ["#EXT-X-PROGRAM-DATE-TIME", "first #EXT-X-PART is on line 8", "move it above line 8"])
        expectError(
            text([part0, part1, key, "#EXTINF:2,", "s11.ts"]), .tagAfterPart, line: 10,
            mentioning: ["#EXT-X-KEY", "line 8"])
        expectClean(text([date, part0, part1]))
        expectClean(text([key, part0, part1, "#EXTINF:2,", "s11.ts"]))
    }

    @Test(
        "llhls-incomplete (warning): PART-HOLD-BACK under three PART-TARGETs (4.4.3.8: \"Its value SHOULD be at least three times the Part Target Duration.\")"
    )
    func partHoldBackShould() {
        expectWarning(
            Self.withParts(["1.0", "1.0", "1.0", "1.0"], holdBack: "2.5"), .llhlsIncomplete, line: 3,
            mentioning: ["PART-HOLD-BACK=2.5", "three times PART-TARGET", "3"])
        // Under twice is the MUST ("Its value MUST be at least twice the Part Target Duration."):
        // an error, as before, and no second finding.
        expectError(
            Self.withParts(["1.0", "1.0", "1.0", "1.0"], holdBack: "1.5"), .llhlsIncomplete, line: 3,
            mentioning: ["PART-HOLD-BACK", "twice"])
        expectClean(Self.withParts(["1.0", "1.0", "1.0", "1.0"], holdBack: "3.0"))
    }

    @Test(
        "invalid-attribute-value: HOLD-BACK under three target durations (4.4.3.8: \"Its value MUST be at least three times the Target Duration.\")"
    )
    func holdBack() {
        func text(_ holdBack: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-SERVER-CONTROL:HOLD-BACK=\(holdBack)",
                "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXTINF:4,",
                "s10.ts"
            )
        }
        // Checked before this suite; tested here with the draft's words.
        expectError(text("8"), .invalidAttributeValue, line: 3, mentioning: ["HOLD-BACK", "three times", "12"])
        expectClean(text("12"))
    }

    @Test(
        "missing-attribute: CAN-SKIP-DATERANGES without CAN-SKIP-UNTIL (4.4.3.8: \"It REQUIRES the presence of the CAN-SKIP-UNTIL attribute.\")"
    )
    func canSkipDateRanges() {
        func text(_ control: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:9",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-SERVER-CONTROL:\(control)",
                "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXTINF:4,",
                "s10.ts"
            )
        }
        expectError(
            text("CAN-BLOCK-RELOAD=YES,CAN-SKIP-DATERANGES=YES"), .missingAttribute, line: 4,
            mentioning: ["CAN-SKIP-DATERANGES", "CAN-SKIP-UNTIL"])
        expectClean(text("CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES"))
    }

    @Test(
        "invalid-attribute-value: an absolute EXT-X-RENDITION-REPORT URI (4.4.5.4: \"It MUST be relative to the URI of the Media Playlist containing the EXT-X-RENDITION-REPORT tag.\")"
    )
    func renditionReportRelative() {
        func text(_ uri: String) -> String {
            (lowLatency + [
                "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s11.p1.ts\"",
                "#EXT-X-RENDITION-REPORT:URI=\"../1M/live.m3u8\",LAST-MSN=11,LAST-PART=0",
                "#EXT-X-RENDITION-REPORT:URI=\"\(uri)\",LAST-MSN=11,LAST-PART=0",
            ]).joined(separator: "\n") + "\n"
        }
        expectError(
            text("https://cdn.example/4M/live.m3u8"), .invalidAttributeValue, line: 11,
            mentioning: ["#EXT-X-RENDITION-REPORT", "https://cdn.example/4M/live.m3u8", "relative"])
        expectClean(text("../4M/live.m3u8"))
    }

    @Test(
        "duplicate-tag (warning): two EXT-X-PRELOAD-HINT of one TYPE (6.2.6: \"The Server SHOULD NOT add more than one EXT-X-PRELOAD-HINT tag with the same TYPE to a Playlist.\")"
    )
    func preloadHintPerType() {
        func text(_ second: String) -> String {
            (lowLatency + ["#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s11.p1.ts\"", second]).joined(separator: "\n") + "\n"
        }
        expectWarning(
            text("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s11.p2.ts\""), .duplicateTag, line: 10,
            mentioning: ["#EXT-X-PRELOAD-HINT", "TYPE=PART", "line 9"])
        expectClean(text("#EXT-X-PRELOAD-HINT:TYPE=MAP,URI=\"init2.mp4\""))
    }

    // MARK: Multivariant playlists

    @Test(
        "missing-attribute: EXT-X-STREAM-INF without BANDWIDTH (4.4.6.2: \"Every EXT-X-STREAM-INF tag MUST include the BANDWIDTH attribute.\")"
    )
    func bandwidthRequired() {
        expectError(
            playlist("#EXTM3U", "#EXT-X-STREAM-INF:CODECS=\"avc1.4d401e,mp4a.40.2\"", "v.m3u8"), .missingAttribute,
            line: 2, mentioning: ["#EXT-X-STREAM-INF", "BANDWIDTH"])
        expectClean(
            playlist("#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\"", "v.m3u8"))
    }

    @Test(
        "mixed-playlist-kinds: a media segment tag in a multivariant playlist (4.4.4: \"Clients MUST fail to parse Playlists that contain both Media Segment tags and Multivariant Playlist tags\")"
    )
    func mediaSegmentTagInMultivariant() {
        expectError(
            playlist("#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=800000", "v.m3u8", "#EXT-X-DISCONTINUITY"),
            .mixedPlaylistKinds, line: 4, mentioning: ["#EXT-X-DISCONTINUITY", "media playlist"])
        expectClean(playlist("#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=800000", "v.m3u8"))
    }

    /// A multivariant playlist with the `EXT-X-MEDIA` (or other) lines `media` from line 3.
    static func master(_ media: String..., version: Int = 7) -> String {
        (["#EXTM3U", "#EXT-X-VERSION:\(version)"] + media + ["#EXT-X-STREAM-INF:BANDWIDTH=800000", "v.m3u8"])
            .joined(separator: "\n") + "\n"
    }

    @Test("invalid-attribute-value (warning): EXT-X-MEDIA attributes only an audio rendition may carry (4.4.6.1)")
    func audioOnlyAttributes() {
        // "The BIT-DEPTH attribute MUST NOT be present unless the TYPE is AUDIO." Likewise
        // SAMPLE-RATE, and "The CHANNELS attribute MUST NOT be present unless the TYPE is AUDIO."
        // A warning: players ignore them elsewhere, and real packagers write CHANNELS on subtitles
        // (the hls-splice vectors in the corpus), so the finding must not fail those playlists.
        for attribute in ["BIT-DEPTH=24", "SAMPLE-RATE=48000", "CHANNELS=\"2\""] {
            let name = String(attribute.prefix { $0 != "=" })
            expectWarning(
                Self.master(#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",URI="s.m3u8","# + attribute),
                .invalidAttributeValue, line: 3, mentioning: [name, "TYPE=AUDIO", "TYPE=SUBTITLES", "remove it"])
            expectClean(Self.master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="a.m3u8","# + attribute))
        }
    }

    @Test("invalid-attribute-value: INSTREAM-ID values and STABLE-RENDITION-ID characters (4.4.6.1)")
    func renditionIdentifiers() {
        // CLOSED-CAPTIONS: "it MUST have one of the values: "CC1", "CC2", "CC3", "CC4", or
        // "SERVICEn" where n MUST be an integer between 1 and 63"
        for bad in ["CC5", "SERVICE0", "SERVICE64", "SERVICE07", "cc1"] {
            expectError(
                Self.master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en",INSTREAM-ID="\#(bad)""#),
                .invalidAttributeValue, line: 3, mentioning: ["INSTREAM-ID=\"\(bad)\"", "SERVICE63"])
        }
        for good in ["CC1", "CC4", "SERVICE1", "SERVICE63"] {
            expectClean(
                Self.master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en",INSTREAM-ID="\#(good)""#))
        }
        // Other types: "The value is a string containing characters from the set [A-Z], [a-z],
        // [0-9], and '.'."
        expectError(
            Self.master(
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",INSTREAM-ID="track 2",URI="a.m3u8""#, version: 13),
            .invalidAttributeValue, line: 3, mentioning: ["INSTREAM-ID=\"track 2\"", "'.'"])
        // STABLE-RENDITION-ID: "All characters in the quoted-string MUST be from the following set:
        // [a-z], [A-Z], [0-9], '+', '/', '=', '.', '-', and '_'."
        expectError(
            Self.master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",STABLE-RENDITION-ID="en 1",URI="a.m3u8""#),
            .invalidAttributeValue, line: 3, mentioning: ["STABLE-RENDITION-ID=\"en 1\""])
        expectClean(
            Self.master(
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",STABLE-RENDITION-ID="Audio-37262",URI="a.m3u8""#))
    }

    @Test("invalid-attribute-value: EXT-X-SESSION-KEY (4.4.6.5)")
    func sessionKeys() {
        // "...except that the value of the METHOD attribute MUST NOT be NONE."
        expectError(
            Self.master("#EXT-X-SESSION-KEY:METHOD=NONE"), .invalidAttributeValue, line: 3,
            mentioning: ["#EXT-X-SESSION-KEY", "METHOD=NONE"])
        // "A Multivariant Playlist MUST NOT contain more than one EXT-X-SESSION-KEY tag with the
        // same METHOD, URI, IV, KEYFORMAT, and KEYFORMATVERSIONS attribute values."
        let key = #"#EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://k.example/1""#
        expectError(
            Self.master(key, key), .invalidAttributeValue, line: 4,
            mentioning: ["#EXT-X-SESSION-KEY", "line 3", "remove one"])
        expectClean(Self.master(key, #"#EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://k.example/2""#))
    }

    @Test("invalid-attribute-value and missing-attribute (warning): SCORE (4.4.6.2)")
    func score() {
        // "The value is a positive decimal-floating-point number."
        for bad in ["0", "-1.5", "\"2\""] {
            expectError(
                playlist("#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=800000,SCORE=\(bad)", "v.m3u8"),
                .invalidAttributeValue, line: 2, mentioning: ["SCORE=\(bad)", "positive"])
        }
        // "The SCORE attribute is OPTIONAL, but if any Variant Stream contains the SCORE attribute,
        // then all Variant Streams in the Multivariant Playlist SHOULD have a SCORE attribute."
        expectWarning(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,SCORE=1.5",
                "low.m3u8",
                "#EXT-X-STREAM-INF:BANDWIDTH=1600000",
                "high.m3u8"
            ), .missingAttribute, line: 4, mentioning: ["SCORE"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,SCORE=1.5",
                "low.m3u8",
                "#EXT-X-STREAM-INF:BANDWIDTH=1600000,SCORE=2",
                "high.m3u8"
            ))
    }

    @Test(
        "invalid-attribute-value: an empty REQ-VIDEO-LAYOUT entry (4.4.6.2: \"A REQ-VIDEO-LAYOUT attribute MUST NOT be empty, and each View Presentation Entry MUST NOT be empty.\")"
    )
    func requiredVideoLayout() {
        func text(_ layout: String) -> String {
            playlist(
                "#EXTM3U", "#EXT-X-VERSION:12", "#EXT-X-STREAM-INF:BANDWIDTH=800000,REQ-VIDEO-LAYOUT=\"\(layout)\"",
                "v.m3u8")
        }
        expectError(text("CH-STEREO,"), .invalidAttributeValue, line: 3, mentioning: ["REQ-VIDEO-LAYOUT", "empty"])
        expectClean(text("CH-STEREO,CH-MONO"))
    }
}
