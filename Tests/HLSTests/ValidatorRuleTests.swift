import Testing
@testable import HLS

// One test per rule the strict check (`PlaylistValidator`, `seam validate`) knows for a
// single playlist. Each plants the fault in a small inline playlist, asserts the rule id,
// the exact line number, severity error and a message a user can act on (it names the tag
// or the number involved), then checks that the fixed playlist passes.
//
// Line numbers are 1-based and counted in the literals below: line 1 is always `#EXTM3U`.

// MARK: Helpers

/// The playlist text with LF endings (multi-line literals already have them; this keeps a final newline).
func playlist(_ lines: String...) -> String {
    lines.joined(separator: "\n") + "\n"
}

/// Validates `text` and checks that it breaks `rule` on `line` with an error whose message
/// contains every string in `mentioning`. Unless `alsoAllowed` says otherwise, no other
/// rule may fire: a planted fault should give exactly the finding it was planted for.
@discardableResult
func expectError(
    _ text: String,
    _ rule: PlaylistRule,
    line: Int?,
    mentioning words: [String],
    alsoAllowed: Set<PlaylistRule> = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> ValidationReport {
    let report = PlaylistValidator.validate(text)
    let dump = report.diagnostics.map(\.description).joined(separator: "\n")
    #expect(!report.isValid, "expected \(rule.rawValue) but the playlist passed", sourceLocation: sourceLocation)
    let matching = report.diagnostics.filter { $0.rule == rule && $0.line == line }
    #expect(
        !matching.isEmpty, "no \(rule.rawValue) on line \(line.map(String.init) ?? "nil"); got:\n\(dump)",
        sourceLocation: sourceLocation)
    for finding in matching {
        #expect(finding.severity == .error, "\(finding) should be an error", sourceLocation: sourceLocation)
    }
    if !matching.isEmpty {
        for word in words {
            #expect(
                matching.contains { $0.message.contains(word) },
                "the \(rule.rawValue) message should mention \"\(word)\"; got:\n\(dump)", sourceLocation: sourceLocation
            )
        }
    }
    let unexpected = report.diagnostics.filter { $0.rule != rule && !alsoAllowed.contains($0.rule) }
    #expect(
        unexpected.isEmpty, "unexpected findings besides \(rule.rawValue):\n\(dump)", sourceLocation: sourceLocation)
    // The description is what `seam validate` prints: line number first, rule id last.
    if let first = matching.first, let line {
        #expect(first.description.hasPrefix("\(line): error: "), sourceLocation: sourceLocation)
        #expect(first.description.hasSuffix("[\(rule.rawValue)]"), sourceLocation: sourceLocation)
    }
    return report
}

/// The fixed playlist passes: valid, and without even a warning.
func expectClean(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let report = PlaylistValidator.validate(text)
    let dump = report.diagnostics.map(\.description).joined(separator: "\n")
    #expect(report.isValid, "the fixed playlist should pass; got:\n\(dump)", sourceLocation: sourceLocation)
    #expect(
        report.diagnostics.isEmpty, "the fixed playlist should have no findings; got:\n\(dump)",
        sourceLocation: sourceLocation)
    #expect(report.playlist != nil, sourceLocation: sourceLocation)
}

// MARK: Syntax

@Suite("Strict checks, one rule each")
struct ValidatorRuleTests {
    @Test("malformed-tag: #EXTINF duration that is not a number")
    func malformedTag() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:ten,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ), .malformedTag, line: 3, mentioning: ["#EXTINF", "\"ten\""])
        // An EXTINF without its comma is malformed too (RFC 8216bis 4.4.4.1: #EXTINF:<duration>,[<title>]).
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXTINF:10",
                "seg1.ts",
                "#EXT-X-ENDLIST"
            ), .malformedTag, line: 5, mentioning: ["#EXTINF", "comma"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXTINF:10,",
                "seg1.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("malformed-attribute: attribute without a value")
    func malformedAttribute() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z",
                "#EXT-X-DATERANGE:ID=\"ad-1\",START-DATE=\"2024-05-01T10:00:00Z\",DURATION",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ), .malformedAttribute, line: 4, mentioning: ["#EXT-X-DATERANGE", "DURATION"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z",
                "#EXT-X-DATERANGE:ID=\"ad-1\",START-DATE=\"2024-05-01T10:00:00Z\",DURATION=30",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("missing-attribute: #EXT-X-START without TIME-OFFSET")
    func missingAttribute() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-START:PRECISE=YES",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ), .missingAttribute, line: 3, mentioning: ["#EXT-X-START", "TIME-OFFSET"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-START:TIME-OFFSET=0,PRECISE=YES",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("invalid-attribute-value: unknown #EXT-X-KEY METHOD, bad RESOLUTION")
    func invalidAttributeValue() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-KEY:METHOD=AES-256,URI=\"https://keys.example/k1\"",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ), .invalidAttributeValue, line: 3, mentioning: ["#EXT-X-KEY", "AES-256"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example/k1\"",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ))
        // The same rule in a multivariant playlist.
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=1280by720",
                "720p.m3u8"
            ), .invalidAttributeValue, line: 2, mentioning: ["RESOLUTION", "1280by720"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=1280x720",
                "720p.m3u8"
            ))
    }

    @Test("uri-without-extinf: a segment URI with no #EXTINF before it")
    func uriWithoutExtinf() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "seg0.ts",
                "seg1.ts",
                "#EXT-X-ENDLIST"
            ), .uriWithoutExtinf, line: 5, mentioning: ["seg1.ts", "#EXTINF"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXTINF:10,",
                "seg1.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("truncated: the playlist ends after #EXTINF")
    func truncated() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXTINF:10,"
            ), .truncated, line: 5, mentioning: ["#EXTINF", "truncated"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXTINF:10,",
                "seg1.ts"
            ))
    }

    // MARK: Media playlist semantics

    @Test("missing-target-duration: reported on line 1")
    func missingTargetDuration() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:3",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ), .missingTargetDuration, line: 1, mentioning: ["#EXT-X-TARGETDURATION"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:3",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("target-duration-exceeded: an EXTINF that rounds above the target")
    func targetDurationExceeded() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:3",
                "#EXT-X-TARGETDURATION:6",
                "#EXTINF:6.0,",
                "a.ts",
                "#EXTINF:6.6,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ), .targetDurationExceeded, line: 6,
            mentioning: ["6.6", "#EXT-X-TARGETDURATION:6", "raise the target duration to 7"])
        // 6.4 rounds to 6 (RFC 8216bis 4.4.3.1: rounded to the nearest integer, <= target).
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:3",
                "#EXT-X-TARGETDURATION:6",
                "#EXTINF:6.0,",
                "a.ts",
                "#EXTINF:6.4,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    /// A feature, the version it needs, and a playlist using it with a given declared version.
    struct VersionCase: Sendable, CustomTestStringConvertible {
        var feature: String
        var required: Int
        /// The words the message must contain.
        var mentions: [String]
        /// Line of `#EXT-X-VERSION` (the finding's line).
        var versionLine: Int
        /// Builds the playlist declaring `version`.
        var text: @Sendable (Int) -> String

        var testDescription: String { "\(feature) needs version \(required)" }
    }

    static let versionCases: [VersionCase] = [
        VersionCase(feature: "IV", required: 2, mentions: ["IV", "#EXT-X-KEY", "(line 4)"], versionLine: 2) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-KEY:METHOD=AES-128,URI=\"k.key\",IV=0x0123456789ABCDEF0123456789ABCDEF",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            )
        },
        VersionCase(feature: "decimal EXTINF", required: 3, mentions: ["#EXTINF", "(line 4)"], versionLine: 2) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:9.5,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            )
        },
        VersionCase(feature: "BYTERANGE", required: 4, mentions: ["#EXT-X-BYTERANGE", "(line 5)"], versionLine: 2) {
            v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000@0",
                "all.ts",
                "#EXT-X-ENDLIST"
            )
        },
        VersionCase(feature: "KEYFORMAT", required: 5, mentions: ["KEYFORMAT", "(line 4)"], versionLine: 2) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-KEY:METHOD=AES-128,URI=\"k.key\",KEYFORMAT=\"identity\",KEYFORMATVERSIONS=\"1\"",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            )
        },
        VersionCase(feature: "SAMPLE-AES", required: 5, mentions: ["SAMPLE-AES", "(line 4)"], versionLine: 2) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k.key\"",
                "#EXTINF:10,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            )
        },
        VersionCase(feature: "MAP", required: 6, mentions: ["#EXT-X-MAP", "(line 4)"], versionLine: 2) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:6",
                "#EXT-X-MAP:URI=\"init.mp4\"",
                "#EXTINF:6,",
                "seg0.m4s",
                "#EXT-X-ENDLIST"
            )
        },
        VersionCase(feature: "DEFINE", required: 8, mentions: ["#EXT-X-DEFINE", "(line 4)"], versionLine: 2) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-DEFINE:NAME=\"cdn\",VALUE=\"https://cdn.example\"",
                "#EXTINF:10,",
                "{$cdn}/seg0.ts",
                "#EXT-X-ENDLIST"
            )
        },
        VersionCase(feature: "SKIP", required: 9, mentions: ["#EXT-X-SKIP", "(line 6)"], versionLine: 2) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-TARGETDURATION:6",
                "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36",
                "#EXT-X-MEDIA-SEQUENCE:100",
                "#EXT-X-SKIP:SKIPPED-SEGMENTS=10",
                "#EXTINF:6,",
                "seg110.ts",
                "#EXTINF:6,",
                "seg111.ts"
            )
        },
        VersionCase(
            feature: "INSTREAM-ID SERVICE (multivariant)", required: 7,
            mentions: ["INSTREAM-ID=\"SERVICE1\"", "(line 3)"], versionLine: 2
        ) { v in
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:\(v)",
                "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",INSTREAM-ID=\"SERVICE1\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000,CLOSED-CAPTIONS=\"cc\"",
                "720p.m3u8"
            )
        },
    ]

    @Test("version-too-low: each feature against the version it needs", arguments: versionCases)
    func versionTooLow(_ c: VersionCase) {
        expectError(
            c.text(c.required - 1), .versionTooLow, line: c.versionLine,
            mentioning: c.mentions + ["#EXT-X-VERSION:\(c.required)", "declares \(c.required - 1)"])
        expectClean(c.text(c.required))
        expectClean(c.text(c.required + 1))
    }

    @Test("version-too-low: no #EXT-X-VERSION at all means version 1, reported on line 1")
    func versionMissing() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:9.5,",
                "seg0.ts",
                "#EXT-X-ENDLIST"
            ), .versionTooLow, line: 1, mentioning: ["#EXT-X-VERSION:3", "declares 1", "(line 3)"])
    }

    @Test("byterange-without-offset: after a discontinuity, and with no previous sub-range")
    func byteRangeWithoutOffset() {
        // After a discontinuity (a splice point) the offset must be explicit.
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:4",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000@0",
                "main.ts",
                "#EXT-X-DISCONTINUITY",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000",
                "main.ts",
                "#EXT-X-ENDLIST"
            ), .byteRangeWithoutOffset, line: 9,
            mentioning: ["#EXT-X-BYTERANGE", "#EXT-X-DISCONTINUITY", "<length>@<offset>"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:4",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000@0",
                "main.ts",
                "#EXT-X-DISCONTINUITY",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000@1000",
                "main.ts",
                "#EXT-X-ENDLIST"
            ))
        // No previous sub-range at all (RFC 8216bis 4.4.4.2: clients MUST fail to parse).
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:4",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000",
                "main.ts",
                "#EXT-X-ENDLIST"
            ), .byteRangeWithoutOffset, line: 5, mentioning: ["#EXT-X-BYTERANGE", "main.ts"])
        // The previous sub-range is of another resource.
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:4",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000@0",
                "a.ts",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000",
                "b.ts",
                "#EXT-X-ENDLIST"
            ), .byteRangeWithoutOffset, line: 8, mentioning: ["#EXT-X-BYTERANGE", "b.ts"])
        // Continuing a sub-range of the same resource needs no offset.
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:4",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000@0",
                "main.ts",
                "#EXTINF:10,",
                "#EXT-X-BYTERANGE:1000",
                "main.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("map-missing-after-discontinuity: fMP4 content spliced without a new #EXT-X-MAP")
    func mapMissingAfterDiscontinuity() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:6",
                "#EXT-X-TARGETDURATION:6",
                "#EXT-X-MAP:URI=\"content-init.mp4\"",
                "#EXTINF:6,",
                "c0.m4s",
                "#EXT-X-DISCONTINUITY",
                "#EXTINF:6,",
                "ad0.m4s",
                "#EXT-X-ENDLIST"
            ), .mapMissingAfterDiscontinuity, line: 7, mentioning: ["#EXT-X-MAP", "#EXT-X-DISCONTINUITY"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:6",
                "#EXT-X-TARGETDURATION:6",
                "#EXT-X-MAP:URI=\"content-init.mp4\"",
                "#EXTINF:6,",
                "c0.m4s",
                "#EXT-X-DISCONTINUITY",
                "#EXT-X-MAP:URI=\"ad-init.mp4\"",
                "#EXTINF:6,",
                "ad0.m4s",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("media-sequence-after-segments")
    func mediaSequenceAfterSegments() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-MEDIA-SEQUENCE:5",
                "#EXTINF:10,",
                "b.ts"
            ), .mediaSequenceAfterSegments, line: 5, mentioning: ["#EXT-X-MEDIA-SEQUENCE", "before the first segment"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:5",
                "#EXTINF:10,",
                "a.ts",
                "#EXTINF:10,",
                "b.ts"
            ))
    }

    @Test("discontinuity-sequence-after-segments")
    func discontinuitySequenceAfterSegments() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:5",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-DISCONTINUITY-SEQUENCE:2",
                "#EXTINF:10,",
                "b.ts"
            ), .discontinuitySequenceAfterSegments, line: 6,
            mentioning: ["#EXT-X-DISCONTINUITY-SEQUENCE", "before the first segment"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:5",
                "#EXT-X-DISCONTINUITY-SEQUENCE:2",
                "#EXTINF:10,",
                "a.ts",
                "#EXTINF:10,",
                "b.ts"
            ))
    }

    @Test("negative-sequence: media and discontinuity sequence numbers below 0")
    func negativeSequence() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:-1",
                "#EXTINF:10,",
                "a.ts"
            ), .negativeSequence, line: 3, mentioning: ["#EXT-X-MEDIA-SEQUENCE", "negative"])
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:7",
                "#EXT-X-DISCONTINUITY-SEQUENCE:-2",
                "#EXTINF:10,",
                "a.ts"
            ), .negativeSequence, line: 4, mentioning: ["#EXT-X-DISCONTINUITY-SEQUENCE", "negative"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-MEDIA-SEQUENCE:0",
                "#EXT-X-DISCONTINUITY-SEQUENCE:0",
                "#EXTINF:10,",
                "a.ts"
            ))
    }

    @Test("duplicate-daterange-id: conflicting attributes are an error, an identical repeat is not")
    func duplicateDateRangeID() {
        func text(repeat attributes: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z",
                "#EXT-X-DATERANGE:ID=\"break-1\",START-DATE=\"2024-05-01T10:00:00Z\",PLANNED-DURATION=30",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-DATERANGE:\(attributes)",
                "#EXTINF:10,",
                "b.ts",
                "#EXT-X-ENDLIST"
            )
        }
        expectError(
            text(repeat: "ID=\"break-1\",START-DATE=\"2024-05-01T10:00:05Z\",PLANNED-DURATION=30"),
            .duplicateDateRangeID, line: 7, mentioning: ["break-1", "START-DATE", "line 4"])
        // RFC 8216bis 4.4.5.1: attributes that appear in both tags must have the same value;
        // repeating a date range unchanged, or adding attributes to it (the END-DATE once the
        // break is over), is allowed.
        expectClean(text(repeat: "ID=\"break-1\",START-DATE=\"2024-05-01T10:00:00Z\",PLANNED-DURATION=30"))
        expectClean(
            text(
                repeat:
                    "ID=\"break-1\",START-DATE=\"2024-05-01T10:00:00Z\",END-DATE=\"2024-05-01T10:00:30Z\",DURATION=30"))
        // Another ID is simply another date range.
        expectClean(text(repeat: "ID=\"break-2\",START-DATE=\"2024-05-01T10:00:05Z\",PLANNED-DURATION=30"))
    }

    @Test("daterange-invalid: END-ON-NEXT without CLASS, end before start, bad START-DATE")
    func dateRangeInvalid() {
        func text(_ attributes: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-DATERANGE:\(attributes)",
                "#EXTINF:10,",
                "b.ts",
                "#EXT-X-ENDLIST"
            )
        }
        expectError(
            text("ID=\"s1\",START-DATE=\"2024-05-01T10:00:10Z\",END-ON-NEXT=YES"),
            .dateRangeInvalid, line: 6, mentioning: ["END-ON-NEXT", "CLASS"])
        expectClean(text("ID=\"s1\",CLASS=\"com.example.scene\",START-DATE=\"2024-05-01T10:00:10Z\",END-ON-NEXT=YES"))

        expectError(
            text("ID=\"ad-7\",START-DATE=\"2024-05-01T10:00:10Z\",END-DATE=\"2024-05-01T10:00:00Z\""),
            .dateRangeInvalid, line: 6, mentioning: ["ad-7", "ends before it starts"])
        expectClean(text("ID=\"ad-7\",START-DATE=\"2024-05-01T10:00:10Z\",END-DATE=\"2024-05-01T10:00:40Z\""))

        expectError(
            text("ID=\"ad-8\",START-DATE=\"01/05/2024 10:00\""),
            .dateRangeInvalid, line: 6, mentioning: ["START-DATE", "01/05/2024 10:00", "ISO 8601"])
        expectClean(text("ID=\"ad-8\",START-DATE=\"2024-05-01T10:00:10.000+00:00\""))
    }

    @Test("playlist-type-mismatch: VOD without #EXT-X-ENDLIST")
    func playlistTypeMismatch() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PLAYLIST-TYPE:VOD",
                "#EXTINF:10,",
                "a.ts"
            ), .playlistTypeMismatch, line: 3, mentioning: ["VOD", "#EXT-X-ENDLIST"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PLAYLIST-TYPE:VOD",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("undefined-variable: {$name} without #EXT-X-DEFINE")
    func undefinedVariable() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-DEFINE:NAME=\"host\",VALUE=\"https://cdn.example\"",
                "#EXTINF:10,",
                "{$host}/a.ts",
                "#EXTINF:10,",
                "{$cdn}/b.ts",
                "#EXT-X-ENDLIST"
            ), .undefinedVariable, line: 8, mentioning: ["{$cdn}", "#EXT-X-DEFINE"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-DEFINE:NAME=\"host\",VALUE=\"https://cdn.example\"",
                "#EXTINF:10,",
                "{$host}/a.ts",
                "#EXTINF:10,",
                "{$host}/b.ts",
                "#EXT-X-ENDLIST"
            ))
        // In a multivariant playlist too.
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000",
                "{$base}/720p.m3u8"
            ), .undefinedVariable, line: 3, mentioning: ["{$base}"])
    }

    @Test("part-target-exceeded: an #EXT-X-PART longer than PART-TARGET")
    func partTargetExceeded() {
        func text(secondPart: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0",
                "#EXT-X-PART-INF:PART-TARGET=1.0",
                "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXTINF:4,",
                "s10.ts",
                "#EXT-X-PART:DURATION=1.0,URI=\"s11.p0.ts\",INDEPENDENT=YES",
                "#EXT-X-PART:DURATION=\(secondPart),URI=\"s11.p1.ts\"",
                "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s11.p2.ts\""
            )
        }
        expectError(
            text(secondPart: "1.5"), .partTargetExceeded, line: 9, mentioning: ["DURATION=1.5", "PART-TARGET=1"])
        expectClean(text(secondPart: "1.0"))
    }

    @Test("llhls-incomplete: parts without PART-INF, PART-INF without PART-HOLD-BACK")
    func llhlsIncomplete() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXTINF:4,",
                "s10.ts",
                "#EXT-X-PART:DURATION=1.0,URI=\"s11.p0.ts\""
            ), .llhlsIncomplete, line: 6, mentioning: ["#EXT-X-PART", "#EXT-X-PART-INF"])
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-PART-INF:PART-TARGET=1.0",
                "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXTINF:4,",
                "s10.ts",
                "#EXT-X-PART:DURATION=1.0,URI=\"s11.p0.ts\""
            ), .llhlsIncomplete, line: 3, mentioning: ["#EXT-X-SERVER-CONTROL", "PART-HOLD-BACK"])
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=1.5",
                "#EXT-X-PART-INF:PART-TARGET=1.0",
                "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXTINF:4,",
                "s10.ts",
                "#EXT-X-PART:DURATION=1.0,URI=\"s11.p0.ts\""
            ), .llhlsIncomplete, line: 3, mentioning: ["PART-HOLD-BACK", "PART-TARGET", "2"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0",
                "#EXT-X-PART-INF:PART-TARGET=1.0",
                "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXTINF:4,",
                "s10.ts",
                "#EXT-X-PART:DURATION=1.0,URI=\"s11.p0.ts\""
            ))
    }

    @Test("negative-duration: #EXTINF:-1")
    func negativeDuration() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "a.ts",
                "#EXTINF:-1,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ), .negativeDuration, line: 5, mentioning: ["#EXTINF", "-1"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "a.ts",
                "#EXTINF:1,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("program-date-time-invalid: not an ISO 8601 date-time")
    func programDateTimeInvalid() {
        func text(_ date: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-PROGRAM-DATE-TIME:\(date)",
                "#EXTINF:10,",
                "b.ts",
                "#EXT-X-ENDLIST"
            )
        }
        expectError(
            text("yesterday at noon"), .programDateTimeInvalid, line: 5,
            mentioning: ["#EXT-X-PROGRAM-DATE-TIME", "yesterday at noon", "ISO 8601"])
        expectError(
            text("2024-13-01T10:00:00Z"), .programDateTimeInvalid, line: 5, mentioning: ["2024-13-01T10:00:00Z"])
        expectClean(text("2024-05-01T10:00:10.000Z"))
        expectClean(text("2024-05-01T12:00:10+02:00"))
    }

    // MARK: Multivariant semantics

    @Test("missing-group: a variant names a group no #EXT-X-MEDIA defines")
    func missingGroup() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000,AUDIO=\"aac\"",
                "720p.m3u8"
            ), .missingGroup, line: 2, mentioning: ["AUDIO", "\"aac\"", "#EXT-X-MEDIA"])
        // A group of another type does not count.
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"aac\",NAME=\"English\",URI=\"subs.m3u8\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000,AUDIO=\"aac\"",
                "720p.m3u8"
            ), .missingGroup, line: 3, mentioning: ["AUDIO", "\"aac\""])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",DEFAULT=YES,URI=\"audio.m3u8\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000,AUDIO=\"aac\"",
                "720p.m3u8"
            ))
    }

    @Test("variant-without-uri: #EXT-X-STREAM-INF not followed by a URI line")
    func variantWithoutURI() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000",
                "#EXT-X-STREAM-INF:BANDWIDTH=2560000",
                "1080p.m3u8"
            ), .variantWithoutURI, line: 2, mentioning: ["#EXT-X-STREAM-INF", "URI"])
        // At the end of the file.
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=2560000",
                "1080p.m3u8",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000"
            ), .variantWithoutURI, line: 4, mentioning: ["#EXT-X-STREAM-INF"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000",
                "720p.m3u8",
                "#EXT-X-STREAM-INF:BANDWIDTH=2560000",
                "1080p.m3u8"
            ))
    }

    @Test("mixed-playlist-kinds: multivariant tags in a media playlist and the reverse")
    func mixedPlaylistKinds() {
        // RFC 8216bis 4.4: a playlist has either kind's tags; clients MUST fail to parse a mix.
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Demo\"",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-ENDLIST"
            ), .mixedPlaylistKinds, line: 3, mentioning: ["#EXT-X-SESSION-DATA", "multivariant"])
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000",
                "720p.m3u8",
                "#EXT-X-ENDLIST"
            ), .mixedPlaylistKinds, line: 4, mentioning: ["#EXT-X-ENDLIST", "media playlist"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-ENDLIST"
            ))
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Demo\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=1280000",
                "720p.m3u8"
            ))
    }

    @Test(
        "duplicate-tag: a media playlist tag twice (4.4.3: \"There MUST NOT be more than one Media Playlist tag of each type\")"
    )
    func duplicateTag() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-ENDLIST"
            ), .duplicateTag, line: 3, mentioning: ["#EXT-X-TARGETDURATION", "first on line 2", "keep one"])
        // A second #EXTM3U is no such tag: the draft only says where the first goes. A warning.
        let report = PlaylistValidator.validate(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXTM3U",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-ENDLIST"
            ))
        #expect(report.isValid)
        #expect(report.warnings.map(\.rule) == [.headerNotFirst])
        #expect(report.warnings.first?.line == 3)
        #expect(report.warnings.first?.message.contains("#EXTM3U") == true)
    }

    // MARK: Not a playlist, or only part of one

    static let binaryInputs: [(name: String, bytes: [UInt8])] = [
        // PNG signature and the start of an IHDR chunk: the first line is "\u{89}PNG\r".
        (
            "PNG",
            [
                0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                0x00, 0x00, 0x02, 0x80, 0x00, 0x00, 0x01, 0xE0, 0x08, 0x06, 0x00, 0x00, 0x00,
            ]
        ),
        // MPEG-TS packets: sync byte 0x47, PID 0 (PAT), stuffing.
        (
            "MPEG-TS",
            [
                0x47, 0x40, 0x00, 0x10, 0x00, 0x00, 0xB0, 0x0D, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xF0,
                0x00, 0x2A, 0xB1, 0x04, 0xB2, 0xFF, 0xFF, 0xFF, 0x47, 0x50, 0x00, 0x10, 0x00, 0x02, 0xB0,
            ]
        ),
        // A gzip body served without Content-Encoding.
        ("gzip", [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x53, 0x76, 0x0D, 0x0E, 0x0A, 0x00]),
        // A playlist whose body turns into NUL padding (a pre-allocated file on a CDN).
        (
            "NUL padding after a header",
            Array("#EXTM3U\n#EXT-X-TARGETDURATION:10\n".utf8) + [UInt8](repeating: 0, count: 64)
        ),
    ]

    @Test("binary data gives one error that says binary, never a crash", arguments: 0..<binaryInputs.count)
    func binaryData(_ index: Int) throws {
        let (name, bytes) = Self.binaryInputs[index]
        // What `seam validate` does with a file or an HTTP body.
        let report = PlaylistValidator.validate(String(decoding: bytes, as: UTF8.self))
        #expect(report.playlist == nil, "\(name)")
        #expect(report.diagnostics.count == 1, "\(name): \(report.diagnostics)")
        let finding = try #require(report.diagnostics.first)
        #expect(finding.severity == .error)
        #expect(finding.message.contains("binary"), "\(name): \(finding.message)")
        #expect(finding.line != nil, "\(name): the finding should name a line")
        // The byte-level entry point agrees.
        #expect(throws: PlaylistParseError.self) { try Playlist.parse(bytes: bytes) }
    }

    @Test("binary data reports the line where it starts")
    func binaryDataLine() {
        let bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:10\n".utf8) + [0x00, 0x01, 0x02]
        let report = PlaylistValidator.validate(String(decoding: bytes, as: UTF8.self))
        #expect(report.diagnostics.count == 1)
        #expect(report.diagnostics.first?.line == 3)
        #expect(report.diagnostics.first?.message.contains("binary") == true)
    }

    @Test("a file that does not start with #EXTM3U: error on line 1 showing what was found")
    func missingHeader() {
        for (text, shown) in [
            ("#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n", "#EXT-X-VERSION:3"),
            ("<!DOCTYPE html>\n<html><body>404 Not Found</body></html>\n", "<!DOCTYPE html>"),
            ("{\"error\": \"forbidden\"}", "{\"error\": \"forbidden\"}"),
        ] {
            let report = PlaylistValidator.validate(text)
            #expect(report.playlist == nil)
            #expect(report.diagnostics.count == 1)
            #expect(report.diagnostics.first?.severity == .error)
            #expect(report.diagnostics.first?.line == 1)
            #expect(report.diagnostics.first?.message.contains("#EXTM3U") == true)
            #expect(report.diagnostics.first?.message.contains(shown) == true, "\(report.diagnostics)")
        }
        // A byte order mark and blank lines before the header are tolerated: valid, with one
        // warning on line 1 (the header must be the first line, 4.1 and 4.4.1.1).
        for text in [
            "\u{FEFF}#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n",
            "\n\n#EXTM3U\r\n#EXT-X-TARGETDURATION:10\r\n#EXTINF:10,\r\na.ts\r\n#EXT-X-ENDLIST\r\n",
        ] {
            let report = PlaylistValidator.validate(text)
            #expect(report.isValid, "\(report.diagnostics)")
            #expect(report.playlist != nil)
            #expect(report.diagnostics.map(\.rule) == [.headerNotFirst], "\(report.diagnostics)")
            #expect(report.diagnostics.first?.line == 1)
        }
    }

    @Test("an empty file: one error that says empty")
    func emptyFile() {
        for text in ["", "\n", "\n\n  \n"] {
            let report = PlaylistValidator.validate(text)
            #expect(report.playlist == nil)
            #expect(report.diagnostics.count == 1, "\(report.diagnostics)")
            #expect(report.diagnostics.first?.severity == .error)
            #expect(report.diagnostics.first?.message.contains("empty") == true)
        }
    }

    @Test("a file cut in the middle of an attribute list: line-numbered errors")
    func truncatedInAttributeList() {
        let full = playlist(
            "#EXTM3U",
            "#EXT-X-VERSION:6",
            "#EXT-X-TARGETDURATION:6",
            "#EXT-X-MAP:URI=\"init.mp4\"",
            "#EXTINF:6,",
            "s0.m4s",
            "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example/k2\"",
            "#EXTINF:6,",
            "s1.m4s",
            "#EXT-X-ENDLIST"
        )
        expectClean(full)
        // Cut inside the quoted URI.
        let inQuotes = String(full[..<full.range(of: "keys.example/k")!.upperBound])
        expectError(inQuotes, .malformedAttribute, line: 7, mentioning: ["#EXT-X-KEY", "URI", "unterminated"])
        // Cut right after an attribute name.
        let afterName = String(full[..<full.range(of: "AES-128,URI")!.upperBound])
        let report = expectError(
            afterName, .malformedAttribute, line: 7, mentioning: ["#EXT-X-KEY", "URI", "no value"],
            alsoAllowed: [.missingAttribute])
        // ... which leaves the key without its URI.
        #expect(report.errors.contains { $0.rule == .missingAttribute && $0.line == 7 && $0.message.contains("URI") })
        // Cut inside an EXT-X-MAP attribute list at the top.
        let inMap = String(full[..<full.range(of: "URI=\"ini")!.upperBound])
        expectError(inMap, .malformedAttribute, line: 4, mentioning: ["#EXT-X-MAP", "unterminated"])
    }

    @Test("a file cut in the middle of a segment: line-numbered errors")
    func truncatedInSegment() {
        let full = playlist(
            "#EXTM3U",
            "#EXT-X-TARGETDURATION:10",
            "#EXTINF:10,",
            "a.ts",
            "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:10Z",
            "#EXTINF:10.000,",
            "b.ts",
            "#EXT-X-ENDLIST"
        )
        // After the EXTINF line: the segment has no URI.
        let afterExtinf = String(full[..<full.range(of: "#EXTINF:10.000,\n")!.upperBound])
        expectError(afterExtinf, .truncated, line: 6, mentioning: ["#EXTINF", "URI"])
        // Inside the EXTINF line, before the comma.
        let inExtinf = String(full[..<full.range(of: "#EXTINF:10.0")!.upperBound])
        let report = expectError(inExtinf, .truncated, line: 6, mentioning: ["#EXTINF"], alsoAllowed: [.malformedTag])
        #expect(report.errors.contains { $0.rule == .malformedTag && $0.line == 6 && $0.message.contains("comma") })
        // Inside the PROGRAM-DATE-TIME value.
        let inDate = String(full[..<full.range(of: "2024-05-01T10:0")!.upperBound])
        expectError(inDate, .programDateTimeInvalid, line: 5, mentioning: ["2024-05-01T10:0"])
    }
}
