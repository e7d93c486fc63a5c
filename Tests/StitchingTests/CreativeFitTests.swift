import HLS
import Testing
@testable import Stitching

@Suite struct CreativeFitTests {
    @Test func anotherContainerDoesNotPlay() {
        let reason = CreativeFit.incompatibility(
            of: TitleFixture.creative("F", segments: 2, fmp4: true), with: TitleFixture.title())
        #expect(reason == "creative is fMP4 but the content is not")
        let other = CreativeFit.incompatibility(
            of: TitleFixture.creative("T", segments: 2), with: TitleFixture.title(fmp4: true))
        #expect(other == "creative is MPEG-TS but the content is not")
    }

    @Test func noRenditionInTheContentsCodecsDoesNotPlay() {
        let hevc = TitleFixture.creative("H", segments: 2, codecs: "hvc1.1.6.L93.B0,mp4a.40.2")
        #expect(
            CreativeFit.incompatibility(of: hevc, with: TitleFixture.title())
                == "no creative rendition has the content's codecs")
    }

    @Test func aFittingCreativeGetsAPlaylistForEveryRendition() throws {
        let content = TitleFixture.title()
        let creative = TitleFixture.creative("OK", segments: 3)
        #expect(CreativeFit.incompatibility(of: creative, with: content) == nil)
        let playlists = CreativeFit.adPlaylists(
            creative: creative, content: content, emptySubtitleURI: "https://seam.example/v1/assets/empty.vtt")
        #expect(playlists.count == 4)
        #expect(playlists[RenditionKey(.variant, 0)]?.segments.first?.uri == "https://ads.example/OK/low/0.ts")
        #expect(playlists[RenditionKey(.variant, 1)]?.segments.first?.uri == "https://ads.example/OK/high/0.ts")
        #expect(playlists[RenditionKey(.audio, 0)]?.segments.first?.uri == "https://ads.example/OK/low/0.ts")
        let subtitles = try #require(playlists[RenditionKey(.subtitles, 1)])
        #expect(subtitles.segments.map(\.uri) == Array(repeating: "https://seam.example/v1/assets/empty.vtt", count: 3))
        #expect(subtitles.segments.map(\.duration) == [5, 5, 5])
    }

    @Test func liveRefusesSegmentsLongerThanThePublishedTargetAndSharesThePlaceholder() throws {
        let content = TitleFixture.title()
        guard
            case .unusable(let reason) = CreativeFit.live(
                TitleFixture.creative("L", segments: 2, duration: 7), in: content,
                targetDuration: 6, emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        else {
            Issue.record("a creative of 7 s segments fitted a 6 s stream")
            return
        }
        #expect(reason.contains("longer than the stream's target duration (6 s)"))
        guard
            case .usable(let playlists) = CreativeFit.live(
                TitleFixture.creative("S", segments: 2), in: content, targetDuration: 6,
                emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        else {
            Issue.record("a fitting creative was refused")
            return
        }
        #expect(playlists.count == 4)
        // Nothing in what a channel shares names one viewer's host.
        #expect(
            playlists[RenditionKey(.subtitles, 1)]?.segments.allSatisfy {
                $0.uri == SessionURLs.emptySubtitlesPlaceholder
            } == true)
    }
}
