/// Checks how one live media playlist changes between reloads (draft-pantos-hls-rfc8216bis
/// 6.2.2): media sequence numbers never go back and always name the same segment with the same
/// duration, the discontinuity sequence advances exactly by the discontinuities that left the
/// window, the target duration stays, a window that loses segments keeps three target
/// durations (when `checksWindowLength`), and the playlist keeps moving.
///
/// Date ranges keep their meaning: an `ID` seen once names the same range for the rest of the
/// run, so a later reload that gives it another `START-DATE`, `CLASS`, asset (`X-ASSET-URI`,
/// `X-ASSET-LIST`) or `CUE`, or any other value it had, is an error (`daterange-changed`).
/// Two updates are allowed, because a live break learns its end after it started:
/// - `DURATION`, `END-DATE` (and `X-PLAYOUT-LIMIT`) may be added to a range that had none;
/// - `X-PLAYOUT-LIMIT` may shrink on an interstitial (never grow): an early return re-sends
///   the same `ID` with the time that was actually left, which is how Seam ends a live break
///   early; `DURATION` and `END-DATE` may then change once to match it.
/// A range that leaves the window and comes back is still the same range.
///
/// A state machine over snapshots; the caller does the fetching and supplies the time.
public struct LiveReloadValidator: Sendable {
    public let source: String
    private var previous: MediaPlaylist?
    private var lastChange: Double?
    /// Media sequence number → (uri, duration, discontinuity flag), for segments seen so far.
    private var seen: [Int: SeenSegment] = [:]
    /// Date range ID → its attributes as first seen (tags of one ID merged), and whether its
    /// playout limit has shrunk since (which lets its duration and end change once).
    private var ranges: [String: SeenRange] = [:]
    private var rangeOrder: [String] = []
    public private(set) var diagnostics: [PlaylistDiagnostic] = []
    public private(set) var reloads = 0

    struct SeenSegment: Sendable {
        var uri: String
        var duration: Double
        var discontinuity: Bool
        var discontinuityNumber: Int
    }

    struct SeenRange: Sendable {
        var attributes: AttributeList
        var firstReload: Int
        var shortened = false
    }

    /// Whether a window that loses segments must keep three target durations (6.2.2). `seam
    /// validate` checks it; it is off by default because Seam's own stitched windows keep the
    /// origin's segment count, so with ads shorter than the content a stitched window over a
    /// three-segment origin window is briefly shorter (see docs/validation.md).
    public let checksWindowLength: Bool

    public init(source: String, checksWindowLength: Bool = false) {
        self.source = source
        self.checksWindowLength = checksWindowLength
    }

    /// Feeds the playlist fetched at `time` (seconds, any monotonic origin).
    public mutating func observe(_ playlist: MediaPlaylist, at time: Double) {
        reloads += 1
        defer { previous = playlist }
        let numbers = RenditionSetValidator.discontinuityNumbers(playlist)
        let firstSequence = playlist.mediaSequence + (playlist.skip?.skippedSegments ?? 0)

        checkDateRanges(playlist)
        guard let old = previous else {
            lastChange = time
            record(playlist, numbers: numbers, firstSequence: firstSequence)
            return
        }
        if old.hasTargetDurationTag, playlist.hasTargetDurationTag, old.targetDuration != playlist.targetDuration {
            report(
                .targetDurationChanged,
                "#EXT-X-TARGETDURATION changed from \(old.targetDuration) to \(playlist.targetDuration); it must stay the same for the life of the playlist"
            )
        }
        if checksWindowLength, playlist.mediaSequence > old.mediaSequence, !playlist.endList, playlist.skip == nil,
            playlist.duration < Double(3 * playlist.targetDuration)
        {
            report(
                .liveWindowTooShort,
                "segments were removed and \(DecimalNumber.format(playlist.duration)) s remain, less than three target durations (\(3 * playlist.targetDuration) s)"
            )
        }
        if playlist.mediaSequence < old.mediaSequence {
            report(
                .mediaSequenceWentBackwards,
                "#EXT-X-MEDIA-SEQUENCE went back from \(old.mediaSequence) to \(playlist.mediaSequence)")
        }
        if playlist.discontinuitySequence < old.discontinuitySequence {
            report(
                .discontinuitySequenceWrong,
                "#EXT-X-DISCONTINUITY-SEQUENCE went back from \(old.discontinuitySequence) to \(playlist.discontinuitySequence)"
            )
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
                    report(
                        .discontinuitySequenceWrong,
                        "#EXT-X-DISCONTINUITY-SEQUENCE is \(playlist.discontinuitySequence) but \(left) discontinuities left the window since it was \(old.discontinuitySequence) (expected \(expected))"
                    )
                }
            }
        } else if playlist.discontinuitySequence != old.discontinuitySequence
            && playlist.mediaSequence == old.mediaSequence
        {
            report(
                .discontinuitySequenceWrong,
                "#EXT-X-DISCONTINUITY-SEQUENCE changed from \(old.discontinuitySequence) to \(playlist.discontinuitySequence) while no segment left the window"
            )
        }
        if old.playlistType == .event && playlist.mediaSequence != old.mediaSequence {
            report(
                .segmentsRemovedFromEvent,
                "an EVENT playlist removed segments (media sequence \(old.mediaSequence) → \(playlist.mediaSequence))")
        }
        if old.playlistType != playlist.playlistType {
            report(
                .playlistTypeChanged,
                "#EXT-X-PLAYLIST-TYPE changed from \(old.playlistType?.rawValue ?? "none") to \(playlist.playlistType?.rawValue ?? "none")"
            )
        }
        if old.endList && !playlist.endList {
            report(.playlistTypeChanged, "#EXT-X-ENDLIST disappeared after it was published")
        }
        for (offset, segment) in playlist.segments.enumerated() {
            let sequence = firstSequence + offset
            guard let before = seen[sequence] else { continue }
            if before.uri != segment.uri {
                report(
                    .segmentChangedUnderSequenceNumber,
                    "media sequence \(sequence) was \(before.uri) and is now \(segment.uri)")
                break
            }
            if abs(before.duration - segment.duration) > 0.0005 {
                report(
                    .segmentChangedUnderSequenceNumber,
                    "media sequence \(sequence) (\(segment.uri)) was \(DecimalNumber.format(before.duration)) s long and is now \(DecimalNumber.format(segment.duration)) s"
                )
                break
            }
            if let number = numbers[sequence], number != before.discontinuityNumber {
                report(
                    .discontinuitySequenceWrong,
                    "segment \(sequence) moved from discontinuity \(before.discontinuityNumber) to \(number)")
                break
            }
        }
        let lastOld = old.mediaSequence + old.segments.count
        let lastNew = playlist.mediaSequence + playlist.segments.count
        if lastNew > lastOld || playlist.endList {
            lastChange = time
        } else if let lastChange, !playlist.isFinished, time - lastChange > Double(max(1, playlist.targetDuration)) * 3
        {
            report(.playlistStale, "no new segment for \(Int(time - lastChange)) s, more than three target durations")
            self.lastChange = time
        }
        record(playlist, numbers: numbers, firstSequence: firstSequence)
    }

    private mutating func record(_ playlist: MediaPlaylist, numbers: [Int: Int], firstSequence: Int) {
        for (offset, segment) in playlist.segments.enumerated() {
            let sequence = firstSequence + offset
            if seen[sequence] == nil {
                seen[sequence] = SeenSegment(
                    uri: segment.uri, duration: segment.duration, discontinuity: segment.discontinuity,
                    discontinuityNumber: numbers[sequence] ?? 0)
            }
        }
        // Keep memory bounded on long runs.
        if seen.count > 4096, let minimum = seen.keys.min() {
            for key in minimum..<(minimum + 1024) { seen[key] = nil }
        }
    }

    /// Compares each date range of `playlist` (its tags merged) with what its ID meant before.
    private mutating func checkDateRanges(_ playlist: MediaPlaylist) {
        var located: [DateRangeValidator.Located] = []
        for segment in playlist.segments where !segment.dateRanges.isEmpty {
            for range in segment.dateRanges { located.append(.init(range, line: nil)) }
        }
        if let trailer = playlist.trailer {
            for range in trailer.dateRanges { located.append(.init(range, line: nil)) }
        }
        guard !located.isEmpty else { return }
        for current in DateRangeValidator.mergedByID(located) {
            let id = current.range.id
            guard var known = ranges[id] else {
                ranges[id] = SeenRange(attributes: current.range.attributes, firstReload: reloads)
                rangeOrder.append(id)
                continue
            }
            let attributes = current.range.attributes
            var problems: [String] = []
            let interstitial = known.attributes.string("CLASS") == DateRange.interstitialClass
            let oldLimit = known.attributes.double("X-PLAYOUT-LIMIT")
            let newLimit = attributes.double("X-PLAYOUT-LIMIT")
            let shrinks = interstitial && oldLimit != nil && newLimit != nil && newLimit! < oldLimit!
            for name in DateRangeValidator.meaningAttributes {
                let before = known.attributes[name], after = attributes[name]
                if before != after {
                    problems.append("\(name) \(Self.describe(before)) → \(Self.describe(after))")
                }
            }
            for attribute in attributes.items where !DateRangeValidator.meaningAttributes.contains(attribute.name) {
                guard let before = known.attributes[attribute.name], before != attribute.value else { continue }
                let allowed =
                    (attribute.name == "X-PLAYOUT-LIMIT" && shrinks)
                    || ((attribute.name == "DURATION" || attribute.name == "END-DATE") && (shrinks || known.shortened))
                if !allowed {
                    problems.append("\(attribute.name) \(Self.describe(before)) → \(Self.describe(attribute.value))")
                }
            }
            if !problems.isEmpty {
                report(
                    .dateRangeChanged,
                    "#EXT-X-DATERANGE ID=\"\(id)\" changed since reload \(known.firstReload): \(problems.joined(separator: ", ")); an ID names one date range for good (only X-PLAYOUT-LIMIT may shrink, DURATION/END-DATE may be added)"
                )
            }
            // Remember the update: added attributes, a shorter limit.
            if shrinks { known.shortened = true }
            for attribute in attributes.items { known.attributes[attribute.name] = attribute.value }
            ranges[id] = known
        }
        // Keep memory bounded on long runs: forget the oldest IDs.
        if rangeOrder.count > 2048 {
            for id in rangeOrder.prefix(512) { ranges[id] = nil }
            rangeOrder.removeFirst(512)
        }
    }

    static func describe(_ value: AttributeValue?) -> String {
        value.map(DateRangeValidator.describe) ?? "(none)"
    }

    private mutating func report(_ rule: PlaylistRule, _ message: String) {
        diagnostics.append(PlaylistDiagnostic(.error, rule, line: nil, "reload \(reloads): " + message, source: source))
    }
}
