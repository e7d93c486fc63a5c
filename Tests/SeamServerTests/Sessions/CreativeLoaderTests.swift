import Foundation
import HLS
import SeamTesting
import Stitching
import Testing
@testable import SeamServer

/// What `CreativeLoader` fetches of a multivariant creative: every variant, audio and subtitle
/// playlist `AdMediaCatalog.mediaPlaylistURIs` names, all counted against `AdCreative.maxRenditions`.
@Suite struct CreativeLoaderTests {
    static let media =
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4,\nseg.ts\n#EXT-X-ENDLIST\n"

    static func master(variants: Int, subtitles: Int) -> String {
        var text = "#EXTM3U\n"
        text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"en\",LANGUAGE=\"en\",URI=\"audio.m3u8\"\n"
        for index in 0..<subtitles {
            text +=
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"s\(index)\",LANGUAGE=\"l\(index)\",URI=\"subs\(index).m3u8\"\n"
        }
        for index in 0..<variants {
            text +=
                "#EXT-X-STREAM-INF:BANDWIDTH=\(500_000 + index),CODECS=\"avc1.4d401e,mp4a.40.2\",AUDIO=\"aac\",SUBTITLES=\"subs\"\nv\(index).m3u8\n"
        }
        return text
    }

    static func upstream(variants: Int, subtitles: Int) -> FakeUpstream {
        var routes: [String: FakeRoute] = [
            "https://ads.test/c/master.m3u8": .body(master(variants: variants, subtitles: subtitles)),
            "https://ads.test/c/audio.m3u8": .body(media),
        ]
        for index in 0..<variants { routes["https://ads.test/c/v\(index).m3u8"] = .body(media) }
        for index in 0..<subtitles {
            routes["https://ads.test/c/subs\(index).m3u8"] = .body(
                media.replacingOccurrences(of: "seg.ts", with: "cue.vtt"))
        }
        return FakeUpstream(routes)
    }

    /// These tests are about what is fetched, not about budgets: a deadline no stall of a loaded
    /// machine reaches (ten seconds once did, in a stress run).
    static var generous: ContinuousClock.Instant { .now + .seconds(120) }

    @Test("the creative's subtitle playlists are fetched with its variants and audio, URIs absolute")
    func subtitlesAreFetched() async throws {
        let upstream = Self.upstream(variants: 2, subtitles: 1)
        let result = await CreativeLoader(upstream: upstream).load(
            "https://ads.test/c/master.m3u8", deadline: Self.generous)
        let creative = try result.get()
        #expect(creative.catalog.variants.count == 2)
        #expect(creative.catalog.audio.map(\.playlist.segments.first?.uri) == ["https://ads.test/c/seg.ts"])
        #expect(creative.catalog.subtitles.map(\.playlist.segments.first?.uri) == ["https://ads.test/c/cue.vtt"])
        #expect(await upstream.recorder.urls.contains("https://ads.test/c/subs0.m3u8"))
    }

    @Test(
        "subtitle renditions count in the cap: 28 variants, the audio and 4 subtitles are 33, one too many; nothing more is fetched"
    )
    func subtitlesCountInTheCap() async throws {
        let upstream = Self.upstream(variants: 28, subtitles: 4)
        let result = await CreativeLoader(upstream: upstream).load(
            "https://ads.test/c/master.m3u8", deadline: Self.generous)
        guard case .failure(let error) = result else {
            Issue.record("a creative of 33 media playlists was loaded")
            return
        }
        #expect(error.description.contains("lists 33 renditions"), "\(error)")
        #expect(await upstream.recorder.urls == ["https://ads.test/c/master.m3u8"])
        // One subtitle fewer fits.
        #expect(
            (try? await CreativeLoader(upstream: Self.upstream(variants: 28, subtitles: 3))
                .load("https://ads.test/c/master.m3u8", deadline: Self.generous).get()) != nil)
    }
}
