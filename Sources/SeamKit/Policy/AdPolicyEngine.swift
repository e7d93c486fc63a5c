import SeamWire

/// Decides where the playhead may go on a stitched VOD timeline under an `AdPlaybackPolicy`:
/// where a seek actually lands, when a break the viewer watched is jumped over, where playback
/// resumes after the breaks a seek made the viewer watch, what skipping an ad or a break means.
///
/// A value with no I/O, like `AdEventEngine`: each input returns where to seek (or nothing) and
/// the owner performs the seek on the player, then reports it with `didSeek(to:)`. Times are on
/// the stitched timeline the player shows (ads included); `contentTime(forStream:)` and
/// `streamTime(forContent:)` convert for a scrub bar that shows the content alone.
public struct AdPolicyEngine: Sendable {
    /// Why SeamKit moved the playhead.
    public enum SeekReason: String, Sendable, Equatable {
        /// A seek jumped over unwatched breaks: the policy plays one (or all) of them first.
        case playBreakBeforeSeek
        /// The breaks the seek owed are played: on to where the viewer seeked.
        case resumeAfterBreak
        /// Playback reached a break the viewer watched and the policy does not repeat.
        case skipWatchedBreak
        /// A seek landed inside a break the policy skips: to its end.
        case skipBreakAtLanding
        /// `skipAd()` on a skippable ad past its skip offset.
        case adSkipped
        /// `discardAdBreak()`.
        case breakDiscarded
        /// Back from an interruption with `interrupt` = `restartAd` or `skipAd`.
        case interruption
        /// A start position past the pre-roll with `startPastPreroll` = `playPreroll`: the
        /// pre-roll first.
        case prerollBeforeStart
    }

    /// A seek the owner performs.
    public struct Seek: Sendable, Equatable {
        public var to: Double
        public var reason: SeekReason
        /// The sample that asked for this seek is playback that reached a break's end: the owner
        /// reports it (the ad's `complete`, the break's end) before seeking.
        public var afterPlayback: Bool

        public init(to: Double, reason: SeekReason, afterPlayback: Bool = false) {
            self.to = to
            self.reason = reason
            self.afterPlayback = afterPlayback
        }
    }

    public let policy: AdPlaybackPolicy
    /// A forward move between samples larger than this is a seek the player made on its own (its
    /// scrub bar) and is judged as one.
    public var maxStep: Double
    private var breaks: [Span] = []
    private var watched: Set<String> = []
    /// Watched breaks a rewind passed over under `rewind = skipAll`.
    private var rewoundOver: Set<String> = []
    private var detour: Detour?
    private var last: Double?

    public init(policy: AdPlaybackPolicy, maxStep: Double = 2.0) {
        self.policy = policy
        self.maxStep = maxStep
    }

    /// Breaks played to their end (or discarded, or whose last ad was skipped) this session.
    public var watchedBreakIDs: Set<String> { watched }

    // MARK: Inputs

    /// The tracking JSON: its filled breaks are what the policy guards.
    public mutating func updateTracking(_ document: TrackingDocument) {
        breaks = document.avails.compactMap(Span.init).sorted { $0.start < $1.start }
    }

    /// A playhead sample during playback. Answers a seek when the playhead reached a break the
    /// policy skips, finished a break a seek made it play, or jumped on its own (a scrub the app
    /// did not route through `seek(from:to:)`) somewhere the policy does not allow.
    public mutating func sample(time: Double) -> Seek? {
        guard time.isFinite else { return nil }
        guard let previous = last else {
            last = time
            return nil
        }
        let step = time - previous
        if step > maxStep || step < -0.5 {
            let answer = seek(from: previous, to: time)
            return answer.to == time ? nil : answer
        }
        last = time
        guard step > 0 else { return nil }
        // Breaks whose end playback crossed were watched.
        for span in breaks where previous < span.end && span.end <= time {
            watched.insert(span.id)
        }
        if var current = detour, let owed = current.breaks.first, time >= owed.end {
            current.breaks.removeFirst()
            if let next = current.breaks.first {
                detour = current
                return moved(to: next.from, .playBreakBeforeSeek, afterPlayback: true)
            }
            detour = nil
            if let resume = current.resumeAt, resume > time {
                return moved(to: resume, .resumeAfterBreak, afterPlayback: true)
            }
        }
        for span in breaks where previous < span.start && span.start <= time && skips(span) {
            return moved(to: span.end, .skipWatchedBreak)
        }
        return nil
    }

    /// The viewer asks to seek from `current` to `target`: where to actually go. A forward seek
    /// over unwatched breaks plays them first (per `fastForward`) and comes back to `target` when
    /// they end; a backward one marks the watched breaks it passes (per `rewind`).
    public mutating func seek(from current: Double, to target: Double) -> Seek {
        detour = nil
        let landing = breaks.first { $0.contains(target) }
        if target > current {
            // The unwatched break the playhead is in, when the seek leaves it, and the unwatched
            // breaks the seek jumps over or lands in.
            let inside = breaks.first { $0.contains(current) && target >= $0.end && !watched.contains($0.id) }
            let ahead = breaks.filter { $0.start > current && $0.start <= target && !watched.contains($0.id) }
            let resumeAt = ahead.last?.contains(target) == true ? nil : target
            var owed: [Owed] = []
            switch policy.fastForward {
            case .skipAll:
                break
            case .playLastAd:
                // The last ad of the last break: of the one ahead, or of the one the playhead is in
                // (from where it is, if that last ad is already playing).
                if let last = ahead.last {
                    let from = last.contains(target) ? max(last.lastAdStart, target) : last.lastAdStart
                    owed = [Owed(id: last.id, from: from, end: last.end)]
                } else if let inside {
                    owed = [Owed(id: inside.id, from: max(inside.lastAdStart, current), end: inside.end)]
                }
            case .playAll:
                owed =
                    (inside.map { [Owed(id: $0.id, from: current, end: $0.end)] } ?? [])
                    + ahead.map { Owed(id: $0.id, from: $0.start, end: $0.end) }
            }
            if let first = owed.first {
                detour = Detour(breaks: owed, resumeAt: resumeAt)
                return moved(to: first.from, .playBreakBeforeSeek)
            }
            if let landing, policy.fastForward == .skipAll || skips(landing) {
                return moved(to: landing.end, .skipBreakAtLanding)
            }
        } else if target < current {
            for span in breaks where span.start < current && span.end > target && watched.contains(span.id) {
                switch policy.rewind {
                case .skipAll: rewoundOver.insert(span.id)
                case .playAll: rewoundOver.remove(span.id)
                }
            }
            if let landing, skips(landing) { return moved(to: landing.end, .skipBreakAtLanding) }
        }
        last = target
        return Seek(to: target, reason: .resumeAfterBreak)
    }

    /// Counts break `id` as watched (a restart inherits what the viewer saw).
    public mutating func markWatched(_ id: String) {
        watched.insert(id)
    }

    /// The owner moved the player to `time` (after a `Seek` this engine answered).
    public mutating func didSeek(to time: Double) {
        last = time
    }

    /// `skipAd()`: the end of the ad at `time` when it is skippable and its skip offset has
    /// passed; nil otherwise (the ad plays on).
    public mutating func skipAd(at time: Double) -> Seek? {
        guard let span = breaks.first(where: { $0.contains(time) }),
            let ad = span.ads.first(where: { time >= $0.start && time < $0.end }),
            let offset = ad.skipOffset, time - ad.start >= offset
        else { return nil }
        if ad.end >= span.end { watched.insert(span.id) }
        return moved(to: ad.end, .adSkipped)
    }

    /// `discardAdBreak()`: the end of the break at `time`, which counts as watched; nil outside
    /// breaks.
    public mutating func discardBreak(at time: Double) -> Seek? {
        guard let span = breaks.first(where: { $0.contains(time) }) else { return nil }
        watched.insert(span.id)
        if detour?.breaks.first?.id == span.id {
            detour?.breaks.removeFirst()
            if let next = detour?.breaks.first { return moved(to: next.from, .playBreakBeforeSeek) }
            let resume = detour?.resumeAt
            detour = nil
            if let resume, resume > span.end { return moved(to: resume, .resumeAfterBreak) }
        }
        return moved(to: span.end, .breakDiscarded)
    }

    /// The app is back from an interruption (background, a call) with the playhead at `time`.
    public mutating func interruptionEnded(at time: Double) -> Seek? {
        guard let span = breaks.first(where: { $0.contains(time) }),
            let ad = span.ads.first(where: { time >= $0.start && time < $0.end })
        else { return nil }
        switch policy.interrupt {
        case .resumeAd:
            return nil
        case .restartAd:
            return moved(to: ad.start, .interruption)
        case .skipAd:
            if ad.end >= span.end { watched.insert(span.id) }
            return moved(to: ad.end, .interruption)
        }
    }

    /// Where to start playing for a saved content position (`0`: the beginning): the stream time
    /// of that content position, or the pre-roll first under `playPreroll`, coming back to the
    /// position when it ends. Mid-rolls before the position are not played.
    public mutating func start(atContentTime contentTime: Double) -> Seek {
        let target = streamTime(forContent: contentTime)
        detour = nil
        last = nil
        guard contentTime > 0 else { return Seek(to: 0, reason: .resumeAfterBreak) }
        if policy.startPastPreroll == .playPreroll, let preroll = breaks.first, preroll.start <= 0,
            !watched.contains(preroll.id)
        {
            detour = Detour(breaks: [Owed(id: preroll.id, from: preroll.start, end: preroll.end)], resumeAt: target)
            return Seek(to: preroll.start, reason: .prerollBeforeStart)
        }
        return Seek(to: target, reason: .resumeAfterBreak)
    }

    // MARK: Timelines

    /// The stitched time at which content time `contentTime` plays (after the breaks before it).
    public func streamTime(forContent contentTime: Double) -> Double {
        guard contentTime > 0 else { return 0 }
        var stream = contentTime
        var adsBefore = 0.0
        for span in breaks {
            let contentStart = span.start - adsBefore
            guard contentTime >= contentStart else { break }
            stream += span.duration
            adsBefore += span.duration
        }
        return stream
    }

    /// The content time shown at stitched time `streamTime` (inside a break: where content
    /// stopped for it).
    public func contentTime(forStream streamTime: Double) -> Double {
        var content = streamTime
        for span in breaks where span.start < streamTime {
            content -= min(span.end, streamTime) - span.start
        }
        return max(content, 0)
    }

    // MARK: State

    private func skips(_ span: Span) -> Bool {
        guard watched.contains(span.id) else { return false }
        return policy.repeat == .oncePerSession || rewoundOver.contains(span.id)
    }

    private mutating func moved(to time: Double, _ reason: SeekReason, afterPlayback: Bool = false) -> Seek {
        last = time
        return Seek(to: time, reason: reason, afterPlayback: afterPlayback)
    }

    private struct Span: Sendable {
        struct Ad: Sendable {
            var start: Double
            var end: Double
            var skipOffset: Double?
        }

        var id: String
        var start: Double
        var end: Double
        var ads: [Ad]

        init?(_ avail: TrackingDocument.Avail) {
            guard !avail.ads.isEmpty, avail.durationSeconds > 0 else { return nil }
            id = avail.availId
            start = avail.startTimeSeconds
            end = avail.startTimeSeconds + avail.durationSeconds
            ads = avail.ads.map {
                Ad(
                    start: $0.startTimeSeconds, end: $0.startTimeSeconds + $0.durationSeconds,
                    skipOffset: $0.skipOffsetSeconds)
            }
        }

        var duration: Double { end - start }
        var lastAdStart: Double { ads.last?.start ?? start }

        func contains(_ time: Double) -> Bool { time >= start && time < end }
    }

    /// A break a seek made the viewer play: from `from` (its start, or its last ad's) to `end`.
    private struct Owed: Sendable {
        var id: String
        var from: Double
        var end: Double
    }

    private struct Detour: Sendable {
        var breaks: [Owed]
        var resumeAt: Double?
    }
}
