/// Checks how one live media playlist changes between reloads: media sequence numbers
/// never go back and always name the same segment, the discontinuity sequence advances
/// exactly by the discontinuities that left the window, and the playlist keeps moving.
///
/// A state machine over snapshots; the caller does the fetching and supplies the time.
public struct LiveReloadValidator: Sendable {
    public let source: String
    private var previous: MediaPlaylist?
    private var lastChange: Double?
    /// Media sequence number → (uri, duration, discontinuity flag), for segments seen so far.
    private var seen: [Int: SeenSegment] = [:]
    public private(set) var diagnostics: [PlaylistDiagnostic] = []
    public private(set) var reloads = 0

    struct SeenSegment: Sendable {
        var uri: String
        var discontinuity: Bool
        var discontinuityNumber: Int
    }

    public init(source: String) {
        self.source = source
    }

    /// Feeds the playlist fetched at `time` (seconds, any monotonic origin).
    public mutating func observe(_ playlist: MediaPlaylist, at time: Double) {
        reloads += 1
        defer { previous = playlist }
        let numbers = RenditionSetValidator.discontinuityNumbers(playlist)
        let firstSequence = playlist.mediaSequence + (playlist.skip?.skippedSegments ?? 0)

        guard let old = previous else {
            lastChange = time
            record(playlist, numbers: numbers, firstSequence: firstSequence)
            return
        }
        if playlist.mediaSequence < old.mediaSequence {
            report(.mediaSequenceWentBackwards, "#EXT-X-MEDIA-SEQUENCE went back from \(old.mediaSequence) to \(playlist.mediaSequence)")
        }
        if playlist.discontinuitySequence < old.discontinuitySequence {
            report(.discontinuitySequenceWrong, "#EXT-X-DISCONTINUITY-SEQUENCE went back from \(old.discontinuitySequence) to \(playlist.discontinuitySequence)")
        } else if playlist.mediaSequence > old.mediaSequence {
            // Discontinuities on segments that left the window, counted from what we saw.
            let oldLast = old.mediaSequence + old.segments.count
            if playlist.mediaSequence <= oldLast {
                var left = 0
                for sequence in old.mediaSequence..<playlist.mediaSequence {
                    if seen[sequence]?.discontinuity == true { left += 1 }
                }
                // The first segment of the new window may itself carry a discontinuity that was counted.
                let expected = old.discontinuitySequence + left
                if playlist.discontinuitySequence != expected {
                    report(.discontinuitySequenceWrong,
                           "#EXT-X-DISCONTINUITY-SEQUENCE is \(playlist.discontinuitySequence) but \(left) discontinuities left the window since it was \(old.discontinuitySequence) (expected \(expected))")
                }
            }
        } else if playlist.discontinuitySequence != old.discontinuitySequence && playlist.mediaSequence == old.mediaSequence {
            report(.discontinuitySequenceWrong, "#EXT-X-DISCONTINUITY-SEQUENCE changed from \(old.discontinuitySequence) to \(playlist.discontinuitySequence) while no segment left the window")
        }
        if old.playlistType == .event && playlist.mediaSequence != old.mediaSequence {
            report(.segmentsRemovedFromEvent, "an EVENT playlist removed segments (media sequence \(old.mediaSequence) → \(playlist.mediaSequence))")
        }
        if old.playlistType != playlist.playlistType {
            report(.playlistTypeChanged, "#EXT-X-PLAYLIST-TYPE changed from \(old.playlistType?.rawValue ?? "none") to \(playlist.playlistType?.rawValue ?? "none")")
        }
        if old.endList && !playlist.endList {
            report(.playlistTypeChanged, "#EXT-X-ENDLIST disappeared after it was published")
        }
        for (offset, segment) in playlist.segments.enumerated() {
            let sequence = firstSequence + offset
            guard let before = seen[sequence] else { continue }
            if before.uri != segment.uri {
                report(.segmentChangedUnderSequenceNumber, "media sequence \(sequence) was \(before.uri) and is now \(segment.uri)")
                break
            }
            if let number = numbers[sequence], number != before.discontinuityNumber {
                report(.discontinuitySequenceWrong, "segment \(sequence) moved from discontinuity \(before.discontinuityNumber) to \(number)")
                break
            }
        }
        let lastOld = old.mediaSequence + old.segments.count
        let lastNew = playlist.mediaSequence + playlist.segments.count
        if lastNew > lastOld || playlist.endList {
            lastChange = time
        } else if let lastChange, !playlist.isFinished, time - lastChange > Double(max(1, playlist.targetDuration)) * 3 {
            report(.playlistStale, "no new segment for \(Int(time - lastChange)) s, more than three target durations")
            self.lastChange = time
        }
        record(playlist, numbers: numbers, firstSequence: firstSequence)
    }

    private mutating func record(_ playlist: MediaPlaylist, numbers: [Int: Int], firstSequence: Int) {
        for (offset, segment) in playlist.segments.enumerated() {
            let sequence = firstSequence + offset
            if seen[sequence] == nil {
                seen[sequence] = SeenSegment(uri: segment.uri, discontinuity: segment.discontinuity,
                                             discontinuityNumber: numbers[sequence] ?? 0)
            }
        }
        // Keep memory bounded on long runs.
        if seen.count > 4096, let minimum = seen.keys.min() {
            for key in minimum..<(minimum + 1024) { seen[key] = nil }
        }
    }

    private mutating func report(_ rule: PlaylistRule, _ message: String) {
        diagnostics.append(PlaylistDiagnostic(.error, rule, line: nil, "reload \(reloads): " + message, source: source))
    }
}
