import HLS

/// Where breaks go in a VOD title: at the content segment boundary nearest the requested
/// time, since ads can only be spliced between whole segments.
public enum PodPlacement {
    /// The index of the content segment each pod is inserted before. Pre-roll (`0`) is 0,
    /// post-roll (negative) is `segments.count`, a mid-roll the nearest boundary (never 0 or
    /// the end, which would turn it into a pre- or post-roll).
    public static func segmentIndex(forCuePoint seconds: Double, in playlist: MediaPlaylist) -> Int {
        let count = playlist.segments.count
        if seconds < 0 { return count }
        if seconds == 0 { return 0 }
        var elapsed = 0.0
        var bestIndex = count
        var bestDistance = Double.infinity
        for (index, segment) in playlist.segments.enumerated() {
            let distance = abs(elapsed - seconds)
            if index > 0, distance < bestDistance {
                bestDistance = distance
                bestIndex = index
            }
            elapsed += segment.duration
        }
        if count > 0, abs(elapsed - seconds) < bestDistance, bestIndex == count { return count }
        return min(max(bestIndex, 1), max(count - 1, 1))
    }

    /// Content time at the start of segment `index`.
    public static func contentTime(atSegment index: Int, in playlist: MediaPlaylist) -> Double {
        var elapsed = 0.0
        for segment in playlist.segments.prefix(index) { elapsed += segment.duration }
        return elapsed
    }
}
