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
}
