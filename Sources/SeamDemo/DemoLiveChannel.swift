import SeamServer
import HLS
import SCTE35

/// The demo origin's live channel: the sample title looped forever as a sliding window, with an
/// ad break every 42 s marked in the cue dialect the URL asks for.
///
/// A pure function of the clock: segment `k` (its `EXT-X-MEDIA-SEQUENCE` number) started at
/// `epoch + 6·k`, plays sample segment `k % 10`, and every number in a window follows from `k`,
/// so any two reloads (and all renditions) agree without state, which is what Seam's live
/// stitching and `seam validate` check.
package struct DemoLiveChannel: Sendable, Hashable {
    /// Seconds per segment (the sample's 6.000 s segments).
    package static let segmentDuration = 6
    /// Segments in the sample title; the loop restarts timestamps, hence a discontinuity.
    package static let loopSegments = 10
    /// Complete segments in each window.
    package static let windowSegments = 6
    /// A break starts on every segment with `k % breakEvery == breakOffset`...
    package static let breakEvery = 7
    package static let breakOffset = 3
    /// ... and covers this many segments.
    package static let breakSegments = 4
    /// The break's planned duration in seconds (24).
    package static var breakDuration: Int { breakSegments * segmentDuration }

    /// When segment 0 started, in seconds since 1970.
    package var epoch: Double
    package var variants: [DemoLiveChannelVariant]

    package init(epoch: Double, variants: [DemoLiveChannelVariant] = DemoLiveChannelVariant.samples) {
        self.epoch = epoch
        self.variants = variants
    }

    // MARK: Timeline

    /// The media sequence numbers in the window at `now`: the newest complete segments. Nil
    /// before the first segment has completed.
    package func window(at now: Double) -> ClosedRange<Int>? {
        let elapsed = ((now - epoch) / Double(Self.segmentDuration)).rounded(.down)
        guard elapsed.isFinite, elapsed >= 1, elapsed < Double(Int.max / 2) else { return nil }
        let last = Int(elapsed) - 1
        return max(0, last - Self.windowSegments + 1)...last
    }

    /// Whether segment `k` starts a new pass over the sample (and so carries `EXT-X-DISCONTINUITY`).
    package static func isDiscontinuity(_ k: Int) -> Bool { k > 0 && k % loopSegments == 0 }

    /// `EXT-X-DISCONTINUITY-SEQUENCE` for a window starting at `k`: discontinuities before it.
    package static func discontinuitySequence(firstSegment k: Int) -> Int {
        k <= 0 ? 0 : (k - 1) / loopSegments
    }

    /// When segment `k` starts, in seconds since 1970.
    package func startTime(of k: Int) -> Double { epoch + Double(Self.segmentDuration * k) }

    package func programDateTime(of k: Int) -> DateTime { DateTime(secondsSince1970: startTime(of: k)) }

    /// Where segment `k` falls in the break schedule. A break's event id is its first segment's number.
    package static func breakPosition(of k: Int) -> DemoLiveChannelBreakPosition {
        guard k >= breakOffset else { return .content }
        let offset = (k - breakOffset) % breakEvery
        let start = k - offset
        let id = UInt32(truncatingIfNeeded: start)
        switch offset {
        case 0: return .start(eventID: id)
        case 1..<breakSegments: return .inside(eventID: id, elapsed: offset * segmentDuration)
        case breakSegments: return .end(eventID: id, startSegment: start)
        default: return .content
        }
    }

    // MARK: Playlists

    package func variant(_ rendition: String) -> DemoLiveChannelVariant? {
        variants.first { $0.rendition == rendition }
    }

    /// Segment `k` of `rendition`, an absolute path on the origin (the static sample files).
    package static func segmentURI(rendition: String, segment k: Int) -> String {
        let index = k % loopSegments
        return "/media/content/\(rendition)/seg_\(index < 10 ? "00" : "0")\(index).ts"
    }

    /// The multivariant playlist: every variant, URIs relative (`360p/index.m3u8`).
    package func multivariantPlaylist() -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for variant in variants { lines += variant.streamInfLines }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The live media playlist of `rendition` at `now`, nil for a rendition the channel does not
    /// have. Throws only if a cue could not be encoded (a bug, not an input problem).
    package func mediaPlaylist(
        rendition: String, dialect: DemoLiveChannelDialect,
        now: Double
    ) throws(SCTE35Error) -> String? {
        guard variant(rendition) != nil else { return nil }
        let window = window(at: now)
        let first = window?.lowerBound ?? 0
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:3",
            "#EXT-X-TARGETDURATION:\(Self.segmentDuration)",
            "#EXT-X-MEDIA-SEQUENCE:\(first)",
            "#EXT-X-DISCONTINUITY-SEQUENCE:\(Self.discontinuitySequence(firstSegment: first))",
        ]
        let cues = DemoLiveChannelCues(channel: self, dialect: dialect)
        for k in window.map(Array.init) ?? [] {
            if Self.isDiscontinuity(k) { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(programDateTime(of: k).text)")
            lines += try cues.lines(forSegment: k)
            lines.append("#EXTINF:\(Self.segmentDuration).000,")
            lines.append(Self.segmentURI(rendition: rendition, segment: k))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
