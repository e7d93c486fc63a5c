import Testing
@testable import HLS

// The parser is as lenient as players where they accept: whitespace after a tag's colon, blank
// lines, comments or a byte order mark before #EXTM3U, whitespace around a line. Each is read
// (never a silently dropped value) and reported as a warning naming its line; the proxy's
// `init(parsing:)` accepts all of them.

@Suite("Lenient parsing: accepted with a warning")
struct LenientParsingTests {
    @Test("whitespace after a tag's colon: the value is read, one warning names the first line")
    func whitespaceAfterColon() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION: 10\n#EXTINF: 10,\na.ts\n#EXTINF:\t9,title\nb.ts\n#EXT-X-ENDLIST\n"
        let playlist = try MediaPlaylist(parsing: text)
        #expect(playlist.targetDuration == 10)
        #expect(playlist.segments.map(\.duration) == [10, 9])
        #expect(playlist.segments[1].title == "title")

        let report = PlaylistValidator.validate(text)
        #expect(report.isValid, "\(report.diagnostics)")
        #expect(report.warnings.count == 1, "\(report.diagnostics)")
        let warning = try #require(report.warnings.first)
        #expect(warning.rule == .strayWhitespace)
        #expect(warning.line == 2)
        #expect(warning.message.contains("#EXT-X-TARGETDURATION"))
        #expect(warning.message.contains("2 more lines"))
        // Without the whitespace the same playlist is clean and reads the same.
        let clean = text.replacing(": ", with: ":").replacing(":\t", with: ":")
        expectClean(clean)
        #expect(try MediaPlaylist(parsing: clean) == playlist)
    }

    @Test("whitespace after the colon of an attribute tag and a multivariant tag")
    func whitespaceAfterColonInAttributeTags() throws {
        let media =
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY: METHOD=AES-128,URI=\"https://k.example/1\"\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        let report = PlaylistValidator.validate(media)
        #expect(report.isValid)
        #expect(report.warnings.map(\.rule) == [.strayWhitespace])
        #expect(report.warnings.first?.line == 3)
        guard case .media(let playlist)? = report.playlist else { Issue.record("not media"); return }
        #expect(playlist.segments[0].keys.first?.method == .aes128)

        let master = "#EXTM3U\n#EXT-X-STREAM-INF: BANDWIDTH=800000\nv.m3u8\n"
        let masterReport = PlaylistValidator.validate(master)
        #expect(masterReport.isValid)
        #expect(masterReport.warnings.map(\.rule) == [.strayWhitespace])
        #expect(masterReport.warnings.first?.line == 2)
        #expect(try MultivariantPlaylist(parsing: master).variants.first?.bandwidth == 800_000)
    }

    @Test("blank lines and comments before #EXTM3U: a warning on the first of them")
    func beforeHeader() throws {
        for (text, words) in [
            (
                "# made by packager 1.2\n#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n",
                ["a comment", "line 2"]
            ),
            (
                "\n\n#EXTM3U\r\n#EXT-X-TARGETDURATION:10\r\n#EXTINF:10,\r\na.ts\r\n#EXT-X-ENDLIST\r\n",
                ["blank lines", "line 3"]
            ),
            (
                "\n# one\n# two\n#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n",
                ["2 comments", "line 4"]
            ),
        ] {
            let playlist = try MediaPlaylist(parsing: text)
            #expect(playlist.segments.count == 1)
            let report = PlaylistValidator.validate(text)
            #expect(report.isValid, "\(report.diagnostics)")
            #expect(report.warnings.map(\.rule) == [.headerNotFirst], "\(report.diagnostics)")
            #expect(report.warnings.first?.line == 1)
            for word in words {
                #expect(report.warnings.first?.message.contains(word) == true, "\(report.warnings)")
            }
        }
        // A tag or other text before the header is still no playlist.
        #expect(throws: PlaylistParseError.missingHeader(firstLine: "#EXT-X-VERSION:3")) {
            try MediaPlaylist(parsing: "# comment\n#EXT-X-VERSION:3\n#EXTM3U\n")
        }
    }

    @Test("a byte order mark: accepted, with a warning on line 1")
    func byteOrderMark() throws {
        let text = "\u{FEFF}#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        #expect(try MediaPlaylist(parsing: text).segments.count == 1)
        let report = PlaylistValidator.validate(text)
        #expect(report.isValid)
        #expect(report.warnings.map(\.rule) == [.headerNotFirst])
        #expect(report.warnings.first?.line == 1)
        #expect(report.warnings.first?.message.contains("byte order mark") == true)
    }

    @Test("whitespace before or after a line: read without it, one warning for all of them")
    func aroundLines() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n  #EXTINF:10,\na.ts  \n#EXTINF:10,\t\nb.ts\n#EXT-X-ENDLIST\n"
        let playlist = try MediaPlaylist(parsing: text)
        #expect(playlist.segments.map(\.uri) == ["a.ts", "b.ts"])
        let report = PlaylistValidator.validate(text)
        #expect(report.isValid)
        #expect(report.warnings.count == 1, "\(report.diagnostics)")
        #expect(report.warnings.first?.rule == .strayWhitespace)
        #expect(report.warnings.first?.line == 3)
        #expect(report.warnings.first?.message.contains("2 more lines") == true)
        // CRLF line endings and blank lines are the syntax, not stray whitespace.
        expectClean("#EXTM3U\r\n#EXT-X-TARGETDURATION:10\r\n\r\n#EXTINF:10,\r\na.ts\r\n#EXT-X-ENDLIST\r\n")
    }

    @Test("the proxy's init(parsing:) never throws for what is only a warning")
    func proxyEntryPointAccepts() throws {
        let text =
            "\u{FEFF}\n# comment\n #EXTM3U \n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION: 6\n#EXTINF: 6.006, \n a.ts \n#EXT-X-ENDLIST\n"
        let playlist = try MediaPlaylist(parsing: text)
        #expect(playlist.targetDuration == 6)
        #expect(playlist.segments.map(\.duration) == [6.006])
        #expect(try Playlist(parsing: text) == .media(playlist))
        let parsed = try MediaPlaylist.parse(text)
        #expect(parsed.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(Set(parsed.diagnostics.map(\.rule)) == [.headerNotFirst, .strayWhitespace])
        #expect(PlaylistValidator.validate(text).isValid)
    }

    // What players accept beyond whitespace and comments: each parses (the proxy's `init(parsing:)`
    // does not throw), is reported where the draft has a rule, and is written back in a form that
    // means what Seam read, which is itself a clean playlist.

    /// Parses `text` leniently, writes it back, and checks the written form reads as the same
    /// playlist and passes `seam validate` without a finding.
    @discardableResult
    func roundTrip(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (MediaPlaylist, String)
    {
        let playlist = try MediaPlaylist(parsing: text)
        let written = playlist.serialized()
        #expect(try MediaPlaylist(parsing: written) == playlist, sourceLocation: sourceLocation)
        expectClean(written, sourceLocation: sourceLocation)
        return (playlist, written)
    }

    @Test("#EXTINF without its comma: read, an error (4.4.4.1: \"#EXTINF:<duration>,[<title>]\"), written with it")
    func extinfWithoutComma() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10\na.ts\n#EXT-X-ENDLIST\n"
        let (playlist, written) = try roundTrip(text)
        #expect(playlist.segments.map(\.duration) == [10])
        #expect(playlist.segments.map(\.title) == [""])
        #expect(written.contains("#EXTINF:10,\na.ts\n"))
        // The comma is the syntax (only the title is optional), so the strict check says so.
        let report = PlaylistValidator.validate(text)
        #expect(report.errors.map(\.rule) == [.malformedTag], "\(report.diagnostics)")
        #expect(report.errors.first?.line == 3)
        #expect(report.errors.first?.message.contains("comma") == true)
    }

    @Test("EXT-X-BYTERANGE before #EXTINF: no finding (4.4.4: \"a series of Media Segment tags followed by a URI\")")
    func byteRangeBeforeExtinf() throws {
        // The draft orders no segment tag before another; players read the two in either order.
        let text =
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXT-X-BYTERANGE:1000@0\n#EXTINF:10,\nall.ts\n"
            + "#EXT-X-BYTERANGE:1000\n#EXTINF:10,\nall.ts\n#EXT-X-ENDLIST\n"
        expectClean(text)
        let (playlist, written) = try roundTrip(text)
        #expect(playlist.segments.map(\.byteRange) == [ByteRange(length: 1000, offset: 0), ByteRange(length: 1000)])
        #expect(
            written.contains(
                "#EXTINF:10,\n#EXT-X-BYTERANGE:1000@0\nall.ts\n#EXTINF:10,\n#EXT-X-BYTERANGE:1000\nall.ts\n"))
    }

    @Test(
        "a segment without #EXTINF: read as zero seconds, an error (4.4.4.1: \"This tag is REQUIRED for each Media Segment.\")"
    )
    func segmentWithoutExtinf() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\nb.ts\n#EXT-X-ENDLIST\n"
        let (playlist, written) = try roundTrip(text)
        #expect(playlist.segments.map(\.uri) == ["a.ts", "b.ts"])
        #expect(playlist.segments.map(\.duration) == [10, 0])
        // Seam took it for a segment of no duration and writes that down.
        #expect(written.contains("#EXTINF:0,\nb.ts\n"))
        let report = PlaylistValidator.validate(text)
        #expect(report.errors.map(\.rule) == [.uriWithoutExtinf], "\(report.diagnostics)")
        #expect(report.errors.first?.line == 5)
    }

    @Test("comments, blank lines and a byte order mark before #EXTM3U: a warning, and gone once written")
    func junkBeforeHeader() throws {
        for text in [
            "# made by packager 1.2\n#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n",
            "\u{FEFF}\n\n#EXTM3U\r\n#EXT-X-TARGETDURATION:10\r\n#EXTINF:10,\r\na.ts\r\n#EXT-X-ENDLIST\r\n",
        ] {
            // 4.4.1.1: "It MUST be the first line of every Media Playlist"; players skip what is before it.
            #expect(PlaylistValidator.validate(text).warnings.map(\.rule).contains(.headerNotFirst))
            let (_, written) = try roundTrip(text)
            #expect(written.hasPrefix("#EXTM3U\n#EXT-X-TARGETDURATION:10\n"))
        }
    }
}
