import HLS
@testable import Stitching

/// A synthetic live origin for tests: 6 s segments, a discontinuity every 10 segments (a loop
/// point), program date-times, and `EXT-X-CUE-OUT`/`-CONT`/`-IN` breaks where the test says.
struct LiveChannelFixture {
    struct Break {
        var start: Int
        var planned: Double
        /// The segment carrying `EXT-X-CUE-IN`; nil for none.
        var returnAt: Int?
    }

    /// A cue date range written before its start: on segment `carriedAt`, `START-DATE` at
    /// segment `start`'s program date-time.
    struct DateRangeAhead {
        var id: String
        var carriedAt: Int
        var start: Int
        var planned: Double
    }

    var breaks: [Break] = []
    var dateRangesAhead: [DateRangeAhead] = []
    var windowSize = 6
    var segmentDuration = 6.0
    var epoch = 1_800_000_000.0
    var cues = true

    func window(_ rendition: String, last: Int) -> MediaPlaylist {
        let first = max(0, last - windowSize + 1)
        var discontinuities = 0
        if first > 0 { for k in 1..<first where k % 10 == 0 { discontinuities += 1 } }
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(Int(segmentDuration.rounded(.up)))\n"
        text += "#EXT-X-MEDIA-SEQUENCE:\(first)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuities)\n"
        for k in first...last {
            if k % 10 == 0 && k > 0 { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: epoch + Double(k) * segmentDuration).text)\n"
            for item in dateRangesAhead where item.carriedAt == k {
                let start = DateTime(secondsSince1970: epoch + Double(item.start) * segmentDuration).text
                text +=
                    "#EXT-X-DATERANGE:ID=\"\(item.id)\",START-DATE=\"\(start)\",PLANNED-DURATION=\(item.planned),SCTE35-OUT=\(Self.spliceOut)\n"
            }
            if cues {
                for item in breaks {
                    if k == item.start { text += "#EXT-X-CUE-OUT:\(item.planned)\n" }
                    let end = item.returnAt ?? (item.start + Int((item.planned / segmentDuration).rounded(.up)))
                    if k > item.start && k < end {
                        text +=
                            "#EXT-X-CUE-OUT-CONT:ElapsedTime=\(Double(k - item.start) * segmentDuration),Duration=\(item.planned)\n"
                    }
                    if k == item.returnAt { text += "#EXT-X-CUE-IN\n" }
                }
            }
            text += "#EXTINF:\(segmentDuration),\nhttps://origin.example/\(rendition)/seg_\(k).ts\n"
        }
        guard let playlist = try? MediaPlaylist(parsing: text) else {
            fatalError("fixture playlist does not parse:\n\(text)")
        }
        return playlist
    }

    /// A splice_insert out (from the HLS draft's SCTE-35 example).
    static let spliceOut =
        "0xFC002F0000000000FF000014056FFFFFF000E011622DCAFF000052636200000000000A0008029896F50000008700000000"

    static func ad(_ name: String, _ rendition: String, _ durations: [Double]) -> MediaPlaylist {
        MediaPlaylist(
            version: 3, targetDuration: 5, playlistType: .vod,
            segments: durations.enumerated().map {
                MediaSegment(uri: "https://ads.example/\(name)/\(rendition)/\($0.offset).ts", duration: $0.element)
            },
            endList: true)
    }

    static func slate(_ rendition: String) -> MediaPlaylist {
        ad("slate", rendition, Array(repeating: 1, count: 10))
    }
}
