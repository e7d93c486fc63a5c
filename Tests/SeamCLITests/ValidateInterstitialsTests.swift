import Foundation
import HLS
import Testing

// `seam validate` on HLS Interstitials playlists, as a subprocess: files on disk, saved reloads
// (`--reload`) and a multivariant playlist whose renditions disagree about a break.

/// A VOD primary playlist as Seam's interstitials rendering writes it: a program date-time, a
/// pre-roll and a mid-roll, each with its asset list.
private func interstitialsVOD(name: String = "video", preRoll: Bool = true, midRoll: String? = nil) -> String {
    var text = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2000-01-01T00:00:00.000Z

        """
    if preRoll {
        text +=
            #"#EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2000-01-01T00:00:00.000Z",CUE="PRE",DURATION=15,X-ASSET-LIST="https://seam.example/v1/sessions/s1/assets/pre.json",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP""#
            + "\n"
    }
    text += "#EXTINF:6.000,\n\(name)/0.ts\n#EXTINF:6.000,\n\(name)/1.ts\n"
    text +=
        (midRoll
            ?? #"#EXT-X-DATERANGE:ID="mid-12000",CLASS="com.apple.hls.interstitial",START-DATE="2000-01-01T00:00:12.000Z",DURATION=30,X-ASSET-LIST="https://seam.example/v1/sessions/s1/assets/mid-12000.json",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP""#)
        + "\n"
    text += "#EXTINF:6.000,\n\(name)/2.ts\n#EXTINF:6.000,\n\(name)/3.ts\n#EXT-X-ENDLIST\n"
    return text
}

/// A live window of six 4 s segments from `first`, with a live break (X-PLAYOUT-LIMIT `limit`) at `start`.
private func liveInterstitials(first: Int, start: String = "2024-05-01T10:00:52.000Z", limit: String = "30") -> String {
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
    text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: 1_714_557_600 + Double(4 * first)).text)\n"
    for i in 0..<6 {
        if i == 1 {
            text +=
                #"#EXT-X-DATERANGE:ID="scte-1001",CLASS="com.apple.hls.interstitial",START-DATE="\#(start)",X-ASSET-LIST="https://seam.example/v1/sessions/s1/assets/scte-1001.json",X-PLAYOUT-LIMIT=\#(limit)"#
                + "\n"
        }
        text += "#EXTINF:4.000,\ns\(first + i).ts\n"
    }
    return text
}

/// A multivariant playlist of one variant, `video.m3u8`, with its audio in `audio.m3u8`.
private let videoWithAudio = """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,URI="audio.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="aud"
    video.m3u8

    """

private func rules(_ findings: [[String: Any]]) -> [String] {
    findings.compactMap { $0["rule"] as? String }
}

@Suite("seam validate: interstitials (subprocess)")
struct ValidateInterstitialsTests {
    @Test("an interstitials VOD playlist as Seam writes it: exit 0, no findings")
    func cleanInterstitials() async throws {
        let workspace = try Workspace()
        try workspace.write("primary.m3u8", interstitialsVOD())
        #expect(PlaylistValidator.validate(interstitialsVOD()).diagnostics.isEmpty)
        let result = try await workspace.seam("validate", workspace.path("primary.m3u8"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("1 playlist checked: 0 errors, 0 warnings"), "\(result)")
    }

    @Test("broken interstitials: exit 1, each rule with its line in --json")
    func brokenInterstitials() async throws {
        let workspace = try Workspace()
        // Line 10: both X-ASSET-URI and X-ASSET-LIST, CUE with PRE and POST, a negative X-RESUME-OFFSET.
        let broken = interstitialsVOD(
            preRoll: false,
            midRoll:
                #"#EXT-X-DATERANGE:ID="mid-12000",CLASS="com.apple.hls.interstitial",START-DATE="2000-01-01T00:00:12.000Z",CUE="PRE,POST",X-ASSET-URI="https://ads.example/a.m3u8",X-ASSET-LIST="https://seam.example/a.json",X-RESUME-OFFSET=-3"#
        )
        .replacing("#EXT-X-PROGRAM-DATE-TIME:2000-01-01T00:00:00.000Z\n", with: "")
        try workspace.write("broken.m3u8", broken)
        let file = workspace.path("broken.m3u8")
        let result = try await workspace.seam("validate", file, "--json")
        #expect(result.status == 1, "\(result)")
        let findings = try result.findings()
        #expect(
            Set(rules(findings)) == [
                "interstitial-asset", "daterange-cue", "interstitial-attribute", "daterange-without-program-date-time",
            ], "\(result)")
        #expect(findings.allSatisfy { $0["line"] as? Int == 9 && $0["severity"] as? String == "error" }, "\(result)")

        let text = try await workspace.seam("validate", file)
        #expect(
            text.stdout.contains(
                "\(file):9: error: interstitial ID=\"mid-12000\" has both X-ASSET-URI and X-ASSET-LIST"), "\(text)")
        #expect(text.stdout.contains("4 errors, 0 warnings"), "\(text)")
    }

    @Test("lenient input: `#EXTINF: 6.000,` and a comment before #EXTM3U are warnings, exit 0")
    func lenientInput() async throws {
        let workspace = try Workspace()
        let text =
            "# exported by packager\n"
            + interstitialsVOD().replacing("#EXTINF:6.000,\nvideo/2.ts", with: "#EXTINF: 6.000,\nvideo/2.ts")
        try workspace.write("lenient.m3u8", text)
        let file = workspace.path("lenient.m3u8")
        let result = try await workspace.seam("validate", file)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\(file):1: warning: a comment comes before #EXTM3U"), "\(result)")
        #expect(result.stdout.contains("\(file):13: warning: whitespace after the colon of #EXTINF"), "\(result)")
        #expect(result.stdout.contains("0 errors, 2 warnings"), "\(result)")
    }

    @Test("--reload: a break shortened by an early return is fine; a break that moves is daterange-changed")
    func savedReloads() async throws {
        let workspace = try Workspace()
        try workspace.write("r1.m3u8", liveInterstitials(first: 10))
        try workspace.write("r2.m3u8", liveInterstitials(first: 11))
        try workspace.write("r3.m3u8", liveInterstitials(first: 12, limit: "18.5"))
        let good = try await workspace.seam(
            "validate", "r1.m3u8", "--reload", "r2.m3u8", "--reload", "r3.m3u8", "--json")
        #expect(good.status == 0, "\(good)")
        let object = try good.json()
        #expect(object["reloads"] as? Int == 2, "\(good)")
        #expect(object["playlists"] as? [String] == ["r1.m3u8", "r2.m3u8", "r3.m3u8"], "\(good)")
        #expect(try good.findings().isEmpty, "\(good)")

        try workspace.write("moved.m3u8", liveInterstitials(first: 12, start: "2024-05-01T10:00:56.000Z"))
        try workspace.write("longer.m3u8", liveInterstitials(first: 13, start: "2024-05-01T10:00:56.000Z", limit: "40"))
        let bad = try await workspace.seam(
            "validate", "r1.m3u8", "--reload", "r2.m3u8", "--reload", "moved.m3u8", "--reload", "longer.m3u8", "--json")
        #expect(bad.status == 1, "\(bad)")
        let findings = try bad.findings()
        #expect(rules(findings) == ["daterange-changed", "daterange-changed"], "\(bad)")
        #expect((findings.first?["message"] as? String)?.contains("reload 3: ") == true, "\(bad)")
        #expect((findings.first?["message"] as? String)?.contains("START-DATE") == true, "\(bad)")
        #expect((findings.last?["message"] as? String)?.contains("X-PLAYOUT-LIMIT 30 → 40") == true, "\(bad)")
        #expect(findings.allSatisfy { $0["source"] as? String == "r1.m3u8" }, "\(bad)")
    }

    @Test("a multivariant playlist whose audio lacks a break the video has: rendition-interstitial-missing")
    func renditionsDisagree() async throws {
        let workspace = try Workspace()
        try workspace.write("master.m3u8", videoWithAudio)
        try workspace.write("video.m3u8", interstitialsVOD(name: "video"))
        try workspace.write("audio.m3u8", interstitialsVOD(name: "audio", preRoll: false))
        let result = try await workspace.seam("validate", "master.m3u8", "--json")
        #expect(result.status == 1, "\(result)")
        let findings = try result.findings()
        #expect(rules(findings) == ["rendition-interstitial-missing"], "\(result)")
        #expect((findings.first?["source"] as? String)?.hasSuffix("audio.m3u8") == true, "\(result)")
        #expect((findings.first?["message"] as? String)?.contains("ID=\"pre\"") == true, "\(result)")

        try workspace.write("audio.m3u8", interstitialsVOD(name: "audio"))
        let fixed = try await workspace.seam("validate", "master.m3u8")
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.stdout.contains("3 playlists checked: 0 errors, 0 warnings"), "\(fixed)")
    }

    @Test(
        "live renditions fetched one after another: a break missing from one fetch and there when fetched again is no finding; missing again, it is"
    )
    func liveRenditionLagging() async throws {
        let workspace = try Workspace()
        try workspace.write("master.m3u8", videoWithAudio)
        let withBreak = liveInterstitials(first: 10)
        let withoutBreak =
            withBreak.split(separator: "\n").filter { !$0.hasPrefix("#EXT-X-DATERANGE") }.joined(separator: "\n") + "\n"
        try workspace.write("video.m3u8", withBreak)
        try workspace.write("audio.m3u8", withBreak)
        try workspace.write("video-before.m3u8", withoutBreak)
        // Serves the files, but `video.m3u8` as `video-before.m3u8` (the break not decided yet)
        // on the fetches listed in argv[2]: what a stitcher answers when a break's decision lands
        // between the video fetch and the audio fetch of one reload round.
        try workspace.write(
            "origin.py",
            """
            import http.server, os, sys
            root, lagging, port = sys.argv[1], {int(n) for n in sys.argv[2].split(",") if n}, int(sys.argv[3])
            count = {}
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    name = self.path.lstrip("/")
                    count[name] = count.get(name, 0) + 1
                    if name == "video.m3u8" and count[name] in lagging:
                        name = "video-before.m3u8"
                    try:
                        body = open(os.path.join(root, os.path.basename(name)), "rb").read()
                    except OSError:
                        self.send_error(404)
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", "application/vnd.apple.mpegurl")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()

            """)
        func validate(lagging: String) async throws -> RunResult {
            let server = try await StaticHTTPServer(python: [workspace.path("origin.py"), workspace.url.path, lagging])
            defer { server.stop() }
            return try await workspace.seam("validate", "\(server.baseURL)/master.m3u8", "--duration", "3", "--json")
        }
        // Fetch 1 is the first look, 2 the first reload (the round every later fetch repeats
        // while the renditions disagree); 3 is that round's second look.
        let caughtUp = try await validate(lagging: "2")
        #expect(caughtUp.status == 0, "\(caughtUp)")
        #expect((try caughtUp.json()["reloads"] as? Int ?? 0) >= 1, "\(caughtUp)")
        #expect(try caughtUp.findings().isEmpty, "\(caughtUp)")

        // The first look disagrees too: looked at again before it is reported.
        let firstLook = try await validate(lagging: "1")
        #expect(firstLook.status == 0, "\(firstLook)")

        // Still missing on the second look: reported, once, against the video.
        let behind = try await validate(lagging: "2,3")
        #expect(behind.status == 1, "\(behind)")
        let findings = try behind.findings()
        #expect(rules(findings) == ["rendition-interstitial-missing"], "\(behind)")
        #expect((findings.first?["source"] as? String)?.hasSuffix("/video.m3u8") == true, "\(behind)")
        #expect(
            (findings.first?["message"] as? String)?.hasPrefix("reload 1: no interstitial ID=\"scte-1001\"") == true,
            "\(behind)")
    }
}

/// `seam validate` on ad-ID decoration (SVTA2053 creative signaling ranges in a stitched playlist).
@Suite struct ValidateAdIDDecorationTests {
    /// A stitched VOD playlist with one decorated 10 s ad; `signaling` is the range's attribute.
    static func decorated(signaling: String, duration: String = "10") -> String {
        """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2000-01-01T00:00:00.000Z
        #EXT-X-DATERANGE:ID="seam-ad-pre-0",CLASS="urn:svta:advertising-wg:ad-creative-signaling",START-DATE="2000-01-01T00:00:00.000Z",DURATION=\(duration),X-AD-ID="ad1",X-AD-CREATIVE-SIGNALING="\(signaling)"
        #EXTINF:5.000,
        ad/0.ts
        #EXTINF:5.000,
        ad/1.ts
        #EXT-X-DISCONTINUITY
        #EXT-X-PROGRAM-DATE-TIME:2000-01-01T00:00:10.000Z
        #EXTINF:6.000,
        content/0.ts
        #EXT-X-ENDLIST

        """
    }

    static let slot = Data(
        #"{"payload":[{"duration":10,"identifiers":[{"scheme":"urn:vast:ad-id","value":"ad1"}],"start":0,"tracking":[],"type":"linear"}],"type":"slot","version":2}"#
            .utf8
    ).base64EncodedString()

    @Test("a decorated range as Seam writes it is clean; unreadable or disagreeing signaling is ad-creative-signaling")
    func decoration() async throws {
        let workspace = try Workspace()
        try workspace.write("clean.m3u8", Self.decorated(signaling: Self.slot))
        let clean = try await workspace.seam("validate", workspace.path("clean.m3u8"))
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdout.contains("0 errors, 0 warnings"), "\(clean)")

        try workspace.write("garbled.m3u8", Self.decorated(signaling: "%%%"))
        let garbled = try await workspace.seam("validate", workspace.path("garbled.m3u8"), "--json")
        #expect(garbled.status == 1, "\(garbled)")
        #expect(rules(try garbled.findings()) == ["ad-creative-signaling"], "\(garbled)")

        try workspace.write("longer.m3u8", Self.decorated(signaling: Self.slot, duration: "12"))
        let longer = try await workspace.seam("validate", workspace.path("longer.m3u8"))
        #expect(longer.status == 1, "\(longer)")
        #expect(longer.stdout.contains("its slot lasts 10.0 s but the range DURATION is 12.0 s"), "\(longer)")
    }
}
