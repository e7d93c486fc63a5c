import HLS
import SCTE35

/// The breaks a VOD title marks itself (`EXT-X-CUE-OUT`, `#EXT-OATCLS-SCTE35`, `EXT-X-DATERANGE`
/// with `SCTE35-OUT`): where they are and, when the marker says, how long.
public enum VODMarkers {
    public struct Marker: Sendable, Equatable {
        public var position: BreakPosition
        /// The planned duration the marker carries, if any.
        public var seconds: Double?
    }

    /// Most breaks one VOD session plans: each may cost ad requests, so a playlist with 20,000
    /// cue markers (or a VMAP with 20,000 breaks) must not turn into 20,000 requests. The first
    /// ones in content order are kept; the rest play as content.
    public static let maxBreaks = 64

    /// The marked breaks of `playlist` in content order: the content time of each marked segment.
    public static func breaks(in playlist: MediaPlaylist) -> [Marker] {
        var breaks: [Marker] = []
        var elapsed = 0.0
        for segment in playlist.segments {
            let cues = segment.cues.filter { $0.kind == .cueOut || $0.kind == .oatclsSCTE35 }
            let ranges = segment.dateRanges.filter { $0.scte35Out != nil }
            if !cues.isEmpty || !ranges.isEmpty {
                let seconds =
                    cues.lazy.compactMap { CueDialect.signal(from: $0, options: .lenient)?.plannedDuration }.first
                    ?? ranges.lazy.compactMap { $0.plannedDuration ?? $0.duration }.first
                breaks.append(Marker(position: elapsed == 0 ? .preroll : .midroll(seconds: elapsed), seconds: seconds))
            }
            elapsed += segment.duration
        }
        return breaks
    }
}
