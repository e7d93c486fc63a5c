// A live reload in the session engine, HLS beside DASH, in one run on the same channel: 6 s
// segments in a six-segment window, a 24 s break every 42 s, filled by one 20 s ad of four 5 s
// segments; three video representations and one audio. Two costs, each HLS beside DASH:
//   a viewer's reload (the origin's window at hand, shared by the channel's viewers): the
//   session's timeline advanced on it (each break decided at once) and its answer written out —
//     HLS:  LiveTimeline.advance + LiveWindowRenderer.render + serialize (one rendition's
//           playlist: a player reloads one per rendition it plays)
//     DASH: LiveTimeline.advance + DASHLiveRenderer.render (ad periods from
//           DASHAdPeriod.fitted) + serialize (one MPD for every representation)
//   an origin refresh (once per refresh for all viewers): the window read from its text —
//     HLS:  MediaPlaylist(parsing:)        DASH: MPD(parsing:) + DASHLiveWindow.make
// Alternates HLS and DASH for `--rounds`, each for `--seconds`, and prints the best as JSON.
// Usage: LiveReloadBenchmark [--segments N] [--seconds S] [--rounds R]
import DASH
import Foundation
import HLS
import SCTE35
import Stitching

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Double) -> Double {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let value = Double(arguments[index + 1])
    else { return fallback }
    return value
}
let segments = Int(option("--segments", 300))
/// Reloads of each origin window: a player reloads about twice per segment, and the other
/// viewers of the channel reload the same window.
let reloadsPerWindow = Int(option("--reloads-per-window", 3))
let seconds = option("--seconds", 2)
let rounds = Int(option("--rounds", 3))
let epoch = 1_800_000_000.0

/// Channel segment `k` opens a break when `k % 7 == 3` (24 s, four segments).
func opensBreak(_ k: Int) -> Bool { k % 7 == 3 }

func hlsWindow(last: Int) -> String {
    let first = max(0, last - 5)
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
    for k in first...last {
        text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: epoch + Double(k) * 6).text)\n"
        if opensBreak(k) { text += "#EXT-X-CUE-OUT:24\n" }
        text += "#EXTINF:6.0,\nhttps://origin.example/live/v0/seg_\(k).ts\n"
    }
    return text
}

let splice =
    (try? SpliceInfoSectionEncoder().base64(.spliceInsert(.programOut(eventID: 1, breakDuration: 24 * 90_000)))) ?? ""

func mpdWindow(last: Int) -> String {
    let first = max(0, last - 5)
    var events = ""
    for k in max(0, first - 4)...last where opensBreak(k) {
        events +=
            "<Event presentationTime=\"\(k * 6)\" duration=\"24\" id=\"\(k)\"><Signal xmlns=\"http://www.scte.org/schemas/35/2016\"><Binary>\(splice)</Binary></Signal></Event>"
    }
    let timeline = "<SegmentTimeline><S t=\"\(first * 540_000)\" d=\"540000\" r=\"\(last - first)\"/></SegmentTimeline>"
    var video = ""
    for (id, bandwidth, height) in [("360", 600_000, 360), ("540", 1_200_000, 540), ("720", 2_400_000, 720)] {
        video +=
            "<Representation id=\"\(id)\" bandwidth=\"\(bandwidth)\" width=\"\(height * 16 / 9)\" height=\"\(height)\"/>"
    }
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011" availabilityStartTime="\(DateTime(secondsSince1970: epoch).text)" publishTime="\(DateTime(secondsSince1970: epoch + Double(last + 1) * 6).text)" minimumUpdatePeriod="PT6S" timeShiftBufferDepth="PT36S" minBufferTime="PT6S">
        <Period id="p0" start="PT0S"><EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="1">\(events)</EventStream>
        <AdaptationSet id="1" contentType="video" mimeType="video/mp4" codecs="avc1.4d401f" segmentAlignment="true"><SegmentTemplate timescale="90000" initialization="v-$RepresentationID$/init.mp4" media="v-$RepresentationID$/$Number$.m4s" startNumber="\(first + 1)">\(timeline)</SegmentTemplate>\(video)</AdaptationSet>
        <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en"><SegmentTemplate timescale="90000" initialization="a/init.mp4" media="a/$Number$.m4s" startNumber="\(first + 1)">\(timeline)</SegmentTemplate><Representation id="a" bandwidth="128000"/></AdaptationSet>
        </Period></MPD>
        """
}

let adMPD = """
    <?xml version="1.0"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT20S"><Period id="0">
    <AdaptationSet contentType="video" mimeType="video/mp4" codecs="avc1.4d401f"><SegmentTemplate timescale="12800" initialization="v$RepresentationID$/init.mp4" media="v$RepresentationID$/$Number$.m4s" startNumber="1"><SegmentTimeline><S t="0" d="64000" r="3"/></SegmentTimeline></SegmentTemplate><Representation id="0" bandwidth="600000" width="640" height="360"/><Representation id="1" bandwidth="1200000" width="960" height="540"/><Representation id="2" bandwidth="2400000" width="1280" height="720"/></AdaptationSet>
    <AdaptationSet contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en"><SegmentTemplate timescale="48000" initialization="a/init.mp4" media="a/$Number$.m4s" duration="240000" startNumber="1"/><Representation id="a" bandwidth="128000"/></AdaptationSet>
    </Period></MPD>
    """

let hlsTexts = (5..<(5 + segments)).map { hlsWindow(last: $0) }
let mpdTexts = (5..<(5 + segments)).map { mpdWindow(last: $0) }
guard let firstMPD = try? MPD(parsing: mpdTexts[0]), let ad = try? MPD(parsing: adMPD),
    case .success(let fit) = DASHCreativeFit.fit(
        ad, url: "https://ads.example/ad/ad.mpd", content: firstMPD, cuePoint: -1)
else { fatalError("the benchmark's MPDs do not read") }
let adDurations = [[5.0, 5, 5, 5]]
let adPlaylist = MediaPlaylist(
    version: 3, targetDuration: 5, playlistType: .vod,
    segments: (0..<4).map { MediaSegment(uri: "https://ads.example/ad/v0/\($0).ts", duration: 5) }, endList: true)
let media = LiveBreakMedia(ads: [adPlaylist], slate: nil)
let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "s1")
/// As a live channel shares them (`LiveChannel.dashAdPeriod`): written once per listing with
/// placeholder URLs, then given each session's id and route.
let placeholders = SessionURLs(baseURL: "seam-placeholder:", sessionID: "live")
/// As a live channel shares its content periods between the viewers of one origin MPD.
let contentPeriods = DASHLiveRenderer.ContentPeriodCache()
nonisolated(unsafe) var sharedAdPeriods: [Double: XMLElement] = [:]
func adPeriod(_ number: Int, _ ad: Int, _ id: String, _ listed: Double) -> XMLElement? {
    let shared =
        sharedAdPeriods[listed]
        ?? DASHAdPeriod.fitted(fit, id: "", pod: 0, ad: 0, mode: .server, urls: placeholders, listing: listed).element
    sharedAdPeriods[listed] = shared
    return DASHAdPeriod.personalized(
        shared, id: id, placeholder: placeholders.session + "/ad/0/0/", route: urls.session + "/ad/\(number)/\(ad)/")
}

let hlsWindows = hlsTexts.map { text -> MediaPlaylist in
    guard let window = try? MediaPlaylist(parsing: text) else { fatalError("HLS window") }
    return window
}
let dashWindows = mpdTexts.enumerated().map { index, text -> DASHLiveWindow in
    guard let mpd = try? MPD(parsing: text),
        case .success(let window) = DASHLiveWindow.make(
            mpd, url: "https://origin.example/live/manifest.mpd", now: epoch + Double(index + 6) * 6 + 1)
    else { fatalError("DASH window") }
    return window
}

/// One session over every window, `reloads` reloads each; returns bytes written (a checksum).
@inline(never)
func runHLS(_ reloads: Int) -> Int {
    var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
    var bytes = 0
    for window in hlsWindows {
        for _ in 0..<reloads {
            while case .needsDecision(let pending) = timeline.advance(with: window) {
                timeline.resolve(
                    breakNumber: pending.number,
                    layout: LiveBreakLayout.make(breakDuration: pending.duration, ads: adDurations, slate: nil))
            }
            let playlist = LiveWindowRenderer.render(timeline, window: window, targetDuration: 6, media: { _ in media })
            // The bytes as the server writes them (`withSerializedBytes`).
            bytes &+= playlist.withSerializedBytes { $0.count }
        }
    }
    return bytes
}

@inline(never)
func runDASH(_ reloads: Int) -> Int {
    var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
    var bytes = 0
    for window in dashWindows {
        for _ in 0..<reloads {
            while case .needsDecision(let pending) = timeline.advance(with: window.reference) {
                timeline.resolve(
                    breakNumber: pending.number,
                    layout: LiveBreakLayout.make(breakDuration: pending.duration, ads: adDurations, slate: nil))
            }
            guard
                case .success(let written) = DASHLiveRenderer.render(
                    timeline, window: window, contentPeriods: contentPeriods, adPeriod: adPeriod)
            else { fatalError("DASH render") }
            // The bytes as the server writes them (`serializedBytes`).
            bytes &+= written.serializedBytes().count
        }
    }
    return bytes
}

/// Every window read from its text once.
@inline(never)
func refreshHLS(_ reloads: Int) -> Int {
    var count = 0
    for text in hlsTexts {
        guard let window = try? MediaPlaylist(parsing: text) else { fatalError("HLS window") }
        count &+= window.segments.count
    }
    return count
}

@inline(never)
func refreshDASH(_ reloads: Int) -> Int {
    var count = 0
    for (index, text) in mpdTexts.enumerated() {
        guard let mpd = try? MPD(parsing: text),
            case .success(let window) = DASHLiveWindow.make(
                mpd, url: "https://origin.example/live/manifest.mpd", now: epoch + Double(index + 6) * 6 + 1)
        else { fatalError("DASH window") }
        count &+= window.reference.segments.count
    }
    return count
}

/// Microseconds per reload of the best pass of `run` within `seconds`.
func measure(_ run: (Int) -> Int, per count: Int) -> (microseconds: Double, bytes: Int) {
    var best = Double.infinity
    var bytes = 0
    let clock = ContinuousClock()
    let start = clock.now
    repeat {
        let began = clock.now
        bytes = run(reloadsPerWindow)
        let elapsed = clock.now - began
        let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        best = min(best, micros / Double(count))
    } while clock.now - start < .milliseconds(Int64(seconds * 1000))
    return (best, bytes / count)
}

var best: [String: Double] = [:]
var bytes: [String: Int] = [:]
for _ in 0..<rounds {
    let reloads = segments * reloadsPerWindow
    for (name, run, count) in [
        ("hls", runHLS, reloads), ("dash", runDASH, reloads), ("hls_refresh", refreshHLS, segments),
        ("dash_refresh", refreshDASH, segments),
    ] {
        let result = measure(run, per: count)
        best[name] = min(best[name] ?? .infinity, result.microseconds)
        bytes[name] = result.bytes
    }
}
let measured = best
let us = { (name: String) in String(format: "%.1f", measured[name] ?? 0) }
let ratio = { (a: String, b: String) in String(format: "%.2f", (measured[a] ?? 0) / (measured[b] ?? 1)) }
print(
    "{\"windows\":\(segments),\"reload_hls_us\":\(us("hls")),\"reload_dash_us\":\(us("dash")),\"reload_dash_over_hls\":\(ratio("dash", "hls")),\"refresh_hls_us\":\(us("hls_refresh")),\"refresh_dash_us\":\(us("dash_refresh")),\"refresh_dash_over_hls\":\(ratio("dash_refresh", "hls_refresh")),\"answer_bytes_hls\":\(bytes["hls"] ?? 0),\"answer_bytes_dash\":\(bytes["dash"] ?? 0)}"
)
