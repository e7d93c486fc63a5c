import Testing
@testable import HLS

/// One test per media-playlist tag: parsed into the typed model, written back the same.
@Suite struct MediaPlaylistTagTests {
    /// Parses, checks there were no diagnostics, and checks the canonical text round-trips byte for byte.
    func roundTrip(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> MediaPlaylist {
        let parsed = try MediaPlaylist.parse(text)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)", sourceLocation: sourceLocation)
        #expect(parsed.playlist.serialized() == text, sourceLocation: sourceLocation)
        return parsed.playlist
    }

    @Test func headerTags() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:1200
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXTINF:6,
            a.ts

            """)
        #expect(p.version == 7)
        #expect(p.targetDuration == 6)
        #expect(p.mediaSequence == 1200)
        #expect(p.discontinuitySequence == 7)
        #expect(p.playlistType == .event)
        #expect(p.independentSegments)
        #expect(p.start?.timeOffset == -12.5)
        #expect(p.start?.precise == true)
        #expect(!p.endList)
    }

    @Test func extinfWithTitleAndDecimalDuration() throws {
        let p = try roundTrip(
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:9.009,Intro, part one\nhttp://cdn/a.ts\n#EXT-X-ENDLIST\n")
        #expect(p.segments.count == 1)
        #expect(p.segments[0].duration == 9.009)
        #expect(p.segments[0].title == "Intro, part one")
        #expect(p.segments[0].uri == "http://cdn/a.ts")
        #expect(p.endList)
    }

    @Test func byteRange() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            #EXT-X-BYTERANGE:75232@0
            main.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:82112
            main.ts

            """)
        #expect(p.segments[0].byteRange == ByteRange(length: 75232, offset: 0))
        #expect(p.segments[1].byteRange == ByteRange(length: 82112, offset: nil))
        #expect(p.resolvedByteRanges()[1] == ByteRange(length: 82112, offset: 75232))
    }

    @Test func discontinuityKeyMapAndDateTime() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:4
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys/k1",IV=0x1234567890abcdef1234567890abcdef
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-22T06:00:00.000Z
            #EXTINF:4,
            s1.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-MAP:URI="ad-init.mp4"
            #EXTINF:4,
            ad1.m4s

            """)
        let first = p.segments[0]
        #expect(first.keys.first?.method == .aes128)
        #expect(first.keys.first?.uri == "https://keys/k1")
        #expect(first.keys.first?.iv == "0x1234567890abcdef1234567890abcdef")
        #expect(first.map?.uri == "init.mp4")
        #expect(first.map?.byteRange == ByteRange(length: 720, offset: 0))
        #expect(first.programDateTime?.secondsSince1970 == 1_795_327_200)
        #expect(p.segments[1].discontinuity)
        #expect(p.effectiveKeys()[1].first?.method == EncryptionKey.Method.none)
        #expect(p.effectiveMaps()[1]?.uri == "ad-init.mp4")
    }

    @Test func keyFormatsStackAndNoneClears() throws {
        let p = try MediaPlaylist(
            parsing: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"
                #EXTINF:4,
                a.ts
                #EXTINF:4,
                b.ts
                #EXT-X-KEY:METHOD=NONE
                #EXTINF:4,
                c.ts
                """)
        let keys = p.effectiveKeys()
        #expect(keys[0].count == 2)
        #expect(keys[1].count == 2)
        #expect(keys[2].map(\.method) == [EncryptionKey.Method.none])
        #expect(keys[0][1].keyFormat == "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed")
    }

    @Test func gapAndBitrate() throws {
        let p = try roundTrip(
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-GAP\n#EXT-X-BITRATE:1200\n#EXTINF:6,\nmissing.ts\n")
        #expect(p.segments[0].gap)
        #expect(p.segments[0].bitrate == 1200)
    }

    @Test func dateRangeWithSCTE35AndClientAttributes() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="splice-6FFFFFF0",START-DATE="2026-01-01T00:00:00.000Z",PLANNED-DURATION=59.993,SCTE35-OUT=0xFC002F0000000000FF000014056FFFFFF000E011622DCAFF000052636200000000000A0008029896F50000008700000000,X-COM-EXAMPLE-AD-ID="XYZ123",X-SCORE=1.5
            #EXTINF:6,
            a.ts
            #EXT-X-DATERANGE:ID="splice-6FFFFFF0",SCTE35-IN=0xFC002A0000000000FF00000F056FFFFFF000401162802E6100000000000A0008029896F50000008700000000,DURATION=59.993
            #EXTINF:6,
            b.ts

            """)
        let out = p.segments[0].dateRanges[0]
        #expect(out.id == "splice-6FFFFFF0")
        #expect(out.startDate?.text == "2026-01-01T00:00:00.000Z")
        #expect(out.plannedDuration == 59.993)
        #expect(out.scte35Out?.hasPrefix("0xFC002F") == true)
        #expect(out.clientAttributes.map(\.name) == ["X-COM-EXAMPLE-AD-ID", "X-SCORE"])
        #expect(out.attributes.string("X-COM-EXAMPLE-AD-ID") == "XYZ123")
        #expect(out.attributes.double("X-SCORE") == 1.5)
        let back = p.segments[1].dateRanges[0]
        #expect(back.scte35In != nil)
        #expect(back.duration == 59.993)
    }

    @Test func interstitialDateRange() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10.000Z",DURATION=30,X-ASSET-LIST="https://seam/v1/sessions/s/assets/1.json",X-RESUME-OFFSET=0,X-PLAYOUT-LIMIT=30,X-SNAP="OUT,IN",X-RESTRICT="SKIP,JUMP",CUE="PRE,ONCE",X-TIMELINE-OCCUPIES="RANGE"
            #EXTINF:6,
            a.ts

            """)
        let range = p.segments[0].dateRanges[0]
        #expect(range.isInterstitial)
        #expect(range.assetList == "https://seam/v1/sessions/s/assets/1.json")
        #expect(range.assetURI == nil)
        #expect(range.resumeOffset == 0)
        #expect(range.playoutLimit == 30)
        #expect(range.snap == ["OUT", "IN"])
        #expect(range.restrict == ["SKIP", "JUMP"])
        #expect(range.cue == ["PRE", "ONCE"])
        #expect(range.timelineOccupies == "RANGE")
    }

    @Test func lowLatencyTags() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:266
            #EXT-X-PART-INF:PART-TARGET=1.004
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24,PART-HOLD-BACK=3.012
            #EXT-X-SKIP:SKIPPED-SEGMENTS=3
            #EXT-X-PROGRAM-DATE-TIME:2019-02-14T02:13:36.106Z
            #EXT-X-PART:DURATION=1.004,URI="266.0.mp4",INDEPENDENT=YES
            #EXT-X-PART:DURATION=1.004,URI="266.1.mp4",BYTERANGE="1000@200"
            #EXTINF:4.008,
            266.mp4
            #EXT-X-PART:DURATION=1.004,URI="267.0.mp4",INDEPENDENT=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="267.1.mp4"
            #EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=273,LAST-PART=2

            """)
        #expect(p.partInformation?.partTarget == 1.004)
        #expect(p.serverControl?.canBlockReload == true)
        #expect(p.serverControl?.canSkipUntil == 24)
        #expect(p.serverControl?.partHoldBack == 3.012)
        #expect(p.skip?.skippedSegments == 3)
        #expect(p.segments[0].parts.count == 2)
        #expect(p.segments[0].parts[0].independent)
        #expect(p.segments[0].parts[1].byteRange == ByteRange(length: 1000, offset: 200))
        #expect(p.trailer?.parts.map(\.uri) == ["267.0.mp4"])
        #expect(p.preloadHints.first?.type == "PART")
        #expect(p.preloadHints.first?.uri == "267.1.mp4")
        #expect(p.renditionReports.first?.lastMediaSequence == 273)
        #expect(p.renditionReports.first?.lastPart == 2)
    }

    @Test func iFramesOnlyAndDefine() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:10
            #EXT-X-I-FRAMES-ONLY
            #EXT-X-DEFINE:NAME="host",VALUE="cdn.example.com"
            #EXT-X-DEFINE:IMPORT="token"
            #EXT-X-DEFINE:QUERYPARAM="sid"
            #EXTINF:10,
            #EXT-X-BYTERANGE:1000@0
            https://{$host}/main.ts?t={$token}

            """)
        #expect(p.iFramesOnly)
        #expect(p.defines.map(\.definedName) == ["host", "token", "sid"])
        #expect(p.defines[0].value == "cdn.example.com")
        #expect(p.defines[1].importName == "token")
        #expect(p.defines[2].queryParameter == "sid")
    }

    @Test func cueTagsAttachToTheSegmentTheyPrecede() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            c1.ts
            #EXT-X-CUE-OUT:30
            #EXT-OATCLS-SCTE35:/DAlAAAAAAAAAP/wFAUAAAABf+/+ANgNkv4AFJlwAAEBAQAAXxUjrw==
            #EXT-X-ASSET:CAID=0x0000000020FB6501
            #EXTINF:10,
            ad1.ts
            #EXT-X-CUE-OUT-CONT:ElapsedTime=10,Duration=30,SCTE35=/DAlAAAAAAAAAP/wFAUAAAABf+/+ANgNkv4AFJlwAAEBAQAAXxUjrw==
            #EXTINF:10,
            ad2.ts
            #EXT-X-SCTE35:CUE="/DAlAAAAAAAAAP/wFAUAAAABf+/+ANgNkv4AFJlwAAEBAQAAXxUjrw==",ID="123",CUE-OUT=CONT
            #EXT-X-SPLICEPOINT-SCTE35:/DAIAAAAAAAAAP/wBgb+AAAAAAAAAA==
            #EXTINF:10,
            ad3.ts
            #EXT-X-CUE-IN
            #EXT-X-CUE:ID="ad-1",TYPE="SpliceOut",DURATION=30,TIME=1234.5
            #EXTINF:10,
            c2.ts

            """)
        #expect(p.segments[0].cues.isEmpty)
        #expect(p.segments[1].cues.map(\.kind) == [.cueOut, .oatclsSCTE35, .asset])
        #expect(p.segments[1].cues[0].value == "30")
        #expect(p.segments[2].cues[0].kind == .cueOutCont)
        #expect(p.segments[2].cues[0].attributes.double("ElapsedTime") == 10)
        #expect(p.segments[3].cues.map(\.kind) == [.scte35, .splicepointSCTE35])
        #expect(p.segments[3].cues[0].attributes.string("CUE")?.hasPrefix("/DAl") == true)
        #expect(p.segments[4].cues.map(\.kind) == [.cueIn, .adobeCue])
        #expect(p.segments[4].cues[0].value == nil)
        #expect(p.segments[4].cues[1].attributes.string("TYPE") == "SpliceOut")
    }

    @Test func unknownTagsAndCommentsAreKeptInPlace() throws {
        let p = try roundTrip(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-ALLOW-CACHE:NO
            # header comment
            #EXTINF:10,
            a.ts
            #EXT-X-VENDOR-MARK:id=7
            # before b
            #EXTINF:10,
            b.ts
            # trailing comment

            """)
        #expect(p.headerLines == ["#EXT-X-ALLOW-CACHE:NO", "# header comment"])
        #expect(p.segments[1].unknownLines == ["#EXT-X-VENDOR-MARK:id=7", "# before b"])
        #expect(p.trailer?.unknownLines == ["# trailing comment"])
    }

    @Test func lineEndingsBOMAndWhitespaceAreAccepted() throws {
        let canonical = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        let variants = [
            canonical.replacingAll("\n", with: "\r\n"),
            "\u{FEFF}" + canonical,
            "  #EXTM3U \n\n#EXT-X-TARGETDURATION:10\t\n   #EXTINF:10,\n a.ts  \n\n#EXT-X-ENDLIST",
        ]
        // CRLF endings are the syntax; a byte order mark and padding are accepted and reported
        // as warnings (header-not-first, stray-whitespace), never as a changed value.
        let expectedRules: [Set<PlaylistRule>] = [[], [.headerNotFirst], [.strayWhitespace]]
        for (text, rules) in zip(variants, expectedRules) {
            let parsed = try MediaPlaylist.parse(text)
            #expect(Set(parsed.diagnostics.map(\.rule)) == rules, "\(parsed.diagnostics)")
            #expect(parsed.diagnostics.allSatisfy { $0.severity == .warning })
            #expect(parsed.playlist.serialized() == canonical)
        }
    }

    @Test func lenientInputGivesWarningsNotFailures() throws {
        let parsed = try MediaPlaylist.parse(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="k
            #EXTINF:abc,
            b.ts
            c.ts
            #EXTINF:10,
            """)
        #expect(parsed.playlist.segments.map(\.uri) == ["a.ts", "b.ts", "c.ts"])
        let rules = parsed.diagnostics.map(\.rule)
        #expect(rules.contains(.malformedTag))
        #expect(rules.contains(.malformedAttribute))
        #expect(rules.contains(.uriWithoutExtinf))
        #expect(rules.contains(.truncated))
        #expect(parsed.diagnostics.allSatisfy { $0.line != nil && $0.severity == .warning })
        #expect(parsed.diagnostics.first { $0.rule == .truncated }?.line == 9)
    }

    @Test func notAPlaylistIsAClearError() {
        #expect(throws: PlaylistParseError.empty) { try MediaPlaylist(parsing: "") }
        #expect(throws: PlaylistParseError.missingHeader(firstLine: "<html><body>404</body></html>")) {
            try MediaPlaylist(parsing: "<html><body>404</body></html>\n")
        }
        let ts = String(decoding: [0x47, 0x40, 0x00, 0x10, 0x00, 0x00, 0xB0, 0x0D, 0x00], as: UTF8.self)
        #expect(throws: PlaylistParseError.binaryData(line: 1)) { try MediaPlaylist(parsing: ts) }
        #expect(throws: PlaylistParseError.binaryData(line: 3)) {
            try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:1\n\u{0}\u{1}garbage\n")
        }
    }

    @Test func decimalNumbersAreWrittenShortAndExact() {
        #expect(DecimalNumber.format(10) == "10")
        #expect(DecimalNumber.format(6.006) == "6.006")
        #expect(DecimalNumber.format(-2.5) == "-2.5")
        #expect(DecimalNumber.format(0.000001) == "0.000001")
        #expect(DecimalNumber.format(3.003003003) == "3.003003003")
        #expect(DecimalNumber.parseDouble("6.006") == 6.006)
        #expect(DecimalNumber.parseDouble("10.000000") == 10)
        #expect(DecimalNumber.parseDouble("-0.5") == -0.5)
        #expect(DecimalNumber.parseDouble("1e5") == nil)
        #expect(DecimalNumber.parseDouble("12345678901234567890.5") == 12345678901234567890.5)
        #expect(DecimalNumber.parseInteger("9223372036854775808") == nil)
    }

    @Test func dateTimeReadsOffsetsAndWritesCanonicalForm() {
        #expect(DateTime(text: "2017-04-28T11:50:46+03:00").secondsSince1970 == 1_493_369_446)
        #expect(DateTime(text: "2017-04-28T08:50:46.500Z").secondsSince1970 == 1_493_369_446.5)
        #expect(DateTime(text: "2017-04-28T08:50:46.5+0000").secondsSince1970 == 1_493_369_446.5)
        #expect(DateTime(text: "yesterday").secondsSince1970 == nil)
        #expect(DateTime(secondsSince1970: 1_493_369_446.5).text == "2017-04-28T08:50:46.500Z")
        #expect(DateTime(secondsSince1970: 0).text == "1970-01-01T00:00:00.000Z")
        // The ends of the range, clamped beyond them, and a non-finite time.
        #expect(DateTime(secondsSince1970: DateTime.earliestSeconds).text == "0000-01-01T00:00:00.000Z")
        #expect(DateTime(secondsSince1970: -1e15).text == "0000-01-01T00:00:00.000Z")
        #expect(DateTime(secondsSince1970: DateTime.latestSeconds).text == "9999-12-31T23:59:59.999Z")
        #expect(DateTime(secondsSince1970: .infinity).text == "1970-01-01T00:00:00.000Z")
        #expect(DateTime(secondsSince1970: -0.001).text == "1969-12-31T23:59:59.999Z")
        #expect(DateTime(secondsSince1970: 951_782_400.25).text == "2000-02-29T00:00:00.250Z")
        // Every written form reads back as the time it was written from (to the millisecond).
        for seconds in stride(from: -2_000_000_000.0, through: 4_000_000_000.0, by: 86_399_999.123) {
            let millis = (seconds * 1000).rounded() / 1000
            #expect(DateTime(secondsSince1970: seconds).secondsSince1970 == millis, "\(seconds)")
        }
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
