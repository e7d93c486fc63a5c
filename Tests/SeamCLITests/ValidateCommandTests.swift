import Foundation
import HLS
import Testing

// `seam validate` run as a subprocess: the real executable, real files, real HTTP on loopback.
// Exit status: 0 clean (warnings allowed), 1 errors found, 2 the playlist could not be read.

private let cleanVOD = """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-TARGETDURATION:6
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXTINF:6.000,
    seg0.ts
    #EXTINF:6.000,
    seg1.ts
    #EXTINF:4.500,
    seg2.ts
    #EXT-X-ENDLIST

    """

/// Line 7 has a segment longer than the target duration.
private let plantedErrorPlaylist = """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-TARGETDURATION:6
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXTINF:6.000,
    seg0.ts
    #EXTINF:8.000,
    seg1.ts
    #EXT-X-ENDLIST

    """

/// A multivariant playlist whose two renditions disagree: target duration 6 vs 10, one
/// discontinuity vs two.
private func writeDisagreeingRenditions(into workspace: Workspace) throws {
    try workspace.write(
        "master.m3u8",
        """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
        low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2400000,RESOLUTION=1280x720
        high/index.m3u8

        """)
    try workspace.write(
        "low/index.m3u8",
        """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:6.000,
        c0.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:6.000,
        ad0.ts
        #EXTINF:6.000,
        c1.ts
        #EXT-X-ENDLIST

        """)
    try workspace.write(
        "high/index.m3u8",
        """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:10
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:6.000,
        c0.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:6.000,
        ad0.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:6.000,
        c1.ts
        #EXT-X-ENDLIST

        """)
}

/// A live window over segments `first..<first+4` of a stream with a discontinuity before
/// segments 10 and 12, with the DISCONTINUITY-SEQUENCE a correct server writes.
private func liveWindow(first: Int, discontinuitySequence: Int? = nil) -> String {
    let discontinuities: Set<Int> = [10, 12]
    let correct = discontinuities.filter { $0 < first }.count
    var text = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:\(first)
        #EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence ?? correct)

        """
    for n in first..<(first + 4) {
        if discontinuities.contains(n) { text += "#EXT-X-DISCONTINUITY\n" }
        text += "#EXTINF:2.000,\ns\(n).ts\n"
    }
    return text
}

private func rules(_ findings: [[String: Any]]) -> [String] {
    findings.compactMap { $0["rule"] as? String }
}

@Suite("seam validate (subprocess)")
struct ValidateCommandTests {
    @Test("the seam executable is found next to the test bundle")
    func binaryIsFound() throws {
        let url = try SeamBinary.url()
        #expect(FileManager.default.isExecutableFile(atPath: url.path))
    }

    @Test("a clean file: exit 0, \"0 errors\"")
    func cleanFile() async throws {
        let workspace = try Workspace()
        try workspace.write("clean.m3u8", cleanVOD)
        let result = try await workspace.seam("validate", workspace.path("clean.m3u8"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("1 playlist checked: 0 errors, 0 warnings"), "\(result)")

        let json = try await workspace.seam("validate", workspace.path("clean.m3u8"), "--json")
        #expect(json.status == 0, "\(json)")
        let object = try json.json()
        #expect(object["valid"] as? Bool == true)
        #expect(object["errors"] as? Int == 0)
        #expect((object["findings"] as? [Any])?.isEmpty == true)
    }

    @Test("a planted error: exit 1, line-numbered text output, --json has the rule and the line")
    func plantedError() async throws {
        let workspace = try Workspace()
        let file = workspace.path("bad.m3u8")
        try workspace.write("bad.m3u8", plantedErrorPlaylist)

        let text = try await workspace.seam("validate", file)
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.contains("\(file):7: error: "), "\(text)")
        #expect(text.stdout.contains("[target-duration-exceeded]"), "\(text)")
        #expect(text.stdout.contains("1 error, 0 warnings"), "\(text)")

        let result = try await workspace.seam("validate", file, "--json")
        #expect(result.status == 1, "\(result)")
        let object = try result.json()
        #expect(object["valid"] as? Bool == false)
        #expect(object["errors"] as? Int == 1)
        #expect(object["playlists"] as? [String] == [file])
        let findings = try result.findings()
        #expect(findings.count == 1, "\(result)")
        let finding = try #require(findings.first)
        #expect(finding["rule"] as? String == "target-duration-exceeded")
        #expect(finding["line"] as? Int == 7)
        #expect(finding["severity"] as? String == "error")
        #expect(finding["source"] as? String == file)
        #expect((finding["message"] as? String)?.contains("#EXT-X-TARGETDURATION:6") == true)
    }

    @Test("--print writes the playlist as Seam serializes it")
    func printSerialization() async throws {
        let workspace = try Workspace()
        // CRLF line endings, padding (one warning: stray-whitespace), a comment and tags out of
        // Seam's canonical order.
        let messy =
            "#EXTM3U\r\n#EXT-X-PLAYLIST-TYPE:VOD\r\n#EXT-X-TARGETDURATION:6\r\n#EXT-X-VERSION:3\r\n"
            + "# packaged by test\r\n  #EXTINF:6.000,first\r\nseg0.ts\r\n#EXTINF:5.5,\r\nseg1.ts  \r\n#EXT-X-ENDLIST\r\n"
        try workspace.write("messy.m3u8", messy)
        let result = try await workspace.seam("validate", workspace.path("messy.m3u8"), "--print")
        #expect(result.status == 0, "\(result)")
        let expected = try MediaPlaylist(parsing: messy).serialized()
        #expect(result.stdout.hasPrefix(expected), "expected the serialization first:\n\(expected)\n\(result)")
        #expect(expected.hasPrefix("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n"))
        #expect(!result.stdout.contains("\r"))
        #expect(result.stdout.contains("#EXTINF:5.5,\nseg1.ts\n"))
        #expect(result.stdout.contains("# packaged by test\n"))
        let file = workspace.path("messy.m3u8")
        #expect(
            result.stdout.hasSuffix(
                "\(file):6: warning: spaces or tabs before or after the line; they are ignored (1 more line like it) [stray-whitespace]\n1 playlist checked: 0 errors, 1 warning\n"
            ), "\(result)")
        // What was printed is itself a clean playlist.
        let printed = String(result.stdout.prefix(expected.count))
        #expect(printed == expected)
        #expect(PlaylistValidator.validate(printed).diagnostics.isEmpty)
    }

    @Test("an unreadable path: exit 2")
    func unreadablePath() async throws {
        let workspace = try Workspace()
        let missing = workspace.path("does/not/exist.m3u8")
        let result = try await workspace.seam("validate", missing)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains(missing), "\(result)")
        #expect(result.stdout.contains("no such file"), "\(result)")

        let json = try await workspace.seam("validate", missing, "--json")
        #expect(json.status == 2, "\(json)")
        #expect(rules(try json.findings()) == ["rendition-fetch-failed"])
    }

    @Test("not a playlist (binary, empty): exit 2 with a reason")
    func notAPlaylist() async throws {
        let workspace = try Workspace()
        let tsBytes: [UInt8] = [0x47, 0x40, 0x00, 0x10, 0x00, 0x00, 0xB0, 0x0D, 0x00, 0x01, 0xC1, 0x00]
        try workspace.write("segment.ts", Data(tsBytes))
        let binary = try await workspace.seam("validate", workspace.path("segment.ts"))
        #expect(binary.status == 2, "\(binary)")
        #expect(binary.stdout.contains("binary"), "\(binary)")

        try workspace.write("empty.m3u8", "")
        let empty = try await workspace.seam("validate", workspace.path("empty.m3u8"))
        #expect(empty.status == 2, "\(empty)")
        #expect(empty.stdout.contains("empty"), "\(empty)")
    }

    @Test("a multivariant file whose renditions disagree: exit 1, both cross-rendition rules")
    func disagreeingRenditionsOnDisk() async throws {
        let workspace = try Workspace()
        try writeDisagreeingRenditions(into: workspace)
        // Relative to the working directory, as a user would type it.
        let result = try await workspace.seam("validate", "master.m3u8", "--json")
        #expect(result.status == 1, "\(result)")
        let object = try result.json()
        #expect((object["playlists"] as? [String])?.count == 3, "\(result)")
        let findings = try result.findings()
        #expect(rules(findings).contains("rendition-target-duration-mismatch"), "\(result)")
        #expect(rules(findings).contains("rendition-discontinuity-mismatch"), "\(result)")
        let mismatch = try #require(findings.first { $0["rule"] as? String == "rendition-target-duration-mismatch" })
        #expect((mismatch["source"] as? String)?.hasSuffix("high/index.m3u8") == true, "\(mismatch)")
        #expect((mismatch["message"] as? String)?.contains("#EXT-X-TARGETDURATION:10") == true)
        // Each rendition on its own is fine: every error is a cross-rendition one.
        #expect(findings.allSatisfy { ($0["rule"] as? String)?.hasPrefix("rendition-") == true }, "\(result)")

        // --no-renditions checks the multivariant playlist alone.
        let alone = try await workspace.seam("validate", "master.m3u8", "--no-renditions")
        #expect(alone.status == 0, "\(alone)")
    }

    @Test("the same over HTTP on loopback (python3 -m http.server)")
    func disagreeingRenditionsOverHTTP() async throws {
        let workspace = try Workspace()
        try writeDisagreeingRenditions(into: workspace)
        try workspace.write("clean/index.m3u8", cleanVOD)
        let server = try await StaticHTTPServer(serving: workspace.url)
        defer { server.stop() }

        let url = "\(server.baseURL)/master.m3u8"
        let result = try await workspace.seam("validate", url, "--json")
        #expect(result.status == 1, "\(result)")
        let object = try result.json()
        #expect(
            object["playlists"] as? [String] == [
                url, "\(server.baseURL)/low/index.m3u8", "\(server.baseURL)/high/index.m3u8",
            ], "\(result)")
        let findings = try result.findings()
        #expect(rules(findings).contains("rendition-target-duration-mismatch"), "\(result)")
        #expect(rules(findings).contains("rendition-discontinuity-mismatch"), "\(result)")
        #expect(findings.contains { $0["source"] as? String == "\(server.baseURL)/high/index.m3u8" }, "\(result)")

        let clean = try await workspace.seam("validate", "\(server.baseURL)/clean/index.m3u8")
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdout.contains("0 errors"), "\(clean)")

        let missing = try await workspace.seam("validate", "\(server.baseURL)/nothing-here.m3u8")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stdout.contains("404"), "\(missing)")
    }

    /// `seam validate --duration 4` against an origin that answers `windows[n]` to its n-th request
    /// (the first look is request 0, the first reload request 1; later requests get the last window).
    /// What the run sees depends on how many requests it made, never on how many fit in a
    /// wall-clock window: every run makes at least one reload.
    private func validateLive(_ windows: [String]) async throws -> RunResult {
        let workspace = try Workspace()
        for (index, window) in windows.enumerated() { try workspace.write("live.\(index).m3u8", window) }
        try workspace.write(
            "origin.py",
            """
            import http.server, os, sys
            root, last, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            served = [0]
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    if self.path != "/live.m3u8":
                        self.send_error(404)
                        return
                    body = open(os.path.join(root, "live.%d.m3u8" % min(served[0], last)), "rb").read()
                    served[0] += 1
                    self.send_response(200)
                    self.send_header("Content-Type", "application/vnd.apple.mpegurl")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()

            """)
        let server = try await StaticHTTPServer(python: [
            workspace.path("origin.py"), workspace.url.path, String(windows.count - 1),
        ])
        defer { server.stop() }
        return try await workspace.seam("validate", "\(server.baseURL)/live.m3u8", "--duration", "4", "--json")
    }

    @Test("live: the media sequence goes backwards during the run → exit 1, media-sequence-backwards")
    func liveMediaSequenceBackwards() async throws {
        let result = try await validateLive([liveWindow(first: 10), liveWindow(first: 9)])
        #expect(result.status == 1, "\(result)")
        let object = try result.json()
        #expect((object["reloads"] as? Int ?? 0) >= 1, "\(result)")
        let findings = try result.findings()
        #expect(rules(findings).contains("media-sequence-backwards"), "\(result)")
        let finding = try #require(findings.first { $0["rule"] as? String == "media-sequence-backwards" })
        #expect((finding["message"] as? String)?.contains("from 10 to 9") == true, "\(finding)")
        #expect((finding["source"] as? String)?.hasSuffix("/live.m3u8") == true, "\(finding)")
    }

    @Test("live: the window advances by one segment per reload with a correct DISCONTINUITY-SEQUENCE → exit 0")
    func liveCorrectAdvance() async throws {
        // 10...13 with DISCONTINUITY-SEQUENCE 0, then 11...14: segment 10 took a discontinuity with it, so 1.
        #expect(liveWindow(first: 11).contains("#EXT-X-DISCONTINUITY-SEQUENCE:1\n"))
        // One segment more per request, so the window is never stale however slowly the run goes.
        let result = try await validateLive((10..<40).map { liveWindow(first: $0) })
        #expect(result.status == 0, "\(result)")
        let object = try result.json()
        #expect(object["valid"] as? Bool == true, "\(result)")
        #expect((object["reloads"] as? Int ?? 0) >= 1, "\(result)")
        #expect(try result.findings().isEmpty, "\(result)")
    }

    @Test("live: the same advance with a DISCONTINUITY-SEQUENCE left unchanged → exit 1")
    func liveWrongDiscontinuitySequence() async throws {
        let result = try await validateLive([liveWindow(first: 10), liveWindow(first: 11, discontinuitySequence: 0)])
        #expect(result.status == 1, "\(result)")
        #expect(rules(try result.findings()).contains("discontinuity-sequence-wrong"), "\(result)")
    }
}
