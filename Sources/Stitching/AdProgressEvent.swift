import HLS

/// The linear ad events Seam reports server-side, in the order a viewer reaches them.
public enum AdProgressEvent: String, Sendable, Hashable, CaseIterable, Codable {
    case impression
    case start
    case firstQuartile
    case midpoint
    case thirdQuartile
    case complete

    /// Fraction of the ad at which the event happens.
    public var fraction: Double {
        switch self {
        case .impression, .start: return 0
        case .firstQuartile: return 0.25
        case .midpoint: return 0.5
        case .thirdQuartile: return 0.75
        case .complete: return 1
        }
    }

    /// The events due when a player fetches segment `index` of an ad rendition: the ones
    /// whose moment falls inside that segment (`complete` with the last segment). Each
    /// rendition is mapped on its own, since segment boundaries may differ between them.
    public static func due(atSegment index: Int, of playlist: MediaPlaylist) -> [AdProgressEvent] {
        let segments = playlist.segments
        guard index >= 0, index < segments.count else { return [] }
        let total = playlist.duration
        var start = 0.0
        for segment in segments.prefix(index) { start += segment.duration }
        let end = start + segments[index].duration
        return allCases.filter { event in
            switch event {
            case .impression, .start: return index == 0
            case .complete: return index == segments.count - 1
            default:
                let moment = event.fraction * total
                return moment >= start && moment < end
            }
        }
    }
}
