import Foundation
import Testing

/// `seam validate` on playlists whose numbers no stream can carry: the process exits 1 (errors
/// found) with a line-numbered `value-out-of-range` finding, `--print` still prints, and no
/// input makes it trap (issue 9: `--print` used to exit 132 on such a file).
@Suite("seam validate on hostile numbers (subprocess)")
struct ValidateHostileNumbersTests {
    static let cases: [(name: String, line: Int, text: String)] = [
        (
            "extinf-int64", 4,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:9223372036854775808,\na.ts\n#EXT-X-ENDLIST\n"
        ),
        (
            "extinf-400-digits", 3,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:\(String(repeating: "9", count: 400)),\na.ts\n"
        ),
        (
            "byterange", 3,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\n#EXTINF:10,\na.ts\n"
        ),
        (
            "media-sequence", 3,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:99999999999999999999\n#EXTINF:10,\na.ts\n"
        ),
        (
            "cue-out", 3,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-CUE-OUT:DURATION=99999999999999999999\n#EXTINF:10,\na.ts\n"
        ),
        (
            "daterange", 3,
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2024-01-01T00:00:00Z\",PLANNED-DURATION=999999999999999999999\n#EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z\n#EXTINF:10,\na.ts\n"
        ),
        ("bandwidth", 2, "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=99999999999999999999\nv.m3u8\n"),
    ]

    @Test(arguments: 0..<cases.count)
    func aHostileNumberIsALineNumberedErrorNotACrash(_ index: Int) async throws {
        let item = Self.cases[index]
        let workspace = try Workspace()
        let file = workspace.path("\(item.name).m3u8")
        try workspace.write("\(item.name).m3u8", item.text)
        let result = try await workspace.seam("validate", file, "--json")
        #expect(result.status == 1, "\(result)")
        let findings = try result.findings()
        let refused = findings.filter { $0["rule"] as? String == "value-out-of-range" }
        #expect(refused.first?["line"] as? Int == item.line, "\(result)")

        let printed = try await workspace.seam("validate", file, "--print")
        #expect(printed.status == 1, "\(printed)")
        #expect(printed.stdout.contains("#EXTM3U"), "\(printed)")
    }
}
