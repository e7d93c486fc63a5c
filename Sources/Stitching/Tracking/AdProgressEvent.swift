import HLS

import SeamWire

extension AdProgressEvent {
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
