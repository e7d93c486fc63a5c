import Foundation
import HLS
@testable import Stitching

/// A multivariant VOD title and ad creatives as parsed playlists, no network: two AVC variants,
/// an audio rendition and a subtitle rendition, each 10 segments of 6 s.
enum TitleFixture {
    static func media(
        _ prefix: String, count: Int, duration: Double, fmp4: Bool = false, extension ext: String = "ts"
    ) -> MediaPlaylist {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:\(fmp4 ? 7 : 3)\n#EXT-X-TARGETDURATION:\(Int(duration.rounded(.up)))\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        if fmp4 { text += "#EXT-X-MAP:URI=\"\(prefix)init.mp4\"\n" }
        for index in 0..<count { text += "#EXTINF:\(duration),\n\(prefix)\(index).\(ext)\n" }
        text += "#EXT-X-ENDLIST\n"
        guard let playlist = try? MediaPlaylist(parsing: text) else { fatalError("fixture does not parse:\n\(text)") }
        return playlist
    }

    static let multivariantText = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="https://origin.example/audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="https://origin.example/subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="https://origin.example/iframes.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,AUDIO="aud",SUBTITLES="subs"
        https://origin.example/360p/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aud",SUBTITLES="subs"
        https://origin.example/720p/index.m3u8

        """

    /// The title: keys `v0`, `v1`, `a0`, `s1` (index in the multivariant's own lists).
    static func title(fmp4: Bool = false) -> ContentSet {
        guard let multivariant = try? MultivariantPlaylist(parsing: multivariantText) else {
            fatalError("multivariant does not parse")
        }
        let renditions = ContentSet.wanted(in: multivariant).map { wanted -> ContentSet.Rendition in
            let prefix = wanted.uri.replacingOccurrences(of: "index.m3u8", with: "").replacingOccurrences(
                of: ".m3u8", with: "/")
            let ext = wanted.key.kind == .subtitles ? "vtt" : (fmp4 ? "m4s" : "ts")
            return ContentSet.Rendition(
                key: wanted.key, variant: wanted.variant, rendition: wanted.rendition,
                playlist: media(
                    prefix, count: 10, duration: 6, fmp4: fmp4 && wanted.key.kind != .subtitles, extension: ext),
                sourceURL: wanted.uri)
        }
        guard let content = ContentSet(multivariant: multivariant, renditions: renditions) else {
            fatalError("no renditions")
        }
        return content
    }

    static func stream(_ uri: String, bandwidth: Int, codecs: String, resolution: String? = nil) -> VariantStream {
        var text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),CODECS=\"\(codecs)\""
        if let resolution { text += ",RESOLUTION=\(resolution)" }
        text += "\n\(uri)\n"
        guard let stream = (try? MultivariantPlaylist(parsing: text))?.variants.first else {
            fatalError("stream does not parse")
        }
        return stream
    }

    /// A creative of two AVC variants (low, high), `segments` segments of `duration` s each.
    static func creative(
        _ name: String, segments: Int, duration: Double = 5, fmp4: Bool = false,
        codecs: String = "avc1.4d401e,mp4a.40.2"
    ) -> AdCreative {
        let ext = fmp4 ? "m4s" : "ts"
        let low = "https://ads.example/\(name)/low/"
        let high = "https://ads.example/\(name)/high/"
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=700000,CODECS="\(codecs)",RESOLUTION=640x360
            \(low)index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2500000,CODECS="\(codecs)",RESOLUTION=1280x720
            \(high)index.m3u8

            """
        guard let multivariant = try? MultivariantPlaylist(parsing: text) else { fatalError("creative does not parse") }
        let catalog = AdMediaCatalog(
            multivariant: multivariant,
            playlists: [
                low + "index.m3u8": media(low, count: segments, duration: duration, fmp4: fmp4, extension: ext),
                high + "index.m3u8": media(high, count: segments, duration: duration, fmp4: fmp4, extension: ext),
            ])
        return AdCreative(url: "https://ads.example/\(name)/master.m3u8", catalog: catalog)
    }

    static func ad(_ name: String, duration: Double) -> PlannedAd {
        PlannedAd(
            id: name, duration: duration, creativeURL: "https://ads.example/\(name)/master.m3u8", title: "Ad \(name)",
            beacons: [
                .impression: ["https://track.example/\(name)/imp"], .start: ["https://track.example/\(name)/start"],
                .firstQuartile: ["https://track.example/\(name)/q1"], .midpoint: ["https://track.example/\(name)/mid"],
                .thirdQuartile: ["https://track.example/\(name)/q3"], .complete: ["https://track.example/\(name)/done"],
            ])
    }
}
