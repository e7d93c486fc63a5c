import DASH
import Foundation
import HLS
import Testing

@testable import Stitching

/// Conditioning for DASH titles: the title's first period read as the HLS title conditioning
/// knows (ladder, segments, initialization sections), and a conditioned creative read back as an
/// ad MPD. No network, no ffmpeg.
@Suite struct DASHConditioningTests {
    static let url = "http://origin.test/media/content/dash/manifest.mpd"

    static func demoTitle() throws -> MPD {
        let file = try #require(
            Bundle.module.url(forResource: "ffmpeg-demo-content", withExtension: "mpd", subdirectory: "Resources/dash"))
        return try MPD(parsing: try String(contentsOf: file, encoding: .utf8))
    }

    @Test func aDASHTitleReadsAsTheHLSTitleConditioningKnows() throws {
        let content = try #require(DASHConditioning.contentSet(try Self.demoTitle(), url: Self.url))
        let variants = content.multivariant.variants
        // The representations' bandwidths plus the audio's, as the HLS master declares its rungs.
        #expect(variants.map(\.bandwidth) == [466_400, 906_400, 1_676_400])
        #expect(
            variants.map(\.codecs) == [
                ["avc1.4d401e", "mp4a.40.2"], ["avc1.4d401f", "mp4a.40.2"], ["avc1.4d401f", "mp4a.40.2"],
            ])
        #expect(
            variants.map { $0.resolution.map { "\($0.width)x\($0.height)" } } == ["640x360", "960x540", "1280x720"])
        #expect(variants.map(\.frameRate) == [25, 25, 25])
        let audio = try #require(content.multivariant.renditions.first { $0.type == .audio })
        #expect(audio.attributes.string("CHANNELS") == "2")
        let video = try #require(content.renditions.first { $0.key == RenditionKey(.variant, 0) }?.playlist)
        #expect(video.segments.count == 10)
        #expect(video.segments.first?.uri == "http://origin.test/media/content/dash/v0-001.m4s")
        #expect(video.segments.first?.map?.uri == "http://origin.test/media/content/dash/init-v0.m4s")
        #expect(abs(video.duration - 60) < 0.001)
        let sound = try #require(content.renditions.first { $0.kind == .audio }?.playlist)
        #expect(sound.segments.last?.uri == "http://origin.test/media/content/dash/a-010.m4s")
        #expect(content.playback.kind == .vod)
    }

    /// A conditioned creative as conditioning writes it: fragmented MP4, zero-padded numbers.
    static func conditioned(
        segment: (Int) -> String = { String(format: "segment%03d.m4s", $0) }, map: Bool = true, audio: Bool = true
    ) throws -> AdCreative {
        let base = "http://seam.test/v1/conditioned/c1/"
        var multivariant = "#EXTM3U\n#EXT-X-VERSION:7\n"
        if audio {
            multivariant +=
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio\",NAME=\"en\",LANGUAGE=\"en\",CHANNELS=\"2\",URI=\"a0/index.m3u8\"\n"
        }
        for (number, size) in ["640x360", "1280x720"].enumerated() {
            multivariant +=
                "#EXT-X-STREAM-INF:BANDWIDTH=\(466_400 * (number + 1)),CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=\(size),FRAME-RATE=25\(audio ? ",AUDIO=\"audio\"" : "")\nv\(number)/index.m3u8\n"
        }
        func media(_ folder: String) -> String {
            var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            if map { text += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
            for (index, length) in [6.0, 6.0, 3.0].enumerated() { text += "#EXTINF:\(length),\n\(segment(index))\n" }
            return text + "#EXT-X-ENDLIST\n"
        }
        var parsed = try MultivariantPlaylist(parsing: multivariant)
        parsed.resolveURIs(against: base + "master.m3u8")
        var playlists: [String: MediaPlaylist] = [:]
        for folder in ["v0", "v1"] + (audio ? ["a0"] : []) {
            var playlist = try MediaPlaylist(parsing: media(folder))
            playlist.resolveURIs(against: base + folder + "/index.m3u8")
            playlists[base + folder + "/index.m3u8"] = playlist
        }
        return AdCreative(
            url: base + "master.m3u8", catalog: AdMediaCatalog(multivariant: parsed, playlists: playlists))
    }

    @Test func aConditionedCreativeReadsBackAsAnAdMPD() throws {
        let mpd = try DASHConditioning.creativeMPD(try Self.conditioned()).get()
        #expect(mpd.mediaPresentationDuration == 15)
        let period = try #require(mpd.periods.first)
        #expect(period.adaptationSets.map(\.contentType) == ["video", "audio"])
        let video = period.adaptationSets[0].representations
        #expect(video.map(\.id) == ["v0", "v1"])
        #expect(video.map(\.codecs) == ["avc1.4d401f", "avc1.4d401f"])
        #expect(video.map(\.width) == [640, 1280])
        let template = try #require(video.first?.segmentTemplate)
        #expect(template.initialization == "http://seam.test/v1/conditioned/c1/v0/init.mp4")
        #expect(
            template.segments(representationID: "v0", bandwidth: nil, periodDuration: 15).map(\.url) == [
                "http://seam.test/v1/conditioned/c1/v0/segment000.m4s",
                "http://seam.test/v1/conditioned/c1/v0/segment001.m4s",
                "http://seam.test/v1/conditioned/c1/v0/segment002.m4s",
            ])
        let audio = period.adaptationSets[1]
        #expect(audio.lang == "en")
        #expect(audio.codecs == "mp4a.40.2")
        // It fits the demo title as any ad MPD does.
        guard
            case .success(let fit) = DASHCreativeFit.fit(
                mpd, url: "http://seam.test/c1.mpd", content: try Self.demoTitle())
        else {
            Issue.record("the conditioned creative does not fit the title it was conditioned for")
            return
        }
        #expect(fit.pairs.count == 2)
    }

    @Test func whatCannotBeAnMPDIsUnusableSayingWhy() throws {
        let cases: [(AdCreative, String)] = [
            (try Self.conditioned(map: false), "not fragmented MP4"),
            (try Self.conditioned(audio: false), "inside the video segments"),
            (
                try Self.conditioned(segment: { ["segment000.m4s", "segment002.m4s", "segment001.m4s"][$0] }),
                "not numbered in order"
            ),
        ]
        for (creative, words) in cases {
            guard case .failure(.unusable(let why)) = DASHConditioning.creativeMPD(creative) else {
                Issue.record("expected \(words)")
                continue
            }
            #expect(why.contains(words), "\(why)")
        }
    }

    /// The origin's numbers never trap: a bandwidth of Int.max with its audio's, a segment as long
    /// as UInt64 allows.
    @Test func hostileNumbersSaturate() throws {
        let file = try #require(
            Bundle.module.url(forResource: "ffmpeg-demo-content", withExtension: "mpd", subdirectory: "Resources/dash"))
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: #"bandwidth="440000""#, with: #"bandwidth="9223372036854775807""#)
            .replacingOccurrences(of: #"<S t="0" d="76800" r="9" />"#, with: #"<S t="0" d="18446744073709551615" />"#)
        let mpd = try MPD(parsing: text)
        _ = DASHConditioning.contentSet(mpd, url: Self.url)
        let filter = RenditionFilter(maxBandwidth: 1_000_000)
        // 360p now claims Int.max, 720p is over: 540p alone passes.
        #expect(filter.admittedVideo(in: mpd).admitted == 1)
        _ = filter.filtered(mpd)
    }
}
