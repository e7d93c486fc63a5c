import Testing
import HLS
@testable import Stitching

/// Ad subtitles: an ad's own subtitle rendition in the content's language is kept; empty cues
/// only when it has none.
@Suite struct AdSubtitlePickerTests {
    static let emptyCue = "https://seam/v1/assets/empty.vtt"

    static func subtitles(
        _ multivariant: MultivariantPlaylist, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Rendition {
        try #require(multivariant.renditions.first { $0.type == .subtitles }, sourceLocation: sourceLocation)
    }

    @Test("a CMAF ad with Swedish subtitles keeps them in the content's Swedish subtitle rendition")
    func adSubtitlesAreKept() throws {
        let content = try SpliceVectors.multivariant("demux_n_cmaf/hls1_demux_cmaf_subs/master.m3u8")
        let ad = try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs")
        #expect(ad.subtitles.count == 1)
        let rendition = try Self.subtitles(content)
        let choice = AdSubtitlePicker.choice(for: rendition, in: ad)
        #expect(choice.option?.rendition.uri == "textstream_1.m3u8")

        let adVideo = try #require(ad.variants.first?.playlist)
        let playlist = AdSubtitlePicker.playlist(for: rendition, in: ad, adVideo: adVideo, emptyCueURI: Self.emptyCue)
        #expect(playlist.segments.map(\.uri) == (1...4).map { "ad/textstream_1-\($0).vtt" })
        #expect(playlist.duration == adVideo.duration)

        // Spliced into the content's subtitles after 30 s: the ad's cues play, no empty cue.
        let contentSubtitles = try SpliceVectors.media("demux_n_cmaf/hls1_demux_cmaf_subs/textstream_1.m3u8")
        let stitched = VODSplicer.splice(
            content: contentSubtitles, pods: [SplicedPod(segmentIndex: 10, ads: [SplicedAd(playlist: playlist)])],
            targetDuration: 3)
        #expect(
            stitched.segments.map(\.uri)[8...15] == [
                "textstream_1-9.vtt", "textstream_1-10.vtt", "ad/textstream_1-1.vtt", "ad/textstream_1-2.vtt",
                "ad/textstream_1-3.vtt", "ad/textstream_1-4.vtt", "textstream_1-11.vtt", "textstream_1-12.vtt",
            ])
        #expect(!stitched.segments.contains { $0.uri == Self.emptyCue })
        #expect(stitched.duration == contentSubtitles.duration + 12)
    }

    @Test("hls_subtitles: the French ad subtitles play in the French content rendition, and end")
    func frenchSubtitles() throws {
        let content = try SpliceVectors.multivariant("hls_subtitles/hls1/index.m3u8")
        let ad = try SpliceVectors.catalog("hls_subtitles/ad1_subs", master: "index.m3u8")
        let rendition = try Self.subtitles(content)
        #expect(rendition.language == "fr")
        let adVideo = try #require(ad.variants.first?.playlist)
        // The vector's ad subtitle playlist has no EXT-X-ENDLIST; the spliced copy is finished like its ad.
        #expect(ad.subtitles.first?.playlist.isFinished == false)
        let playlist = AdSubtitlePicker.playlist(for: rendition, in: ad, adVideo: adVideo, emptyCueURI: Self.emptyCue)
        #expect(playlist.segments.map(\.uri) == ["ad0.webvtt", "ad1.webvtt"])
        #expect(playlist.isFinished)
    }

    @Test("an ad without subtitles in the content's language gets empty cues for its length")
    func otherLanguageGetsEmptyCues() throws {
        // The French content of hls_subtitles against the Swedish-subtitled CMAF ad.
        let content = try SpliceVectors.multivariant("hls_subtitles/hls1/index.m3u8")
        let ad = try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs")
        let rendition = try Self.subtitles(content)
        guard case .emptyCues = AdSubtitlePicker.choice(for: rendition, in: ad) else {
            Issue.record("Swedish ad subtitles chosen for a French rendition")
            return
        }
        let adVideo = try #require(ad.variants.first?.playlist)
        let playlist = AdSubtitlePicker.playlist(for: rendition, in: ad, adVideo: adVideo, emptyCueURI: Self.emptyCue)
        #expect(playlist.segments.map(\.uri) == Array(repeating: Self.emptyCue, count: 4))
        #expect(playlist.segments.map(\.duration) == adVideo.segments.map(\.duration))
        #expect(playlist.isFinished)
    }

    @Test("an ad with no subtitle rendition at all gets empty cues")
    func noSubtitlesGetEmptyCues() throws {
        let content = try SpliceVectors.multivariant("demux/hls3_v_a_s/master.m3u8")
        let ad = try SpliceVectors.catalog("demux/ad1")
        #expect(ad.subtitles.isEmpty)
        guard case .emptyCues = AdSubtitlePicker.choice(for: try Self.subtitles(content), in: ad) else {
            Issue.record("a subtitle rendition chosen from an ad that has none")
            return
        }
    }

    @Test("a regional tag takes the ad's subtitles of the same language; a forced track does not take full subtitles")
    func languageTagAndForced() throws {
        let ad = try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs")
        // Derived: the content's LANGUAGE written as a regional tag.
        let regional = try MultivariantPlaylist(
            parsing: SpliceVectors.edited(
                try SpliceVectors.text("demux_n_cmaf/hls1_demux_cmaf_subs/master.m3u8"),
                #"TYPE=SUBTITLES,GROUP-ID="textstream",NAME="sv",LANGUAGE="sv""#,
                #"TYPE=SUBTITLES,GROUP-ID="textstream",NAME="sv",LANGUAGE="SV-se""#))
        #expect(
            AdSubtitlePicker.choice(for: try Self.subtitles(regional), in: ad).option?.rendition.uri
                == "textstream_1.m3u8")
        // Derived: the content's subtitles marked FORCED=YES.
        let forced = try MultivariantPlaylist(
            parsing: SpliceVectors.edited(
                try SpliceVectors.text("demux_n_cmaf/hls1_demux_cmaf_subs/master.m3u8"),
                #"TYPE=SUBTITLES,GROUP-ID="textstream","#, #"TYPE=SUBTITLES,FORCED=YES,GROUP-ID="textstream","#))
        #expect(AdSubtitlePicker.choice(for: try Self.subtitles(forced), in: ad).option == nil)
    }

    @Test("ad subtitles that end before the ad's video are padded with an empty cue to its length")
    func shortSubtitlesArePadded() throws {
        let content = try SpliceVectors.multivariant("demux_n_cmaf/hls1_demux_cmaf_subs/master.m3u8")
        var ad = try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs")
        // Derived: the ad's subtitle playlist without its last 3 s segment.
        ad.subtitles[0].playlist.segments.removeLast()
        let adVideo = try #require(ad.variants.first?.playlist)
        let playlist = AdSubtitlePicker.playlist(
            for: try Self.subtitles(content), in: ad, adVideo: adVideo, emptyCueURI: Self.emptyCue)
        #expect(
            playlist.segments.map(\.uri) == [
                "ad/textstream_1-1.vtt", "ad/textstream_1-2.vtt", "ad/textstream_1-3.vtt", Self.emptyCue,
            ])
        #expect(playlist.duration == 12)
    }

    @Test("ad subtitles that run longer than the ad's video give way to empty cues, so later cues stay in time")
    func longSubtitlesGiveWayToEmptyCues() throws {
        let content = try SpliceVectors.multivariant("demux_n_cmaf/hls1_demux_cmaf_subs/master.m3u8")
        var ad = try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs")
        // Derived: one more 3 s segment on the ad's subtitles than its video lasts.
        ad.subtitles[0].playlist.segments.append(MediaSegment(uri: "ad/textstream_1-4.vtt", duration: 3))
        let adVideo = try #require(ad.variants.first?.playlist)
        let playlist = AdSubtitlePicker.playlist(
            for: try Self.subtitles(content), in: ad, adVideo: adVideo, emptyCueURI: Self.emptyCue)
        #expect(playlist.segments.allSatisfy { $0.uri == Self.emptyCue })
        #expect(abs(playlist.duration - adVideo.duration) < 0.001)
    }

    @Test("the loader's list of playlists to fetch includes the subtitle renditions")
    func loaderFetchesSubtitles() throws {
        let multivariant = try SpliceVectors.multivariant("demux_n_cmaf/ad1_demux_cmaf_subs/master.m3u8")
        #expect(
            AdMediaCatalog.mediaPlaylistURIs(of: multivariant) == ["video_1.m3u8", "audio_1.m3u8", "textstream_1.m3u8"])
    }
}
