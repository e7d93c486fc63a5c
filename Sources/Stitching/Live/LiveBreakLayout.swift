/// What plays in place of one live break, slot by slot: the ads that fit (trimmed at an ad
/// boundary), then slate for the rest. Computed once per break from the reference rendition's
/// segment durations, so every rendition plays the same number of segments and the media
/// sequence numbers agree across renditions.
public struct LiveBreakLayout: Sendable, Hashable, Codable {
    public struct Slot: Sendable, Hashable, Codable {
        public enum Source: Sendable, Hashable, Codable {
            /// Segment `segment` of ad `ad` (its index in the decision's ad list).
            case ad(ad: Int, segment: Int)
            /// Segment `segment` of the slate playlist.
            case slate(segment: Int)
            /// Segment `segment` of the break's bumper at `position` (`ads.bumpers.*`).
            case bumper(position: Bumper.Position, segment: Int)
        }

        public var source: Source
        public var duration: Double
        /// Offset of the slot's end from the start of the break.
        public var end: Double
        /// A new encoding starts here (each ad, each pass through the slate).
        public var discontinuity: Bool
    }

    @SlotColumns public var slots: [Slot]
    /// Indexes of the ads that play, in order.
    public var playedAds: [Int]
    /// Indexes of ads left out because the break is too short for them.
    public var trimmedAds: [Int]
    /// Seconds of the break filled with slate.
    public var slateSeconds: Double
    /// How much of the break the layout replaces: the planned duration when slate completes it,
    /// else the ads' length (content resumes at the next content segment after that).
    public var duration: Double

    /// Seconds by which ads may overrun the break and still count as fitting (encoders round
    /// segment durations), and below which a remainder is not worth a slate segment.
    public static let tolerance = 0.5

    /// No ads and no slate: the break plays content.
    public var isEmpty: Bool { slots.isEmpty }

    /// Where the ad that plays `time` seconds into the break ends (the end of its last slot), nil
    /// when slate or nothing plays then.
    public func endOfAd(playingAt time: Double) -> Double? {
        guard
            let slot = slots.first(where: { $0.end - $0.duration <= time + 0.001 && time < $0.end - 0.001 }),
            case .ad(let ad, _) = slot.source
        else { return nil }
        return slots.reduce(nil as Double?) { end, other in
            if case .ad(ad, _) = other.source { return max(end ?? 0, other.end) }
            return end
        }
    }

    /// Seconds of the break the ads play (slate left out).
    public var adSeconds: Double {
        slots.reduce(0) { total, slot in
            if case .ad = slot.source { return total + slot.duration }
            return total
        }
    }

    /// Whether the ads fill less of a `breakDuration` break than `threshold` (a share from 0 to 1)
    /// asks: the personalization threshold (`ads.personalizationThreshold`), under which the break
    /// plays the origin's content rather than a few ads and a long slate. 0 never; a layout
    /// without ads is decided elsewhere (its own skip reason). The layout's tolerance applies, so
    /// ads that fill the break within it meet a threshold of 1.
    public func isBelowThreshold(_ threshold: Double, breakDuration: Double) -> Bool {
        guard threshold > 0, !playedAds.isEmpty, breakDuration > 0 else { return false }
        return adSeconds + Self.tolerance < threshold * breakDuration
    }

    /// - Parameters:
    ///   - breakDuration: seconds to fill (what remains of the break for a viewer who joins late).
    ///   - ads: each ad's segment durations in the reference rendition, in pod order.
    ///   - slate: the slate's segment durations, or nil when there is none (content fills the rest).
    /// Most slots one break holds: a day of 4-second slate segments is 21,600.
    public static let maxSlots = 25_000

    /// - Parameter bumpers: the bumpers' segment durations by position. A bumper frames the ads
    ///   only when it costs none of them: the layout is the one without bumpers unless one with
    ///   both (else the start bumper alone, else the end one alone) plays the same ads. The start
    ///   bumper plays first, the end bumper last (after the slate: the last thing before content);
    ///   a break without ads plays no bumper.
    public static func make(
        breakDuration: Double, ads: [[Double]], slate: [Double]?, bumpers: [Bumper.Position: [Double]] = [:]
    ) -> LiveBreakLayout {
        let base = make(breakDuration: breakDuration, ads: ads, slate: slate, start: nil, end: nil)
        let start = bumpers[.start].flatMap { $0.contains { $0 > 0 } ? $0 : nil }
        let end = bumpers[.end].flatMap { $0.contains { $0 > 0 } ? $0 : nil }
        guard !base.playedAds.isEmpty, start != nil || end != nil else { return base }
        var tries: [([Double]?, [Double]?)] = [(start, end)]
        if start != nil, end != nil { tries += [(start, nil), (nil, end)] }
        for (start, end) in tries {
            let framed = make(breakDuration: breakDuration, ads: ads, slate: slate, start: start, end: end)
            if framed.playedAds == base.playedAds { return framed }
        }
        return base
    }

    private static func make(
        breakDuration: Double, ads: [[Double]], slate: [Double]?, start: [Double]?, end: [Double]?
    ) -> LiveBreakLayout {
        var layout = LiveBreakLayout(slots: [], playedAds: [], trimmedAds: [], slateSeconds: 0, duration: 0)
        var time = 0.0
        func appendBumper(_ position: Bumper.Position, _ segments: [Double]) {
            for (number, duration) in segments.enumerated() where duration > 0 {
                time += duration
                layout.slots.append(
                    Slot(
                        source: .bumper(position: position, segment: number), duration: duration, end: time,
                        discontinuity: number == 0))
            }
        }
        if let start { appendBumper(.start, start) }
        // What the ads and the slate may fill: the break less the end bumper.
        let fillEnd = breakDuration - (end?.reduce(0, +) ?? 0)
        for (index, segments) in ads.enumerated() {
            let length = segments.reduce(0, +)
            // A pod of many tiny ads (`ads.maxAdsPerPod` has no upper bound) stops at `maxSlots`
            // as the slate does: the ads past it are left out as too long for the break.
            guard !segments.isEmpty, layout.trimmedAds.isEmpty, time + length <= fillEnd + tolerance,
                layout.slots.count + segments.count <= Self.maxSlots
            else {
                layout.trimmedAds.append(index)
                continue
            }
            for (number, duration) in segments.enumerated() {
                time += duration
                layout.slots.append(
                    Slot(
                        source: .ad(ad: index, segment: number), duration: duration, end: time,
                        discontinuity: number == 0))
            }
            layout.playedAds.append(index)
        }
        let adsEnd = time
        if let slate, slate.contains(where: { $0 > 0 }), fillEnd - time > tolerance {
            var passStart = true
            fill: while true {
                for (number, duration) in slate.enumerated() where duration > 0 {
                    // A slate of tiny segments (or a huge break) must not fill without end: stop
                    // when time no longer moves or the break holds `maxSlots` (the rest plays content).
                    guard time + duration <= fillEnd + tolerance / 2, time + duration > time,
                        layout.slots.count < Self.maxSlots
                    else { break fill }
                    time += duration
                    layout.slots.append(
                        Slot(
                            source: .slate(segment: number), duration: duration, end: time,
                            discontinuity: passStart || number == 0))
                    passStart = false
                }
            }
            layout.slateSeconds = time - adsEnd
            if let end { appendBumper(.end, end) }
            layout.duration = layout.slots.isEmpty ? 0 : breakDuration
        } else {
            if let end { appendBumper(.end, end) }
            layout.duration = time
        }
        return layout
    }

    /// The bumpers the layout plays, in order, with where each starts in the break and how long it runs.
    public var bumpers: [(position: Bumper.Position, start: Double, duration: Double)] {
        var found: [(position: Bumper.Position, start: Double, duration: Double)] = []
        for slot in slots {
            guard case .bumper(let position, _) = slot.source else { continue }
            if let last = found.last, last.position == position {
                found[found.count - 1].duration += slot.duration
            } else {
                found.append((position, slot.end - slot.duration, slot.duration))
            }
        }
        return found
    }
}
