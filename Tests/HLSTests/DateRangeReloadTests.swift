import Testing
@testable import HLS

// Date ranges over time (`LiveReloadValidator`) and across renditions (`RenditionSetValidator`):
// an interstitial's ID names one break for good, and every rendition carries it the same.

/// A live window of six 4 s segments from media sequence `first`, the first dated
/// 2024-05-01T10:00:00Z + 4 s × `first`, with `dateRanges` (full tag lines) before segment 3.
private func liveWindow(
    _ first: Int, name: String = "v", target: Int = 4, count: Int = 6, dateRanges: [String] = []
) -> MediaPlaylist {
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
    text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: 1_714_557_600 + Double(4 * first)).text)\n"
    for i in 0..<count {
        if i == 3 { text += dateRanges.map { $0 + "\n" }.joined() }
        text += "#EXTINF:4.000,\n\(name)/\(first + i).ts\n"
    }
    let report = PlaylistValidator.validate(text)
    precondition(report.diagnostics.isEmpty, "test window is not clean: \(report.diagnostics)\n\(text)")
    guard case .media(let playlist)? = report.playlist else { preconditionFailure("not a media playlist") }
    return playlist
}

/// A live interstitial as Seam writes it: no X-RESUME-OFFSET, X-PLAYOUT-LIMIT the break's length.
private func liveBreak(
    id: String = "scte-1001", start: String = "2024-05-01T10:00:52.000Z", limit: String = "30",
    extra: String = ""
) -> String {
    var tag = #"#EXT-X-DATERANGE:ID="\#(id)",CLASS="com.apple.hls.interstitial",START-DATE="\#(start)","#
    tag +=
        #"X-ASSET-LIST="https://seam.example/v1/sessions/s1/assets/\#(id).json",X-PLAYOUT-LIMIT=\#(limit),X-RESTRICT="SKIP,JUMP""#
    return extra.isEmpty ? tag : tag + "," + extra
}

private func observe(_ windows: [MediaPlaylist]) -> LiveReloadValidator {
    var validator = LiveReloadValidator(source: "live.m3u8", checksWindowLength: true)
    for (index, window) in windows.enumerated() { validator.observe(window, at: Double(index) * 4) }
    return validator
}

@Suite("Date ranges across reloads")
struct DateRangeReloadTests {
    @Test("a break re-sent unchanged, then with a shorter X-PLAYOUT-LIMIT and its DURATION: no findings")
    func allowedUpdates() {
        let validator = observe([
            liveWindow(10, dateRanges: [liveBreak()]),
            liveWindow(11, dateRanges: [liveBreak()]),
            // An early CUE-IN: the same ID, the time that was actually left.
            liveWindow(12, dateRanges: [liveBreak(limit: "18.5", extra: "DURATION=18.5")]),
            liveWindow(13, dateRanges: [liveBreak(limit: "18.5", extra: "DURATION=18.5")]),
        ])
        #expect(validator.diagnostics.isEmpty, "\(validator.diagnostics.map(\.description))")
        // DURATION and END-DATE may be added to any date range once its end is known.
        let scte = observe([
            liveWindow(
                10,
                dateRanges: [#"#EXT-X-DATERANGE:ID="splice-7",START-DATE="2024-05-01T10:00:52Z",PLANNED-DURATION=30"#]),
            liveWindow(
                11,
                dateRanges: [
                    #"#EXT-X-DATERANGE:ID="splice-7",START-DATE="2024-05-01T10:00:52Z",PLANNED-DURATION=30,DURATION=30,END-DATE="2024-05-01T10:01:22Z""#
                ]),
        ])
        #expect(scte.diagnostics.isEmpty, "\(scte.diagnostics.map(\.description))")
    }

    @Test(
        "daterange-changed: an ID whose START-DATE, CLASS, asset or CUE changes on a later reload",
        arguments: [
            ("START-DATE", liveBreak(start: "2024-05-01T10:00:56.000Z")),
            ("X-ASSET-LIST", liveBreak().replacing("scte-1001.json", with: "other.json")),
            ("CLASS", liveBreak().replacing("com.apple.hls.interstitial\",START", with: "com.example.ad\",START")),
            ("CUE", liveBreak(extra: #"CUE="ONCE""#)),
            ("X-RESTRICT", liveBreak().replacing("SKIP,JUMP", with: "JUMP")),
        ])
    func changedMeaning(attribute: String, changed: String) throws {
        let validator = observe([
            liveWindow(10, dateRanges: [liveBreak()]),
            liveWindow(11, dateRanges: [changed]),
            liveWindow(12, dateRanges: [changed]),
        ])
        #expect(validator.diagnostics.map(\.rule) == [.dateRangeChanged], "\(validator.diagnostics.map(\.description))")
        let finding = try #require(validator.diagnostics.first)
        #expect(finding.severity == .error)
        #expect(finding.message.contains("scte-1001"))
        #expect(finding.message.contains(attribute), "\(finding.message)")
        #expect(finding.message.contains("reload 2"))
        #expect(finding.source == "live.m3u8")
    }

    @Test("daterange-changed: X-PLAYOUT-LIMIT may shrink but never grow; a break id never names another break")
    func limitGrowsOrIdReused() {
        let grows = observe([
            liveWindow(10, dateRanges: [liveBreak(limit: "30")]),
            liveWindow(11, dateRanges: [liveBreak(limit: "45")]),
        ])
        #expect(grows.diagnostics.map(\.rule) == [.dateRangeChanged])
        #expect(grows.diagnostics.first?.message.contains("X-PLAYOUT-LIMIT 30 → 45") == true)
        // A DURATION, once given, changes only with a shorter limit.
        let duration = observe([
            liveWindow(10, dateRanges: [liveBreak(extra: "DURATION=30")]),
            liveWindow(11, dateRanges: [liveBreak(extra: "DURATION=20")]),
        ])
        #expect(duration.diagnostics.map(\.rule) == [.dateRangeChanged])
        #expect(duration.diagnostics.first?.message.contains("DURATION 30 → 20") == true)
        // The break leaves the window, and its ID comes back for a later break.
        let reused = observe([
            liveWindow(10, dateRanges: [liveBreak(id: "break-0")]),
            liveWindow(11),
            liveWindow(30, count: 6, dateRanges: [liveBreak(id: "break-0", start: "2024-05-01T10:02:12.000Z")]),
        ])
        #expect(reused.diagnostics.map(\.rule).contains(.dateRangeChanged), "\(reused.diagnostics.map(\.description))")
    }

    @Test("target-duration-changed, segment-changed (duration), live-window-too-short")
    func otherReloadRules() {
        let target = observe([liveWindow(10), liveWindow(11, target: 6)])
        #expect(target.diagnostics.map(\.rule) == [.targetDurationChanged])
        #expect(target.diagnostics.first?.message.contains("from 4 to 6") == true)

        var validator = LiveReloadValidator(source: "live.m3u8")
        validator.observe(liveWindow(10), at: 0)
        var changed = liveWindow(11)
        changed.segments[0].duration = 3.5
        validator.observe(changed, at: 4)
        #expect(validator.diagnostics.map(\.rule) == [.segmentChangedUnderSequenceNumber])
        #expect(validator.diagnostics.first?.message.contains("4 s long and is now 3.5 s") == true)

        // Two 4 s segments left after removing one: 8 s, below 3 × 4 s.
        let short = observe([liveWindow(10, count: 3), liveWindow(11, count: 2)])
        #expect(short.diagnostics.map(\.rule) == [.liveWindowTooShort])
        #expect(short.diagnostics.first?.message.contains("12 s") == true)
        // Growing from a short start is fine: nothing was removed.
        #expect(
            observe([liveWindow(10, count: 1), liveWindow(10, count: 2), liveWindow(10, count: 3)]).diagnostics.isEmpty)
        // Off unless asked for (Seam's stitched windows follow the origin's segment count).
        var lenient = LiveReloadValidator(source: "live.m3u8")
        lenient.observe(liveWindow(10, count: 3), at: 0)
        lenient.observe(liveWindow(11, count: 2), at: 4)
        #expect(lenient.diagnostics.isEmpty)
    }
}

@Suite("Date ranges across renditions")
struct DateRangeRenditionTests {
    private func vod(_ name: String, dateRanges: [String]) -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        text += "#EXT-X-PROGRAM-DATE-TIME:2000-01-01T00:00:00.000Z\n"
        for i in 0..<4 {
            if i == 2 { text += dateRanges.map { $0 + "\n" }.joined() }
            text += "#EXTINF:6,\n\(name)/\(i).ts\n"
        }
        text += "#EXT-X-ENDLIST\n"
        guard case .media(let playlist)? = PlaylistValidator.validate(text).playlist else { preconditionFailure() }
        return playlist
    }

    private let mid =
        #"#EXT-X-DATERANGE:ID="mid-12000",CLASS="com.apple.hls.interstitial",START-DATE="2000-01-01T00:00:12.000Z",DURATION=30,X-ASSET-LIST="https://seam.example/a/mid-12000.json",X-RESUME-OFFSET=0"#

    @Test("identical interstitials in every rendition: no findings")
    func identical() {
        let findings = RenditionSetValidator.check([
            ("video.m3u8", vod("video", dateRanges: [mid])),
            ("audio.m3u8", vod("audio", dateRanges: [mid])),
            ("subs.m3u8", vod("subs", dateRanges: [mid])),
        ])
        #expect(findings.isEmpty, "\(findings.map(\.description))")
    }

    @Test("rendition-daterange-mismatch: one ID, other attributes in one rendition")
    func mismatch() throws {
        let other = mid.replacing("DURATION=30", with: "DURATION=25")
        let findings = RenditionSetValidator.check([
            ("video.m3u8", vod("video", dateRanges: [mid])),
            ("audio.m3u8", vod("audio", dateRanges: [other])),
        ])
        #expect(findings.map(\.rule) == [.renditionDateRangeMismatch])
        let finding = try #require(findings.first)
        #expect(finding.source == "audio.m3u8")
        #expect(finding.message.contains("mid-12000"))
        #expect(finding.message.contains("DURATION 25 (video.m3u8: 30)"), "\(finding.message)")
        // In VOD an attribute only one rendition has is a mismatch too.
        let extra = RenditionSetValidator.check([
            ("video.m3u8", vod("video", dateRanges: [mid])),
            ("audio.m3u8", vod("audio", dateRanges: [mid + #",X-RESTRICT="SKIP""#])),
        ])
        #expect(extra.map(\.rule) == [.renditionDateRangeMismatch])
    }

    @Test("rendition-interstitial-missing: VOD, and live when the rendition covers the start")
    func missing() throws {
        let vodFindings = RenditionSetValidator.check([
            ("video.m3u8", vod("video", dateRanges: [mid])),
            ("audio.m3u8", vod("audio", dateRanges: [])),
        ])
        #expect(vodFindings.map(\.rule) == [.renditionInterstitialMissing])
        #expect(vodFindings.first?.source == "audio.m3u8")
        #expect(vodFindings.first?.message.contains("mid-12000") == true)

        // Live: windows 10..<16 (10:00:40–10:01:04); the break starts at 10:00:52.
        let covering = RenditionSetValidator.check([
            ("video.m3u8", liveWindow(10, name: "video", dateRanges: [liveBreak()])),
            ("audio.m3u8", liveWindow(10, name: "audio")),
        ])
        #expect(covering.map(\.rule) == [.renditionInterstitialMissing])
        // A rendition fetched earlier, whose window ends before the break, need not have it yet.
        let earlier = RenditionSetValidator.check([
            ("video.m3u8", liveWindow(10, name: "video", dateRanges: [liveBreak()])),
            ("audio.m3u8", liveWindow(4, name: "audio")),
        ])
        #expect(earlier.isEmpty, "\(earlier.map(\.description))")
        // One rendition a reload ahead (the break shortened there): an allowed live update.
        let ahead = RenditionSetValidator.check([
            (
                "video.m3u8",
                liveWindow(10, name: "video", dateRanges: [liveBreak(limit: "18.5", extra: "DURATION=18.5")])
            ),
            ("audio.m3u8", liveWindow(10, name: "audio", dateRanges: [liveBreak()])),
        ])
        #expect(ahead.isEmpty, "\(ahead.map(\.description))")
        // But never another start.
        let moved = RenditionSetValidator.check([
            ("video.m3u8", liveWindow(10, name: "video", dateRanges: [liveBreak()])),
            ("audio.m3u8", liveWindow(10, name: "audio", dateRanges: [liveBreak(start: "2024-05-01T10:00:56.000Z")])),
        ])
        #expect(moved.map(\.rule) == [.renditionDateRangeMismatch])
    }
}
