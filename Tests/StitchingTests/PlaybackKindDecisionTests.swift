import Testing
import HLS
@testable import Stitching

/// VOD or live for a title as a whole: the video decides; a disagreeing rendition is a warning.
@Suite struct PlaybackKindDecisionTests {
    static func title(_ folder: String, master: String) throws -> (MultivariantPlaylist, [String: MediaPlaylist]) {
        let multivariant = try SpliceVectors.multivariant(folder + "/" + master)
        return (multivariant, try SpliceVectors.playlists(of: multivariant, in: folder))
    }

    @Test(
        "hls_subtitles: a subtitle playlist without EXT-X-ENDLIST next to finished video is still VOD, with a warning")
    func unfinishedSubtitlesStayVOD() throws {
        // The vector itself: hls_subtitles/hls1/sub.m3u8 has neither EXT-X-ENDLIST nor
        // EXT-X-PLAYLIST-TYPE; video.m3u8 has both. No edit was needed.
        let (multivariant, playlists) = try Self.title("hls_subtitles/hls1", master: "index.m3u8")
        #expect(playlists.count == 2)
        #expect(playlists["sub.m3u8"]?.isFinished == false)
        #expect(playlists["video.m3u8"]?.isFinished == true)
        // The rule before (every rendition finished) would have made this title live.
        let everyRenditionFinished = playlists.values.allSatisfy { $0.isFinished }
        #expect(!everyRenditionFinished)

        let decision = PlaybackKindDecision.decide(multivariant: multivariant, playlists: playlists)
        #expect(decision.kind == .vod)
        #expect(decision.warnings.count == 1)
        #expect(decision.warnings.first?.contains("sub.m3u8") == true)
        #expect(decision.warnings.first?.contains("subtitles rendition \"French\"") == true)
    }

    @Test("a demuxed VOD title with every playlist finished is VOD without warnings")
    func finishedTitle() throws {
        let (multivariant, playlists) = try Self.title("demux/hls3_v_a_s", master: "master.m3u8")
        #expect(playlists.count == 4)
        let decision = PlaybackKindDecision.decide(multivariant: multivariant, playlists: playlists)
        #expect(decision == PlaybackKindDecision(kind: .vod, warnings: []))
    }

    @Test("unfinished video is live, even when its audio playlist is finished (warned)")
    func unfinishedVideoIsLive() throws {
        var (multivariant, playlists) = try Self.title("demux/hls3_v_a_s", master: "master.m3u8")
        // Derived: the video variants as a live packager would list them (no ENDLIST, no type).
        for uri in ["index_0_v.m3u8", "index_1_v.m3u8"] {
            playlists[uri]?.endList = false
            playlists[uri]?.playlistType = nil
        }
        playlists["index_sub.m3u8"]?.endList = false
        playlists["index_sub.m3u8"]?.playlistType = nil
        let decision = PlaybackKindDecision.decide(multivariant: multivariant, playlists: playlists)
        #expect(decision.kind == .live)
        #expect(decision.warnings.count == 1)
        #expect(decision.warnings.first?.contains("index_audio.m3u8") == true)
        multivariant.variants.removeAll()
        #expect(
            PlaybackKindDecision.decide(multivariant: multivariant, playlists: playlists).kind == .vod,
            "without variants, the first rendition (the finished audio) decides")
    }

    @Test("a title that is one media playlist is decided by it")
    func mediaPlaylistTitle() throws {
        let finished = try SpliceVectors.media("hls_subtitles/hls1/video.m3u8")
        let open = try SpliceVectors.media("hls_subtitles/hls1/sub.m3u8")
        #expect(PlaybackKindDecision.decide(mediaPlaylist: finished).kind == .vod)
        #expect(PlaybackKindDecision.decide(mediaPlaylist: open).kind == .live)
    }
}
