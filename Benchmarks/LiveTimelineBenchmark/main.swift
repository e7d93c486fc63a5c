// What one live playlist reload costs in the session engine, for instruction counting:
// `LiveTimeline.advance` with the reference window (breaks decided at once) and
// `LiveWindowRenderer.render` of one rendition — the pure part of every viewer's every reload,
// without HTTP. Usage: LiveTimelineBenchmark --segments N [--reloads-per-segment R] [--encodes E]
//   [--encoder streaming|foundation]
// Prints one JSON line with a checksum (segments rendered), so two builds can be compared:
//   valgrind --tool=callgrind --toggle-collect='*runReloads*' LiveTimelineBenchmark --segments 600
// With `--encodes E`, the timeline as it ends is then written E times as a session record writes
// it (sorted keys: a live session's record on PostgreSQL, written at each break's decision and
// end), with the bytes' length and a hash of them; `--encoder` picks the records' encoder
// (`StreamingJSONEncoder`, the default) or Foundation's `JSONEncoder` as records were written before:
//   valgrind --tool=callgrind --toggle-collect='*runEncodes*' LiveTimelineBenchmark --segments 60 --encodes 200
import Foundation
import HLS
import Stitching

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let value = Int(arguments[index + 1]) else { return fallback }
    return value
}
let segments = option("--segments", 600)
let reloadsPerSegment = option("--reloads-per-segment", 3)
let encodes = option("--encodes", 0)
let encoderName = arguments.firstIndex(of: "--encoder").map { $0 + 1 < arguments.count ? arguments[$0 + 1] : "" } ?? "streaming"
guard encoderName == "streaming" || encoderName == "foundation" else {
    fatalError("--encoder takes streaming or foundation, not \"\(encoderName)\"")
}
let foundationEncoder = encoderName == "foundation"

/// The origin's window ending at segment `last`: 6 segments of 6 s with program date-times, a
/// 30 s break cued every 40 segments (CUE-OUT, CUE-OUT-CONT, CUE-IN), a discontinuity every 100.
func window(_ rendition: String, last: Int) -> MediaPlaylist {
    let first = max(0, last - 5)
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
    text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(first / 100)\n"
    for k in first...last {
        if k % 100 == 0 && k > 0 { text += "#EXT-X-DISCONTINUITY\n" }
        text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: 1_800_000_000 + Double(k) * 6).text)\n"
        let phase = k % 40
        if phase == 10 { text += "#EXT-X-CUE-OUT:30\n" }
        if phase > 10 && phase < 15 { text += "#EXT-X-CUE-OUT-CONT:ElapsedTime=\(Double(phase - 10) * 6),Duration=30\n" }
        if phase == 15 { text += "#EXT-X-CUE-IN\n" }
        text += "#EXTINF:6.0,\nhttps://origin.example/\(rendition)/seg_\(k).ts\n"
    }
    guard let playlist = try? MediaPlaylist(parsing: text) else { fatalError("window \(last) does not parse") }
    return playlist
}

func ad(_ name: String, _ durations: [Double]) -> MediaPlaylist {
    MediaPlaylist(version: 3, targetDuration: 5, playlistType: .vod,
                  segments: durations.enumerated().map { MediaSegment(uri: "https://ads.example/\(name)/\($0.offset).ts", duration: $0.element) },
                  endList: true)
}

let adDurations: [[Double]] = [[5, 5], [5, 5, 5]]
let media = LiveBreakMedia(ads: [ad("ad0", adDurations[0]), ad("ad1", adDurations[1])], slate: ad("slate", Array(repeating: 1, count: 10)))
let windows = (5..<(5 + segments)).map { window("v0", last: $0) }

/// Every reload of one session over `windows`: advance, decide any break at once, render.
@inline(never)
func runReloads(_ windows: [MediaPlaylist], reloads: Int) -> (listed: Int, timeline: LiveTimeline) {
    var timeline = LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6))
    var listed = 0
    for window in windows {
        for _ in 0..<reloads {
            while case .needsDecision(let pending) = timeline.advance(with: window) {
                timeline.resolve(breakNumber: pending.number,
                                 layout: LiveBreakLayout.make(breakDuration: pending.duration, ads: adDurations, slate: Array(repeating: 1, count: 10)))
            }
            let playlist = LiveWindowRenderer.render(timeline, window: window, targetDuration: 6, media: { _ in media })
            listed &+= playlist.segments.count &+ playlist.mediaSequence
        }
    }
    return (listed, timeline)
}

/// `timeline` written `count` times as a session record writes it; the last bytes.
@inline(never)
func runEncodes(_ timeline: LiveTimeline, count: Int) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var bytes: [UInt8] = []
    for _ in 0..<count {
        if foundationEncoder {
            guard let data = try? encoder.encode(timeline) else { fatalError("the timeline does not encode") }
            bytes = Array(data)
        } else {
            guard let data = try? StreamingJSONEncoder().encode(timeline) else { fatalError("the timeline does not encode") }
            bytes = data
        }
    }
    return bytes
}

let (listed, timeline) = runReloads(windows, reloads: reloadsPerSegment)
var line = "{\"segments\":\(segments),\"reloads\":\(segments * reloadsPerSegment),\"checksum\":\(listed)"
if encodes > 0 {
    let bytes = runEncodes(timeline, count: encodes)
    // FNV-1a: the same bytes give the same hash in every build.
    let hash = bytes.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    line += ",\"encoder\":\"\(foundationEncoder ? "foundation" : "streaming")\",\"encodes\":\(encodes),\"recordBytes\":\(bytes.count),\"recordHash\":\"\(String(hash, radix: 16))\""
}
print(line + "}")
