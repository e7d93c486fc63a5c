import Testing
@testable import SeamServer

/// Which configured bumper a session of each format plays (`BumperSource`): HLS sessions the HLS
/// or MP4 URLs; DASH sessions the MPD URLs, else an MP4 (conditioned as an MPD), and never an
/// HLS playlist, which is counted as missed.
@Suite struct BumperSourceTests {
    static func configuration(
        start: String = "", end: String = "", dashStart: String = "", dashEnd: String = "", preroll: Bool = true
    ) -> SeamConfiguration.Bumpers {
        var bumpers = SeamConfiguration.Bumpers()
        bumpers.startURL = start
        bumpers.endURL = end
        bumpers.dashStartURL = dashStart
        bumpers.dashEndURL = dashEnd
        bumpers.preroll = preroll
        return bumpers
    }

    static let hls = "https://cdn.example.com/bumper/master.m3u8"
    static let mp4 = "https://cdn.example.com/bumper.mp4?v=2"
    static let mpd = "https://cdn.example.com/bumper/manifest.mpd"

    @Test(arguments: [
        // (start, end, dashStart, dashEnd) → DASH start, DASH end, unplayable in DASH
        (hls, hls, "", "", "", "", ["start", "end"]),
        (hls, "", mpd, "", mpd, "", []),
        (mp4, hls, "", "", mp4, "", ["end"]),
        (mp4, mp4, mpd, "", mpd, mp4, []),
        ("", "", mpd, mpd, mpd, mpd, []),
        ("", "", "", "", "", "", []),
    ])
    func aDASHSessionPlaysItsMPDsOrAnMP4(
        _ row: (String, String, String, String, String, String, [String])
    ) {
        let configured = Self.configuration(start: row.0, end: row.1, dashStart: row.2, dashEnd: row.3)
        let dash = BumperSource(configured, format: .dash)
        #expect(dash.startURL == row.4)
        #expect(dash.endURL == row.5)
        #expect(dash.unplayable.map(\.rawValue) == row.6)
        // An HLS session plays what it always did, and misses nothing for its format.
        let hls = BumperSource(configured)
        #expect(hls.startURL == row.0 && hls.endURL == row.1)
        #expect(hls.unplayable.isEmpty)
    }

    @Test func anMP4BumperIsConditionedForADASHSessionToo() {
        let dash = BumperSource(Self.configuration(start: Self.mp4), format: .dash)
        #expect(dash.progressive == [Self.mp4: "bumper " + Self.mp4])
        #expect(dash.loads.map(\.creativeURL) == [Self.mp4])
    }

    @Test func preRollsWithoutBumpersMissNoneForTheirFormat() {
        let dash = BumperSource(Self.configuration(start: Self.hls, preroll: false), format: .dash)
        #expect(dash.unplayable(at: .preroll).isEmpty)
        #expect(dash.unplayable(at: .midroll(seconds: 30)).map(\.rawValue) == ["start"])
        #expect(dash.wanted(at: .preroll).isEmpty)
    }
}
