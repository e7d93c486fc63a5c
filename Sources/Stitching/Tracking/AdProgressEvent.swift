import HLS

import SeamWire

extension AdProgressEvent {
    /// The events due when a player fetches segment `index` of an ad rendition: the ones
    /// whose moment falls inside that segment (`complete` with the last segment). Each
    /// rendition is mapped on its own, since segment boundaries may differ between them.
    public static func due(atSegment index: Int, of playlist: MediaPlaylist) -> [AdProgressEvent] {
        due(atSegment: index, durations: playlist.segments.map(\.duration))
    }

    /// The same rule for an ad whose segments last `durations` seconds (a DASH representation's).
    public static func due(atSegment index: Int, durations: [Double]) -> [AdProgressEvent] {
        guard index >= 0, index < durations.count else { return [] }
        let total = durations.reduce(0, +)
        let start = durations.prefix(index).reduce(0, +)
        let end = start + durations[index]
        return allCases.filter { event in
            switch event {
            case .impression, .start: return index == 0
            case .complete: return index == durations.count - 1
            default:
                let moment = event.fraction * total
                return moment >= start && moment < end
            }
        }
    }
}
