import Testing
@testable import HLS

// The date range and HLS Interstitials rules of the strict check (draft-pantos-hls-rfc8216bis
// 4.4.5.1 and Appendix D), one rule each: the fault planted in a small playlist gives the rule on
// its line with a message naming what to fix, and the fixed playlist is clean.
// Line numbers count from `#EXTM3U` on line 1; the date range under test is on line 6.

/// A two-segment VOD playlist with a program date-time and the date range `attributes` on line 6.
private func withDateRange(_ attributes: String, programDateTime: Bool = true) -> String {
    playlist(
        "#EXTM3U",
        "#EXT-X-TARGETDURATION:10",
        programDateTime ? "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z" : "#EXT-X-PLAYLIST-TYPE:VOD",
        "#EXTINF:10,",
        "a.ts",
        "#EXT-X-DATERANGE:\(attributes)",
        "#EXTINF:10,",
        "b.ts",
        "#EXT-X-ENDLIST"
    )
}

/// A well-formed VOD mid-roll interstitial, with `extra` appended to its attributes.
private func interstitial(
    _ extra: String = "", asset: String = #"X-ASSET-LIST="https://seam.example/v1/sessions/s1/assets/mid-10000.json""#
) -> String {
    var attributes =
        #"ID="mid-10000",CLASS="com.apple.hls.interstitial",START-DATE="2024-05-01T10:00:10.000Z",DURATION=30,"#
    attributes += asset
    attributes += ",X-RESUME-OFFSET=0"
    if !extra.isEmpty { attributes += "," + extra }
    return withDateRange(attributes)
}

@Suite("Strict checks: date ranges and interstitials")
struct DateRangeRuleTests {
    @Test("a Seam-style interstitial playlist is clean")
    func cleanInterstitial() {
        expectClean(
            interstitial(
                #"X-RESTRICT="SKIP,JUMP",X-SNAP="OUT,IN",X-TIMELINE-OCCUPIES="RANGE",X-TIMELINE-STYLE="HIGHLIGHT",X-CONTENT-MAY-VARY="NO",CUE="ONCE",X-PLAYOUT-LIMIT=30"#
            ))
        expectClean(interstitial(asset: #"X-ASSET-URI="https://ads.example/pod1/index.m3u8""#))
        expectClean(
            withDateRange(
                #"ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2024-05-01T10:00:00Z",CUE="PRE,ONCE",X-ASSET-LIST="https://seam.example/a/pre.json",X-RESUME-OFFSET=0"#
            ))
    }

    @Test("daterange-without-program-date-time: a playlist with EXT-X-DATERANGE and no EXT-X-PROGRAM-DATE-TIME")
    func withoutProgramDateTime() {
        expectError(
            withDateRange(#"ID="ad-1",START-DATE="2024-05-01T10:00:10Z",DURATION=30"#, programDateTime: false),
            .dateRangeWithoutProgramDateTime, line: 6, mentioning: ["ad-1", "#EXT-X-PROGRAM-DATE-TIME"])
        expectClean(withDateRange(#"ID="ad-1",START-DATE="2024-05-01T10:00:10Z",DURATION=30"#))
        // A date-time anywhere in the playlist counts, also after the date range.
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-DATERANGE:ID=\"ad-1\",START-DATE=\"2024-05-01T10:00:10Z\"",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:10Z",
                "#EXTINF:10,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("interstitial-asset: both X-ASSET-URI and X-ASSET-LIST, or neither")
    func interstitialAsset() {
        expectError(
            interstitial(#"X-ASSET-URI="https://ads.example/a.m3u8""#),
            .interstitialAsset, line: 6, mentioning: ["mid-10000", "both", "X-ASSET-URI", "X-ASSET-LIST"])
        expectError(
            withDateRange(
                #"ID="mid-10000",CLASS="com.apple.hls.interstitial",START-DATE="2024-05-01T10:00:10Z",X-RESUME-OFFSET=0"#
            ),
            .interstitialAsset, line: 6, mentioning: ["mid-10000", "neither"])
        // The rule holds for the range, its tags merged: the asset may come on a repeat of the ID.
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z",
                "#EXT-X-DATERANGE:ID=\"i1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2024-05-01T10:00:10Z\"",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-DATERANGE:ID=\"i1\",X-ASSET-URI=\"https://ads.example/a.m3u8\"",
                "#EXTINF:10,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ))
        // Other classes may do as they like with X- attributes.
        expectClean(withDateRange(#"ID="chapter-2",CLASS="com.example.chapter",START-DATE="2024-05-01T10:00:10Z""#))
    }

    @Test("daterange-cue: only PRE, POST, ONCE, and never PRE with POST")
    func cue() {
        expectError(
            withDateRange(#"ID="i",START-DATE="2024-05-01T10:00:10Z",CUE="PRE,POST""#),
            .dateRangeCue, line: 6, mentioning: ["PRE", "POST"])
        expectError(
            withDateRange(#"ID="i",START-DATE="2024-05-01T10:00:10Z",CUE="MID""#),
            .dateRangeCue, line: 6, mentioning: ["\"MID\"", "PRE, POST and ONCE"])
        expectError(
            withDateRange(#"ID="i",START-DATE="2024-05-01T10:00:10Z",CUE="PRE, ONCE""#),
            .dateRangeCue, line: 6, mentioning: ["\" ONCE\""])
        expectError(
            withDateRange(#"ID="i",START-DATE="2024-05-01T10:00:10Z",CUE=PRE"#),
            .dateRangeInvalid, line: 6, mentioning: ["CUE", "quoted-string"])
        expectClean(withDateRange(#"ID="i",START-DATE="2024-05-01T10:00:10Z",CUE="POST,ONCE""#))
    }

    @Test("interstitial-attribute: X-RESUME-OFFSET and X-PLAYOUT-LIMIT forms")
    func resumeOffsetAndPlayoutLimit() {
        // Appendix D.2: X-RESUME-OFFSET is a decimal-floating-point, which has no sign.
        expectError(
            interstitial().replacing("X-RESUME-OFFSET=0", with: "X-RESUME-OFFSET=-5"),
            .interstitialAttribute, line: 6, mentioning: ["X-RESUME-OFFSET", "-5"])
        expectError(
            interstitial().replacing("X-RESUME-OFFSET=0", with: "X-RESUME-OFFSET=\"0\""),
            .interstitialAttribute, line: 6, mentioning: ["X-RESUME-OFFSET", "unquoted"])
        expectClean(interstitial().replacing("X-RESUME-OFFSET=0", with: "X-RESUME-OFFSET=12.5"))
        expectError(
            interstitial("X-PLAYOUT-LIMIT=0"), .interstitialAttribute, line: 6,
            mentioning: ["X-PLAYOUT-LIMIT", "positive"])
        expectError(
            interstitial("X-PLAYOUT-LIMIT=-30"), .interstitialAttribute, line: 6, mentioning: ["X-PLAYOUT-LIMIT"])
        expectError(
            interstitial("X-PLAYOUT-LIMIT=30s"), .interstitialAttribute, line: 6,
            mentioning: ["X-PLAYOUT-LIMIT", "30s"], alsoAllowed: [.clientAttributeInvalid])
        expectClean(interstitial("X-PLAYOUT-LIMIT=29.97"))
    }

    @Test("interstitial-attribute: enumerated strings quoted, from their lists")
    func enumerations() {
        let cases: [(String, [String])] = [
            (#"X-RESTRICT="SKIP,SEEK""#, ["X-RESTRICT", "\"SEEK\"", "JUMP, SKIP"]),
            (#"X-SNAP="OUT,INN""#, ["X-SNAP", "\"INN\""]),
            (#"X-TIMELINE-OCCUPIES="AREA""#, ["X-TIMELINE-OCCUPIES", "POINT or RANGE"]),
            (#"X-TIMELINE-STYLE="BOLD""#, ["X-TIMELINE-STYLE", "HIGHLIGHT or PRIMARY"]),
            (#"X-CONTENT-MAY-VARY="MAYBE""#, ["X-CONTENT-MAY-VARY", "NO or YES"]),
            (#"X-SKIP-CONTROL-LABEL-ID="skip now!""#, ["X-SKIP-CONTROL-LABEL-ID", "letters"]),
            (#"X-SKIP-CONTROL-OFFSET=-1"#, ["X-SKIP-CONTROL-OFFSET"]),
        ]
        for (attribute, words) in cases {
            expectError(interstitial(attribute), .interstitialAttribute, line: 6, mentioning: words)
        }
        // Unquoted enumerations: an X- attribute value must be a quoted-string, hex or a number.
        expectError(
            interstitial("X-RESTRICT=SKIP"), .interstitialAttribute, line: 6,
            mentioning: ["X-RESTRICT", "quoted-string"], alsoAllowed: [.clientAttributeInvalid])
        expectClean(
            interstitial(
                #"X-RESTRICT="JUMP",X-SNAP="IN",X-TIMELINE-STYLE="PRIMARY",X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=10,X-SKIP-CONTROL-LABEL-ID="skip_ad""#
            ))
    }

    @Test("interstitial-relative-uri: a relative asset URI is a warning")
    func relativeAssetURI() {
        let report = PlaylistValidator.validate(interstitial(asset: #"X-ASSET-LIST="assets/mid.json""#))
        #expect(report.isValid)
        #expect(report.warnings.map(\.rule) == [.interstitialRelativeURI])
        #expect(report.warnings.first?.line == 6)
        #expect(report.warnings.first?.message.contains("assets/mid.json") == true)
    }

    @Test("daterange-end-mismatch: END-DATE is not START-DATE plus DURATION")
    func endMismatch() {
        expectError(
            withDateRange(#"ID="ad-1",START-DATE="2024-05-01T10:00:10Z",END-DATE="2024-05-01T10:00:40Z",DURATION=20"#),
            .dateRangeEndMismatch, line: 6, mentioning: ["ad-1", "30", "DURATION=20"])
        expectClean(
            withDateRange(#"ID="ad-1",START-DATE="2024-05-01T10:00:10Z",END-DATE="2024-05-01T10:00:40Z",DURATION=30"#))
        expectClean(
            withDateRange(
                #"ID="ad-1",START-DATE="2024-05-01T10:00:10.000Z",END-DATE="2024-05-01T10:00:40.010Z",DURATION=30.01"#))
    }

    @Test("daterange-invalid: value types and the attributes a range must carry")
    func dateRangeValues() {
        let cases: [(String, [String])] = [
            (#"ID="a",START-DATE="2024-05-01T10:00:10Z",PLANNED-DURATION=-30"#, ["PLANNED-DURATION", "negative"]),
            (#"ID="a",START-DATE="2024-05-01T10:00:10Z",DURATION=-1"#, ["DURATION", "negative"]),
            (#"ID="a",START-DATE="2024-05-01T10:00:10Z",DURATION=thirty"#, ["DURATION", "thirty"]),
            (#"ID="a",CLASS="c",START-DATE="2024-05-01T10:00:10Z",END-ON-NEXT=NO"#, ["END-ON-NEXT", "YES"]),
            (
                #"ID="a",CLASS="c",START-DATE="2024-05-01T10:00:10Z",END-ON-NEXT=YES,DURATION=10"#,
                ["END-ON-NEXT", "DURATION"]
            ),
            (#"ID="a",START-DATE="2024-05-01T10:00:10Z",SCTE35-OUT=FC3000"#, ["SCTE35-OUT", "hexadecimal"]),
            (#"ID="a",START-DATE="2024-05-01T10:00:10Z",END-DATE="tomorrow""#, ["END-DATE", "tomorrow"]),
            (#"ID="a",DURATION=10"#, ["\"a\"", "START-DATE"]),
            (#"ID="a",START-DATE=2024-05-01T10:00:10Z"#, ["START-DATE", "quoted-string"]),
        ]
        for (attributes, words) in cases {
            expectError(withDateRange(attributes), .dateRangeInvalid, line: 6, mentioning: words)
        }
        expectClean(
            withDateRange(
                #"ID="a",CLASS="c",START-DATE="2024-05-01T10:00:10Z",PLANNED-DURATION=30,SCTE35-OUT=0xFC3000"#))
        // A repeat of an ID need not repeat START-DATE: the tags describe one range.
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z",
                "#EXT-X-DATERANGE:ID=\"splice-1\",START-DATE=\"2024-05-01T10:00:10Z\",PLANNED-DURATION=30,SCTE35-OUT=0xFC30",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-DATERANGE:ID=\"splice-1\",DURATION=30,SCTE35-IN=0xFC31",
                "#EXTINF:10,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ))
    }

    @Test("client-attribute-invalid: an X- attribute that is not a quoted-string, hexadecimal-sequence or number")
    func clientAttribute() {
        expectError(
            withDateRange(#"ID="a",START-DATE="2024-05-01T10:00:10Z",X-COM-EXAMPLE-TYPE=AD"#),
            .clientAttributeInvalid, line: 6, mentioning: ["X-COM-EXAMPLE-TYPE", "quote it"])
        expectClean(
            withDateRange(
                #"ID="a",START-DATE="2024-05-01T10:00:10Z",X-COM-EXAMPLE-TYPE="AD",X-SCORE=1.5,X-BLOB=0xAB12"#))
    }

    @Test("duplicate-daterange-id: a repeated ID with another CLASS or asset")
    func repeatedInterstitialID() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00Z",
                "#EXT-X-DATERANGE:ID=\"i1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2024-05-01T10:00:10Z\",X-ASSET-URI=\"https://ads.example/a.m3u8\"",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-DATERANGE:ID=\"i1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2024-05-01T10:00:10Z\",X-ASSET-URI=\"https://ads.example/b.m3u8\"",
                "#EXTINF:10,",
                "b.ts",
                "#EXT-X-ENDLIST"
            ), .duplicateDateRangeID, line: 7, mentioning: ["i1", "X-ASSET-URI", "line 4", "b.m3u8"])
    }
}

@Suite("Strict checks: other rules of section 4")
struct SectionFourRuleTests {
    @Test("duplicate-attribute: an attribute named twice in one list")
    func duplicateAttribute() {
        expectError(
            withDateRange(#"ID="a",START-DATE="2024-05-01T10:00:10Z",DURATION=10,DURATION=20"#),
            .duplicateAttribute, line: 6, mentioning: ["#EXT-X-DATERANGE", "DURATION"])
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:10",
                "#EXT-X-KEY:METHOD=AES-128,URI=\"https://k.example/1\",URI=\"https://k.example/2\"",
                "#EXTINF:10,",
                "a.ts",
                "#EXT-X-ENDLIST"
            ), .duplicateAttribute, line: 3, mentioning: ["#EXT-X-KEY", "URI"])
        expectError(
            withDateRange(#"ID="a",START-DATE="2024-05-01T10:00:10Z",x-lower="1""#),
            .malformedAttribute, line: 6, mentioning: ["x-lower", "A-Z"])
    }

    @Test("duplicate-variable and EXT-X-DEFINE forms")
    func defines() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-DEFINE:NAME=\"host\",VALUE=\"a.example\"",
                "#EXT-X-DEFINE:NAME=\"host\",VALUE=\"b.example\"",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "https://{$host}/a.ts",
                "#EXT-X-ENDLIST"
            ), .duplicateVariable, line: 4, mentioning: ["{$host}"])
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:8",
                "#EXT-X-DEFINE:NAME=\"host\",IMPORT=\"host\"",
                "#EXT-X-TARGETDURATION:10",
                "#EXTINF:10,",
                "https://{$host}/a.ts",
                "#EXT-X-ENDLIST"
            ), .invalidAttributeValue, line: 3, mentioning: ["NAME", "IMPORT"])
    }

    @Test("invalid-attribute-value: CAN-SKIP-UNTIL below six target durations, PRELOAD-HINT TYPE")
    func lowLatencyValues() {
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:9",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12",
                "#EXTINF:4,",
                "a.ts"
            ), .invalidAttributeValue, line: 4, mentioning: ["CAN-SKIP-UNTIL", "24"])
        expectClean(
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:9",
                "#EXT-X-TARGETDURATION:4",
                "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24",
                "#EXTINF:4,",
                "a.ts"
            ))
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXTINF:4,",
                "a.ts",
                "#EXT-X-PRELOAD-HINT:TYPE=SEGMENT,URI=\"b.ts\""
            ), .invalidAttributeValue, line: 5, mentioning: ["PRELOAD-HINT", "SEGMENT"])
        expectError(
            playlist(
                "#EXTM3U",
                "#EXT-X-TARGETDURATION:4",
                "#EXTINF:4,",
                "a.ts",
                "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"b.ts\"",
                "#EXT-X-ENDLIST"
            ), .invalidAttributeValue, line: 5, mentioning: ["#EXT-X-ENDLIST", "#EXT-X-PRELOAD-HINT"])
    }

    @Test("missing-attribute: an AES-128 encrypted EXT-X-MAP needs the IV of its key")
    func encryptedMapNeedsIV() {
        func text(_ key: String) -> String {
            playlist(
                "#EXTM3U",
                "#EXT-X-VERSION:6",
                "#EXT-X-TARGETDURATION:6",
                key,
                "#EXT-X-MAP:URI=\"init.mp4\"",
                "#EXTINF:6,",
                "s0.m4s",
                "#EXT-X-ENDLIST"
            )
        }
        expectError(
            text("#EXT-X-KEY:METHOD=AES-128,URI=\"https://k.example/1\""), .missingAttribute, line: 5,
            mentioning: ["EXT-X-MAP", "IV"])
        expectClean(text("#EXT-X-KEY:METHOD=AES-128,URI=\"https://k.example/1\",IV=0x000102030405060708090A0B0C0D0E0F"))
    }

    @Test("multivariant: EXT-X-MEDIA combinations, groups, session tags")
    func multivariantRules() {
        func master(_ media: String...) -> String {
            (["#EXTM3U"] + media + ["#EXT-X-STREAM-INF:BANDWIDTH=800000", "v.m3u8"]).joined(separator: "\n") + "\n"
        }
        let cases: [(String, [String], PlaylistRule)] = [
            (
                master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",DEFAULT=YES,AUTOSELECT=NO,URI="en.m3u8""#),
                ["DEFAULT=YES", "AUTOSELECT"], .invalidAttributeValue
            ),
            (
                master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",FORCED=NO,URI="en.m3u8""#),
                ["FORCED", "SUBTITLES"], .invalidAttributeValue
            ),
            (master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en""#), ["INSTREAM-ID"], .missingAttribute),
        ]
        for (text, words, rule) in cases {
            expectError(text, rule, line: 2, mentioning: words)
        }
        expectError(
            master(
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",DEFAULT=YES,URI="en.m3u8""#,
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="fr",DEFAULT=YES,URI="fr.m3u8""#),
            .invalidAttributeValue, line: 3, mentioning: ["second DEFAULT=YES", "\"a\""])
        expectError(
            master(
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="en.m3u8""#,
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="en2.m3u8""#),
            .invalidAttributeValue, line: 3, mentioning: ["NAME=\"en\"", "twice"])
        // INSTREAM-ID on another TYPE than CLOSED-CAPTIONS is allowed since protocol version 13
        // (section 8: "A Playlist MUST indicate an EXT-X-VERSION of 13 or higher if it contains: An
        // EXT-X-MEDIA tag with INSTREAM-ID attribute for non CLOSED-CAPTIONS TYPE.").
        expectError(
            master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",INSTREAM-ID="CC1",URI="en.m3u8""#),
            .versionTooLow, line: 1, mentioning: ["INSTREAM-ID", "TYPE=AUDIO", "#EXT-X-VERSION:13"])
        expectClean(
            "#EXTM3U\n#EXT-X-VERSION:13\n"
                + #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",INSTREAM-ID="track.2",URI="en.m3u8""#
                + "\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv.m3u8\n")
        expectError(
            master(#"#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="x",URI="t.json""#),
            .invalidAttributeValue, line: 2, mentioning: ["SESSION-DATA", "VALUE", "URI"])
        expectError(
            master("#EXT-X-SESSION-KEY:METHOD=NONE"), .invalidAttributeValue, line: 2,
            mentioning: ["SESSION-KEY", "NONE"])
        expectError(
            master(
                #"#EXT-X-SESSION-DATA:DATA-ID="t",VALUE="a",LANGUAGE="en""#,
                #"#EXT-X-SESSION-DATA:DATA-ID="t",VALUE="b",LANGUAGE="en""#),
            .invalidAttributeValue, line: 3, mentioning: ["two #EXT-X-SESSION-DATA", "\"t\"", "\"en\""])
        expectClean(
            master(
                #"#EXT-X-SESSION-DATA:DATA-ID="t",VALUE="a",LANGUAGE="en""#,
                #"#EXT-X-SESSION-DATA:DATA-ID="t",VALUE="b",LANGUAGE="fr""#))
        expectError(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CLOSED-CAPTIONS=NONE\nlow.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1600000\nhigh.m3u8\n",
            .invalidAttributeValue, line: 4, mentioning: ["CLOSED-CAPTIONS=NONE"])
        expectError(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,STABLE-VARIANT-ID=\"low 1\"\nlow.m3u8\n",
            .invalidAttributeValue, line: 2, mentioning: ["STABLE-VARIANT-ID", "low 1"])
        expectClean(
            master(
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",DEFAULT=YES,AUTOSELECT=YES,URI="en.m3u8""#,
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="fr",URI="fr.m3u8""#,
                #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",FORCED=NO,URI="s.m3u8""#,
                #"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en",INSTREAM-ID="CC1""#,
                #"#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="x""#))
    }
}
