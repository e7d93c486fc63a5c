import HLS

/// Chooses one content time per break for all renditions of a demuxed title.
///
/// Demuxed audio, video and subtitle playlists cut their segments at different times (AAC
/// frames last 21.3 ms, video GOPs two to ten seconds, WebVTT whatever the packager chose), so
/// placing a break at each rendition's own boundary nearest the cue point (today's
/// `PodPlacement` rule, one rendition at a time) can put audio seconds away from video: after
/// the break, the player's audio and video are off by that much. Here the reference rendition
/// (the first, the video the tracking timeline is measured on) offers its two boundaries around
/// the cue; for each, the other renditions take the boundaries that keep all splice points
/// closest together; the set with the smallest spread wins (of equals, the one nearer the cue).
/// The break moves at most one reference segment from where `PodPlacement` puts it, and the
/// spread is never wider than with `PodPlacement`'s per-rendition choice: with the reference at
/// its nearest boundary (one of the two tried), the closest arrangement found is at least as
/// close as that one.
public enum BreakAligner {
    /// Rounding below which two spreads are taken as equal (durations are written to the millisecond).
    static let tolerance = 0.0005

    /// - Parameters:
    ///   - cuePoint: seconds of content time; 0 is a pre-roll, negative a post-roll.
    ///   - renditions: every rendition of the title, the reference (video) first.
    public static func align(cuePoint: Double, renditions: [MediaPlaylist]) -> AlignedBreak {
        let boundaries = renditions.map(Self.boundaries(of:))
        guard let reference = boundaries.first else { return AlignedBreak(segmentIndices: [], contentTimes: []) }
        if cuePoint == 0 || cuePoint < 0 || cuePoint.isNaN {
            // Pre- and post-rolls need no choice: the start and the end of every rendition.
            let indices = cuePoint < 0 ? renditions.map(\.segments.count) : boundaries.map { _ in 0 }
            return AlignedBreak(segmentIndices: indices, contentTimes: zip(indices, boundaries).map { $1[$0] })
        }
        // `PodPlacement` answers 1 for an empty playlist; the reference has no boundary there.
        let nearest = min(PodPlacement.segmentIndex(forCuePoint: cuePoint, in: renditions[0]), reference.count - 1)
        var candidates = [nearest]
        let allowed = midrollRange(reference)
        // The boundary on the other side of the cue, if the reference has one there.
        let other = reference[nearest] <= cuePoint ? nearest + 1 : nearest - 1
        if allowed.contains(other) { candidates.append(other) }

        var best: (spread: Double, distance: Double, drift: Double, indices: [Int])?
        for anchor in candidates {
            let time = reference[anchor]
            for indices in arrangements(anchoredAt: anchor, boundaries: boundaries) {
                let times = zip(indices, boundaries).map { $1[$0] }
                let spread = (times.max() ?? 0) - (times.min() ?? 0)
                let distance = abs(time - cuePoint)
                let drift = times.reduce(0) { $0 + abs($1 - time) }
                if let current = best {
                    let better =
                        spread < current.spread - tolerance
                        || abs(spread - current.spread) <= tolerance
                            && (distance < current.distance - tolerance
                                || abs(distance - current.distance) <= tolerance && drift < current.drift - tolerance)
                    if !better { continue }
                }
                best = (spread, distance, drift, indices)
            }
        }
        guard let best else { return AlignedBreak(segmentIndices: [], contentTimes: []) }
        return AlignedBreak(segmentIndices: best.indices, contentTimes: zip(best.indices, boundaries).map { $1[$0] })
    }

    /// The ways to splice every rendition with the reference at boundary `anchor` that can be
    /// the closest together. The splice points of the best one span a window whose start is
    /// the reference's time or some other rendition's boundary before it; for each such start,
    /// every rendition takes its first boundary at or after it. Starts further back than the
    /// span of "each takes its boundary nearest the reference" cannot win and are not tried.
    static func arrangements(anchoredAt anchor: Int, boundaries: [[Double]]) -> [[Int]] {
        let time = boundaries[0][anchor]
        let nearest = [anchor] + boundaries.dropFirst().map { nearestIndex(to: time, in: $0) }
        let nearestTimes = zip(nearest, boundaries).map { $1[$0] }
        let bound = (nearestTimes.max() ?? time) - (nearestTimes.min() ?? time)
        var starts = [time]
        for rendition in boundaries.dropFirst() {
            for index in midrollRange(rendition)
            where rendition[index] <= time && rendition[index] >= time - bound - tolerance {
                starts.append(rendition[index])
            }
        }
        var result = [nearest]
        for start in Set(starts).sorted() {
            result.append([anchor] + boundaries.dropFirst().map { firstIndex(atOrAfter: start, in: $0) })
        }
        return result
    }

    /// The first mid-roll boundary of `boundaries` at or after `time` (the last one when none is).
    static func firstIndex(atOrAfter time: Double, in boundaries: [Double]) -> Int {
        let allowed = midrollRange(boundaries)
        return allowed.first { boundaries[$0] >= time - tolerance } ?? allowed.upperBound
    }

    /// The content time at each segment boundary: `[0, d0, d0 + d1, ..., total]`.
    static func boundaries(of playlist: MediaPlaylist) -> [Double] {
        var times = [0.0]
        times.reserveCapacity(playlist.segments.count + 1)
        var elapsed = 0.0
        for segment in playlist.segments {
            elapsed += segment.duration
            times.append(elapsed)
        }
        return times
    }

    /// Boundaries a mid-roll may use: never the start or the end (that would make it a pre- or
    /// post-roll), as in `PodPlacement`, unless the playlist has a single segment.
    static func midrollRange(_ boundaries: [Double]) -> ClosedRange<Int> {
        let count = boundaries.count - 1
        guard count > 1 else { return count...count }
        return 1...(count - 1)
    }

    /// The mid-roll boundary of `boundaries` nearest `time` (the earlier of two as near).
    static func nearestIndex(to time: Double, in boundaries: [Double]) -> Int {
        let allowed = midrollRange(boundaries)
        var best = allowed.lowerBound
        for index in allowed where abs(boundaries[index] - time) < abs(boundaries[best] - time) {
            best = index
        }
        return best
    }
}
