import Testing
import HLS
@testable import Stitching

/// The pieces together, as a VOD session would use them, on a whole demuxed title:
/// `demux/hls3_v_a_s` (two video variants, Norwegian audio and subtitles) with the ad
/// `demux/ad6` (video, Swedish audio and Swedish subtitles) at 300 s.
@Suite struct VectorReplayTests {
    static let emptyCue = "https://seam/v1/assets/empty.vtt"

    @Test(
        "every rendition gets the ad at one common time, its own ad media, and the same added length",
        arguments: [false, true])
    func demuxedTitleWithOneBreak(swedishSubtitles: Bool) throws {
        var masterText = try SpliceVectors.text("demux/hls3_v_a_s/master.m3u8")
        if swedishSubtitles {
            // Derived: the content's subtitles declared Swedish, so the ad's own (Swedish) are kept.
            masterText = SpliceVectors.edited(
                masterText, #"TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="no""#,
                #"TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="sv""#)
        }
        let content = try MultivariantPlaylist(parsing: masterText)
        let playlists = try SpliceVectors.playlists(of: content, in: "demux/hls3_v_a_s")
        let ad = try SpliceVectors.catalog("demux/ad6")
        #expect(PlaybackKindDecision.decide(multivariant: content, playlists: playlists).kind == .vod)

        // Renditions in the order a session lists them: variants (the reference first), then media.
        let variantURIs = content.variants.map(\.uri)
        let audio = try #require(content.renditions.first { $0.type == .audio })
        let subtitles = try #require(content.renditions.first { $0.type == .subtitles })
        let uris = variantURIs + [try #require(audio.uri), try #require(subtitles.uri)]
        let renditions = try uris.map { try #require(playlists[$0]) }
        let aligned = BreakAligner.align(cuePoint: 300, renditions: renditions)

        // Each rendition's ad media.
        let adVideo = try #require(
            CreativeMatcher.bestMatch(for: content.variants[0], among: ad.variants.map(\.stream)).map {
                ad.variants[$0].playlist
            })
        let adAudio = try AdAudioMatcher.match(rendition: audio, of: content, in: ad).get().playlist
        let adSubtitles = AdSubtitlePicker.playlist(
            for: subtitles, in: ad, adVideo: adVideo, emptyCueURI: Self.emptyCue)
        let adMedia = [adVideo, adVideo, adAudio, adSubtitles]
        #expect(adAudio.segments.map(\.uri) == ["ad6_0_audio.ts", "ad6_1_audio.ts"])
        #expect(
            adSubtitles.segments.map(\.uri)
                == (swedishSubtitles ? ["ad6_0_subs.vtt", "ad6_1_subs.vtt"] : [Self.emptyCue, Self.emptyCue]))

        let target = VODSplicer.targetDuration(covering: renditions + adMedia)
        var adStarts: [Double] = []
        for (number, rendition) in renditions.enumerated() {
            let stitched = VODSplicer.splice(
                content: rendition,
                pods: [
                    SplicedPod(
                        segmentIndex: aligned.segmentIndices[number],
                        ads: [SplicedAd(playlist: adMedia[number])])
                ],
                targetDuration: target)
            #expect(abs(stitched.duration - (rendition.duration + 10)) < 1e-6, "\(uris[number])")
            #expect(PlaylistValidator.validate(stitched.serialized()).isValid, "\(uris[number])")
            let firstAd = try #require(stitched.segments.firstIndex { $0.uri == adMedia[number].segments[0].uri })
            adStarts.append(stitched.segments.prefix(firstAd).reduce(0) { $0 + $1.duration })
        }
        // The ad starts where the aligner said, in every rendition, and no two renditions are
        // further apart than the offset it reports (1.36 s here; 2.706 s rendition by rendition).
        for (start, time) in zip(adStarts, aligned.contentTimes) { #expect(abs(start - time) < 1e-6) }
        #expect((adStarts.max() ?? 0) - (adStarts.min() ?? 0) <= aligned.worstOffset + 1e-6)
        #expect(aligned.worstOffset < 1.5)
    }
}
