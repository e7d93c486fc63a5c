import Testing
@testable import HLS

/// The numbers policy: which values are refused, with which line, and what the lenient parse keeps.
@Suite struct PlaylistLimitsTests {
    @Test(arguments: [
        ("30", false), ("30.5", false), ("86400", false), ("86401", true), ("10/30", false), ("10/99999999999", true),
        ("DURATION=30", false), ("DURATION=99999999999999999999", true), ("Duration = \"1e3\"", false),
        ("ElapsedTime=5,Duration=86400.5,SCTE35=/DA", true), ("ELAPSED=9999999", true), ("ID=7,TYPE=SpliceOut", false),
        ("PLANNED-DURATION=12", false), ("", false),
    ])
    func cueDurations(_ value: String, refused: Bool) {
        #expect((PlaylistLimits.outOfRangeCueNumber(value) != nil) == refused, "\(value)")
    }

    @Test func attributesOfPolicyTagsAreChecked() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x99999999999999999999999999999999
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="99999999999999999999@0"
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="a",START-DATE="2024-01-01T00:00:00Z",DURATION=99999999999
            #EXT-X-DATERANGE:ID="week",START-DATE="2024-01-01T00:00:00Z",DURATION=604800
            #EXTINF:6,
            a.ts

            """
        let parsed = try MediaPlaylist.parse(text)
        let refused = parsed.diagnostics.filter { $0.rule == .valueOutOfRange }
        #expect(refused.map(\.line) == [4, 6])
        #expect(parsed.playlist.segments[0].map?.byteRange == nil)
        #expect(parsed.playlist.segments[0].dateRanges.first?.duration == nil)
        // A programme may last a week: a date range's duration is held to 10^9 s, not a day.
        #expect(parsed.playlist.segments[0].dateRanges.last?.duration == 604_800)
        // The tags stay, as players keep them; only the numbers are not believed.
        #expect(parsed.playlist.serialized().contains("DURATION=99999999999"))
    }

    /// `#EXT-X-TARGETDURATION:-1` (radio playlists) is refused, so the proxy does not serve it, but the
    /// lenient parse keeps `-1` as players do: a round trip through Seam does not rewrite it to 0.
    @Test func aNegativeTargetDurationIsRefusedButKept() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:-1\n#EXTINF:10,\na.ts\n"
        let parsed = try MediaPlaylist.parse(text)
        #expect(parsed.diagnostics.filter { $0.rule == .valueOutOfRange }.map(\.line) == [2])
        #expect(parsed.playlist.targetDuration == -1)
        #expect(parsed.playlist.serialized().contains("#EXT-X-TARGETDURATION:-1\n"))
        #expect(throws: PlaylistParseError.self) { try MediaPlaylist(parsing: text) }
        let huge = try MediaPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:-99999999\n#EXTINF:10,\na.ts\n")
        #expect(huge.playlist.targetDuration == 0)
    }

    @Test func wholeSecondsNeverTraps() {
        #expect(PlaylistLimits.wholeSeconds(.nan) == 0)
        #expect(PlaylistLimits.wholeSeconds(.infinity) == 86_400)
        #expect(PlaylistLimits.wholeSeconds(-1e300) == -86_400)
        #expect(PlaylistLimits.wholeSeconds(5.5) == 6)
    }
}
