import HLS
import SCTE35

/// The stitched timeline of one live session: a state machine fed with the reference
/// rendition's origin windows, which turns content segments and ad breaks into entries with
/// media sequence numbers that are stable for the session, never go backwards, and are the
/// same for every rendition (each rendition's window is cut from this one timeline by
/// `LiveWindowRenderer`).
///
/// No I/O: when a cue opens a break, `advance` stops before it and reports the break as
/// pending; the caller asks the ad server and answers with `resolve(breakNumber:layout:)`,
/// then advances again.
public struct LiveTimeline: Sendable, Codable, Equatable {
    public struct Configuration: Sendable, Codable, Equatable {
        /// Break length for cues that carry no duration.
        public var defaultBreakSeconds: Double
        /// Breaks by the clock instead of by cues (cues are then ignored).
        public var schedule: BreakSchedule?
        /// Target duration of the origin, for stream time without program date-times.
        public var targetDuration: Int
        /// Content segments kept behind the reference window, for renditions fetched a little
        /// earlier than the reference.
        public var retainedSegments: Int
        public var cueDecoding: SCTE35DecodingOptions
        /// `live.earlyReturn: complete`: an early return lets the ad in play finish (content
        /// resumes after it, that much behind the origin); nil or false cuts it at the return.
        /// Optional, so records written before it read as `cut`.
        public var completesAdOnEarlyReturn: Bool?
        /// `live.prerollMaxSeconds`: the session starts with a pre-roll of at most this long at
        /// the live edge (see `advance`); nil: none. Optional, so records written before it read as none.
        public var prerollSeconds: Double?

        public init(
            defaultBreakSeconds: Double = 60, schedule: BreakSchedule? = nil, targetDuration: Int,
            retainedSegments: Int = 2, cueDecoding: SCTE35DecodingOptions = .lenient,
            completesAdOnEarlyReturn: Bool? = nil, prerollSeconds: Double? = nil
        ) {
            self.defaultBreakSeconds = defaultBreakSeconds
            self.schedule = schedule
            self.targetDuration = targetDuration
            self.retainedSegments = retainedSegments
            self.cueDecoding = cueDecoding
            self.completesAdOnEarlyReturn = completesAdOnEarlyReturn == true ? true : nil
            self.prerollSeconds = prerollSeconds.flatMap { $0 > 1 ? $0 : nil }
        }
    }

    /// The signal id of a session's live pre-roll (`LiveBreak.isPreroll`).
    public static let prerollSignalID = "seam-preroll"

    /// Shared by the copies of one timeline: a channel's sessions start from its copy.
    @SharedValue public var configuration: Configuration
    @EntryColumns public private(set) var entries: [LiveEntry] = []
    /// Date ranges of the reference rendition's content segments, by origin media sequence
    /// number (few segments carry any, so they are not stored with every entry).
    public private(set) var dateRanges: [Int: [DateRange]] = [:]
    /// Media sequence number of `entries[0]`.
    public private(set) var firstSequenceNumber = 0
    /// Discontinuity sequence number of a window starting at `entries[0]`.
    public private(set) var firstDiscontinuityNumber = 0
    /// Recent breaks, oldest first (older ones are dropped once off the timeline).
    public private(set) var breaks: [LiveBreak] = []
    /// Cue date ranges seen ahead of their start, to open when a segment reaches it; nil when
    /// none (every session keeps a timeline, and almost none has one).
    public private(set) var upcomingCues: [UpcomingCue]?
    /// Seconds of stitched media on the timeline since the session started.
    public private(set) var sessionDuration = 0.0
    /// Counts the changes a replica taking the session up could not work out again from the
    /// origin's windows: a break given its layout (`resolve`) and a break ending. Between two
    /// such changes the timeline only places content, which replaying the origin's windows
    /// reproduces exactly, so a session record is written when this moves, not on every reload.
    public private(set) var changes = 0
    private var nextBreakNumber = 0
    private var recentSignalIDs: [String] = []
    // The optional and one-byte fields last, the flags beside the optional Double: the fields
    // pack into 17 words (every live session holds a timeline).
    /// The program date-time where the run of entries holding `entries[0]` began, once entries
    /// before it in that run were trimmed; nil when `entries[0]` begins its run. A run starts at
    /// the session's first entry and at every entry with `discontinuity` (a break's first slot,
    /// each ad, content after a break, an origin discontinuity). A DASH rendering makes each run a
    /// period, and a published period never moves: its start stays while its first segments
    /// leave the window. Optional, so records written before it read as nil.
    public private(set) var leadingRunStart: Double?
    /// The origin stream ended (`EXT-X-ENDLIST`) and the timeline holds all of it.
    public private(set) var isFinished = false
    /// Set on a timeline taken up from a session record (`resumed()`): its next window may start
    /// after segments the previous replica placed since the record was written (see `advance`).
    private var resumedFromRecord = false
    /// The next entry starts a new encoding (a gap in the origin, the end of a break).
    private var pendingDiscontinuity = false
    /// Something is on the timeline (numbering has started).
    private var started = false
    /// The origin's discontinuity number at `nextSequence` (its `EXT-X-DISCONTINUITY-SEQUENCE`
    /// plus the discontinuities before that segment), so a resumed timeline knows how many
    /// discontinuities the segments it missed carried.
    private var originDiscontinuities: Int?
    /// The next origin media sequence number to place; nil before the first window.
    private var nextSequence: Int?

    public init(configuration: Configuration) {
        _configuration = SharedValue(wrappedValue: configuration)
    }

    // Read as the compiler writes it (`init(from:)`); written by hand only because a break
    // slot's date is the timeline's to work out (`programDateTime(of:)`), not the entry's.
    private enum CodingKeys: String, CodingKey {
        case configuration, entries, dateRanges, firstSequenceNumber, firstDiscontinuityNumber, breaks, upcomingCues
        case sessionDuration, leadingRunStart, isFinished, changes, resumedFromRecord, originDiscontinuities
        case nextSequence, pendingDiscontinuity, nextBreakNumber, recentSignalIDs, started
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(EntryColumns.Written(entries: entries, dates: programDateTime(of:)), forKey: .entries)
        try container.encode(dateRanges, forKey: .dateRanges)
        try container.encode(firstSequenceNumber, forKey: .firstSequenceNumber)
        try container.encode(firstDiscontinuityNumber, forKey: .firstDiscontinuityNumber)
        try container.encode(breaks, forKey: .breaks)
        try container.encodeIfPresent(upcomingCues, forKey: .upcomingCues)
        try container.encode(sessionDuration, forKey: .sessionDuration)
        try container.encodeIfPresent(leadingRunStart, forKey: .leadingRunStart)
        try container.encode(isFinished, forKey: .isFinished)
        try container.encode(changes, forKey: .changes)
        try container.encode(resumedFromRecord, forKey: .resumedFromRecord)
        try container.encodeIfPresent(originDiscontinuities, forKey: .originDiscontinuities)
        try container.encodeIfPresent(nextSequence, forKey: .nextSequence)
        try container.encode(pendingDiscontinuity, forKey: .pendingDiscontinuity)
        try container.encode(nextBreakNumber, forKey: .nextBreakNumber)
        try container.encode(recentSignalIDs, forKey: .recentSignalIDs)
        try container.encode(started, forKey: .started)
    }

    /// What `advance` needs from the caller.
    public enum Advance: Sendable, Equatable {
        /// The timeline holds everything the window offered.
        case upToDate
        /// A break waits for its ad decision; nothing after its start is placed until
        /// `resolve` is called.
        case needsDecision(LiveBreak)
    }

    /// The break currently open (pending, replacing, or playing content), if any.
    public var openBreak: LiveBreak? {
        guard let last = breaks.last, last.phase != .ended else { return nil }
        return last
    }

    public func breakNumbered(_ number: Int) -> LiveBreak? {
        breaks.last { $0.number == number }
    }

    /// An entry's program date-time, seconds since 1970: a content segment's from the origin, a
    /// break slot's its break's plus where the slot starts in the break's layout (the clock runs
    /// on through the ads). Nil when the origin gives no dates, or for a slot whose break is not
    /// on the timeline (a record that lists one: never one the timeline made).
    public func programDateTime(of entry: LiveEntry) -> Double? {
        switch entry.source {
        case .content: return entry.contentProgramDateTime
        case .breakSlot(let number, let slot):
            guard let item = breakNumbered(Int(number)), let start = item.programDateTime,
                let placed = item.layout?.slots[safe: Int(slot)]
            else { return nil }
            return start + (placed.end - placed.duration)
        }
    }

    /// Media sequence number after the last entry.
    public var endSequenceNumber: Int { firstSequenceNumber + entries.count }

    // MARK: Advancing

    /// This timeline as another replica takes it up from a session record: the first window it
    /// is given may start past `nextSequence` because the replica that wrote the record went on
    /// placing content after writing it (records are written on break changes only). `advance`
    /// then places the missed segments as that replica did — content, numbered on — instead of
    /// treating them as a gap in the origin (which would start a new discontinuity and renumber).
    public func resumed() -> LiveTimeline {
        var copy = self
        copy.resumedFromRecord = true
        return copy
    }

    /// At most this many segments are placed again for a resumed timeline (a session record far
    /// older than any origin window is taken as a gap instead).
    static let maxResumedGap = 2000

    /// Places the segments of the reference rendition's newest window that are not on the
    /// timeline yet. Safe to call with the same or an older window: nothing moves back.
    /// - Parameter announced: the breaks announced on the channel (the break API), opened where
    ///   their start falls on the stream's program date-time clock.
    public mutating func advance(with window: MediaPlaylist, announced: [AnnouncedBreak] = []) -> Advance {
        if resumedFromRecord, let next = nextSequence, started {
            if window.mediaSequence <= next || window.segments.isEmpty {
                resumedFromRecord = false
            } else if let open = openBreak, open.phase == .pending {
                // Nothing is placed until the break is decided; the missed segments wait for it.
                return .needsDecision(open)
            } else if window.mediaSequence - next <= Self.maxResumedGap {
                resumedFromRecord = false
                let result = advance(
                    with: Self.bridging(window, from: next, discontinuitiesAtStart: originDiscontinuities),
                    announced: announced)
                trim(keepingFrom: window.mediaSequence - configuration.retainedSegments)
                return result
            } else {
                resumedFromRecord = false
            }
        }
        // Every viewer reload lands here; most bring nothing new.
        if let next = nextSequence, window.mediaSequence + window.segments.count <= next, window.mediaSequence <= next {
            if let open = openBreak, open.phase == .pending { return .needsDecision(open) }
            if window.endList, openBreak == nil || openBreak?.phase == .content { isFinished = true }
            return .upToDate
        }
        let times = Self.programDateTimes(of: window)
        // A live pre-roll: the session starts one segment before the window's newest, where a
        // break of the pre-roll's length opens. Its slots are listed as the origin publishes (at
        // most one ad segment ahead), so the first playlist holds only the pre-roll's first
        // seconds and a player, which starts near a live playlist's end, plays it from its first
        // frame; the content it covers is replaced, as in any break, so the viewer then plays the
        // channel about a segment behind its edge — the segment of margin that lets the content
        // after the ads be published before the player reaches it.
        if nextSequence == nil, breaks.isEmpty, let preroll = configuration.prerollSeconds,
            let last = window.segments.indices.last
        {
            let first = max(0, last - 1)
            let sequence = window.mediaSequence + first
            nextSequence = sequence
            let opened = newBreak(
                id: Self.prerollSignalID, sequence: sequence, duration: preroll, elapsed: 0, time: times[first])
            appendBreak(opened)
            noteOriginDiscontinuities(in: window)
            return .needsDecision(opened)
        }
        // Only a session's first window, or one after a gap, may start inside a break.
        var joining = true
        var index = 0
        if let next = nextSequence {
            if next > window.mediaSequence { index = next - window.mediaSequence }
            joining = window.mediaSequence > next
            if joining, started { pendingDiscontinuity = true }
        }
        defer {
            trim(keepingFrom: window.mediaSequence - configuration.retainedSegments)
            noteOriginDiscontinuities(in: window)
        }
        while index < window.segments.count {
            let sequence = window.mediaSequence + index
            let segment = window.segments[index]
            if let open = openBreak, open.phase == .pending { return .needsDecision(open) }
            if var open = openBreak {
                if let ended = endsBreak(open, at: segment, time: times[index]) {
                    close(&open, early: ended)
                    replaceLast(open)
                    if open.layout.map({ !$0.isEmpty }) == true { pendingDiscontinuity = true }
                } else if open.phase == .replacing {
                    open.contentElapsed += segment.duration
                    placeSlots(of: &open, anchor: sequence, startingBefore: open.contentElapsed, includeAll: false)
                    replaceLast(open)
                    nextSequence = sequence + 1
                    joining = false
                    index += 1
                    continue
                } else {
                    open.contentElapsed += segment.duration
                    replaceLast(open)
                    placeContent(segment, sequence: sequence, time: times[index])
                    joining = false
                    index += 1
                    continue
                }
            }
            if let opened = opensBreak(
                at: segment, sequence: sequence, time: times[index], joining: joining, announced: announced)
            {
                appendBreak(opened)
                return .needsDecision(opened)
            }
            placeContent(segment, sequence: sequence, time: times[index])
            joining = false
            index += 1
        }
        if window.endList, openBreak == nil || openBreak?.phase == .content {
            isFinished = true
        }
        return .upToDate
    }

    /// Gives a pending break its layout: empty plays content through the break.
    public mutating func resolve(breakNumber: Int, layout: LiveBreakLayout) {
        guard var open = openBreak, open.number == breakNumber, open.phase == .pending else { return }
        changes += 1
        open.layout = layout
        open.phase = layout.isEmpty ? .content : .replacing
        open.sessionTime = sessionDuration
        replaceLast(open)
    }

    // MARK: Breaks

    /// A break that starts at this segment: an announced break, a cue out not seen before, a
    /// mid-break join, or the schedule.
    private mutating func opensBreak(
        at segment: MediaSegment, sequence: Int, time: Double?, joining: Bool, announced: [AnnouncedBreak]
    ) -> LiveBreak? {
        if let time {
            for item in announced where !recentSignalIDs.contains(item.signalID) {
                guard var elapsed = item.elapsed(atSegmentStarting: time) else { continue }
                // Announced for a moment inside the segment before this one, which this session
                // listed: the break starts here, at the first boundary after its time, whole (its
                // decision — made ahead, for its whole duration — fits it). Only a session that
                // joins after that boundary gets the rest.
                if !joining, elapsed < segment.duration { elapsed = 0 }
                return newBreak(
                    id: item.signalID, sequence: sequence, duration: item.duration - elapsed, elapsed: elapsed,
                    time: time)
            }
        }
        if let time, let cue = upcomingCue(at: time, length: segment.duration, sequence: sequence) {
            return cue
        }
        if let schedule = configuration.schedule {
            let start = time ?? Double(sequence) * Double(configuration.targetDuration)
            guard let (period, elapsed) = schedule.breakStarting(at: start, length: segment.duration, joining: joining)
            else { return nil }
            let id = "schedule-\(period)"
            guard !recentSignalIDs.contains(id) else { return nil }
            return newBreak(
                id: id, sequence: sequence, duration: schedule.duration - elapsed, elapsed: elapsed, time: time)
        }
        for signal in CueDialect.signals(in: segment, options: configuration.cueDecoding) {
            if let id = signal.id, recentSignalIDs.contains(id) { continue }
            switch signal.kind {
            case .out:
                let planned = signal.plannedDuration.flatMap { $0 > 0 ? $0 : nil } ?? configuration.defaultBreakSeconds
                var elapsed = 0.0
                // A date range says when the break really starts: a late joiner sees it on a
                // later segment than the one it began with, and an origin announcing it ahead
                // writes it on a segment before its start.
                if let time, let start = Self.dateRangeStart(of: signal, in: segment) {
                    if let id = signal.id, start >= time + segment.duration - 0.5 {
                        noteUpcoming(UpcomingCue(signalID: id, start: start, duration: planned))
                        continue
                    }
                    elapsed = max(0, time - start)
                }
                guard planned - elapsed > 1 else { remember(signal.id); continue }
                return newBreak(
                    id: signal.id, sequence: sequence, duration: planned - elapsed, elapsed: elapsed, time: time)
            case .continue:
                // Inside a break whose start this session never saw: the rest of it.
                guard joining, let planned = signal.plannedDuration, let elapsed = signal.elapsed, planned - elapsed > 1
                else { continue }
                return newBreak(
                    id: signal.id, sequence: sequence, duration: planned - elapsed, elapsed: elapsed, time: time)
            case .in:
                continue
            }
        }
        return nil
    }

    /// The upcoming cue a segment starting at `time` reaches, opened as a break; cues a gap
    /// carried the timeline past are forgotten.
    private mutating func upcomingCue(at time: Double, length: Double, sequence: Int) -> LiveBreak? {
        guard var cues = upcomingCues else { return nil }
        defer { upcomingCues = cues.isEmpty ? nil : cues }
        cues.removeAll { $0.isPast(atSegmentStarting: time) || recentSignalIDs.contains($0.signalID) }
        guard let index = cues.firstIndex(where: { $0.elapsed(atSegmentStarting: time, length: length) != nil }),
            let elapsed = cues[index].elapsed(atSegmentStarting: time, length: length)
        else { return nil }
        let cue = cues.remove(at: index)
        return newBreak(
            id: cue.signalID, sequence: sequence, duration: cue.duration - elapsed, elapsed: elapsed,
            time: time)
    }

    /// Keeps a cue seen ahead of its start (once; the newest `UpcomingCue.limit`). A change a
    /// replica taking the session up could not work out again once its tag left the window.
    private mutating func noteUpcoming(_ cue: UpcomingCue) {
        var cues = upcomingCues ?? []
        guard !cues.contains(where: { $0.signalID == cue.signalID }), !recentSignalIDs.contains(cue.signalID) else {
            return
        }
        cues.append(cue)
        if cues.count > UpcomingCue.limit { cues.removeFirst() }
        upcomingCues = cues
        changes += 1
    }

    /// The `START-DATE` of the date range that carried `signal`, seconds since 1970.
    static func dateRangeStart(of signal: AdOpportunitySignal, in segment: MediaSegment) -> Double? {
        guard signal.dialect == .dateRange else { return nil }
        return segment.dateRanges.first(where: { $0.id == signal.id })?.startDate?.secondsSince1970
    }

    private mutating func newBreak(
        id: String?, sequence: Int, duration: Double, elapsed: Double, time: Double?
    ) -> LiveBreak {
        remember(id)
        defer { nextBreakNumber += 1 }
        return LiveBreak(
            number: nextBreakNumber, signalID: id, startSequence: sequence, duration: duration,
            elapsedAtJoin: elapsed, programDateTime: time)
    }

    private mutating func remember(_ id: String?) {
        guard let id else { return }
        recentSignalIDs.append(id)
        if recentSignalIDs.count > 8 { recentSignalIDs.removeFirst() }
    }

    /// Whether `segment` is the first after the open break: nil when the break goes on,
    /// else whether it ended before its time.
    private mutating func endsBreak(_ open: LiveBreak, at segment: MediaSegment, time: Double?) -> Bool? {
        let covered = open.layout.map { $0.isEmpty ? open.duration : $0.duration } ?? open.duration
        if open.contentElapsed >= covered - LiveBreakLayout.tolerance {
            return false
        }
        // The pre-roll is the session's own: no origin signal (a return from a break the session
        // never saw, a cue inside it) ends it before its ads.
        guard open.contentElapsed > 0, !open.isPreroll else { return nil }
        if configuration.schedule == nil {
            for signal in CueDialect.signals(in: segment, options: configuration.cueDecoding) {
                if signal.kind == .in { return true }
                // A new break before this one returned ends this one (not one announced for later).
                guard signal.kind == .out, let id = signal.id, !recentSignalIDs.contains(id) else { continue }
                if let time, let start = Self.dateRangeStart(of: signal, in: segment),
                    start >= time + segment.duration - 0.5
                {
                    let planned =
                        signal.plannedDuration.flatMap { $0 > 0 ? $0 : nil } ?? configuration.defaultBreakSeconds
                    noteUpcoming(UpcomingCue(signalID: id, start: start, duration: planned))
                    continue
                }
                return true
            }
        }
        return nil
    }

    private mutating func close(_ open: inout LiveBreak, early: Bool) {
        if open.phase == .replacing, !early {
            // Rounding may leave the last slots a fraction past the content: they play too.
            placeSlots(
                of: &open, anchor: entries.last?.anchor ?? open.startSequence, startingBefore: .infinity,
                includeAll: true)
        } else if open.phase == .replacing, configuration.completesAdOnEarlyReturn == true {
            // The ad in play finishes: its slots not yet listed are, before content resumes.
            placeRestOfAd(of: &open, anchor: entries.last?.anchor ?? open.startSequence)
        }
        open.endedEarly = early
        open.phase = .ended
        changes += 1
    }

    /// Lists the slots that start within the content the origin has published for the break:
    /// the stitched live edge keeps pace with the origin's (at most one ad segment ahead), so a
    /// player near the edge does not run dry while ads are shorter-segmented than content.
    private mutating func placeSlots(
        of open: inout LiveBreak, anchor: Int, startingBefore limit: Double, includeAll: Bool
    ) {
        guard let layout = open.layout else { return }
        while open.slotsPlaced < layout.slots.count {
            let slot = layout.slots[open.slotsPlaced]
            guard includeAll || slot.end - slot.duration < limit - 0.001,
                let entry = Self.slotEntry(open, slot, anchor: anchor)
            else { break }
            append(entry)
            open.slotsPlaced += 1
        }
    }

    /// The entry of `open`'s next slot; nil when its numbers do not fit an entry, which no
    /// timeline makes (layouts are capped, `LiveBreakLayout.maxSlots`; breaks are numbered from
    /// 0) and only a damaged record could give: the rest of that break is not listed.
    private static func slotEntry(_ open: LiveBreak, _ slot: LiveBreakLayout.Slot, anchor: Int) -> LiveEntry? {
        guard let number = Int32(exactly: open.number), number >= 0, let index = Int32(exactly: open.slotsPlaced),
            index <= LiveEntry.maxSlot
        else { return nil }
        return LiveEntry(
            source: .breakSlot(breakNumber: number, slot: index), anchor: anchor, duration: slot.duration,
            discontinuity: slot.discontinuity)
    }

    /// Lists the rest of the ad whose slot was listed last (nothing when that was slate, or the
    /// ad's last segment).
    private mutating func placeRestOfAd(of open: inout LiveBreak, anchor: Int) {
        guard let layout = open.layout, open.slotsPlaced > 0, open.slotsPlaced < layout.slots.count,
            case .ad(let ad, _) = layout.slots[open.slotsPlaced - 1].source
        else { return }
        while open.slotsPlaced < layout.slots.count, case .ad(ad, _) = layout.slots[open.slotsPlaced].source,
            let entry = Self.slotEntry(open, layout.slots[open.slotsPlaced], anchor: anchor)
        {
            append(entry)
            open.slotsPlaced += 1
        }
    }

    private mutating func placeContent(_ segment: MediaSegment, sequence: Int, time: Double?) {
        append(
            LiveEntry(
                // A negative EXTINF (read with a warning) is an empty segment here: an entry's
                // duration has no sign (`LiveEntry`).
                source: .content(sequence), anchor: sequence, duration: max(0, segment.duration),
                discontinuity: segment.discontinuity || pendingDiscontinuity, programDateTime: time))
        let ranges = segment.dateRanges
        if !ranges.isEmpty { dateRanges[sequence] = ranges }
        pendingDiscontinuity = false
        nextSequence = sequence + 1
    }

    private mutating func append(_ entry: LiveEntry) {
        var entry = entry
        if !started {
            // The session's first segment: numbering starts at the origin's number.
            firstSequenceNumber = entry.anchor
            entry.discontinuity = false
            started = true
        }
        // Grown by an eighth (two entries for a short window), not doubled: every viewer holds a
        // timeline, and one segment in, one trimmed out keeps the count steady, so the slack is
        // what stays allocated (one or two entries once a short window is full). Geometric, so a
        // long window's first fill copies its entries a bounded number of times.
        if entries.count == entries.capacity { entries.reserveCapacity(entries.count + Self.growth(entries.count)) }
        entries.append(entry)
        sessionDuration += entry.duration
    }

    /// The entries added to a full array of `count`.
    private static func growth(_ count: Int) -> Int { max(2, count / 8) }

    /// Grown by one: a session holds a break or two at a time, and a doubled array keeps the
    /// room of the most it ever held.
    private mutating func appendBreak(_ opened: LiveBreak) {
        if breaks.count == breaks.capacity { breaks.reserveCapacity(breaks.count + 1) }
        breaks.append(opened)
    }

    private mutating func replaceLast(_ updated: LiveBreak) {
        breaks[breaks.count - 1] = updated
    }

    /// Drops entries anchored before `sequence` (they left every window) and breaks with them.
    private mutating func trim(keepingFrom sequence: Int) {
        var drop = 0
        while drop < entries.count - 1, entries[drop].anchor < sequence { drop += 1 }
        guard drop > 0 else { return }
        // Where the run the new first entry belongs to began (nil: it begins one).
        if let begins = (1...drop).last(where: { entries[$0].discontinuity }) {
            leadingRunStart = begins == drop ? nil : programDateTime(of: entries[begins])
        } else {
            leadingRunStart = leadingRunStart ?? programDateTime(of: entries[0])
        }
        // A window starting at entry i counts the discontinuities of the entries before it.
        for entry in entries[0..<drop] where entry.discontinuity { firstDiscontinuityNumber += 1 }
        entries.removeFirst(drop)
        // Keep the storage near the size in use: thousands of sessions each hold one.
        // Past twice what growth leaves spare, so a compacted array is not compacted again at the
        // next reload.
        if entries.capacity > entries.count + 2 * Self.growth(entries.count) {
            var compact: [LiveEntry] = []
            compact.reserveCapacity(entries.count + Self.growth(entries.count))
            compact.append(contentsOf: entries)
            entries = compact
        }
        firstSequenceNumber += drop
        if !dateRanges.isEmpty, let first = entries.first?.anchor {
            dateRanges = dateRanges.filter { $0.key >= first }
        }
        // An ended break is kept while the timeline lists its segments (renditions render
        // them, players fetch them) and a little after, for the tracking JSON.
        let oldest = entries.first?.anchor ?? sequence
        var listed = Int.max
        for entry in entries {
            if case .breakSlot(let number, _) = entry.source { listed = Int(number); break }
        }
        while breaks.count > 1, breaks[0].phase == .ended, breaks[0].number < listed,
            breaks.count > 2 || breaks[0].startSequence < oldest - 8
        {
            breaks.removeFirst()
        }
        // A break is opened every minute or so: its array is kept to the breaks it holds.
        if breaks.capacity > breaks.count + 1 {
            var compact: [LiveBreak] = []
            compact.reserveCapacity(breaks.count + 1)
            compact.append(contentsOf: breaks)
            breaks = compact
        }
    }

    /// Remembers the origin's discontinuity number at `nextSequence`, from `window`.
    private mutating func noteOriginDiscontinuities(in window: MediaPlaylist) {
        guard let next = nextSequence, next > window.mediaSequence, next <= window.mediaSequence + window.segments.count
        else { return }
        var count = window.discontinuitySequence
        for segment in window.segments[0..<(next - window.mediaSequence)] where segment.discontinuity { count += 1 }
        originDiscontinuities = count
    }

    /// `window` preceded by the segments from `sequence` it no longer lists, as the replica that
    /// wrote a session record saw them: plain content (a cue among them was that replica's to
    /// act on, and it writes a record when it does), each as long as the window's segments on
    /// average, with as many discontinuities as the origin's discontinuity sequence says they
    /// carried (from `discontinuitiesAtStart`, the origin's number at `sequence`). Only their
    /// numbering, discontinuity count and durations matter: they are behind the window, so they
    /// are trimmed before any playlist lists them.
    static func bridging(_ window: MediaPlaylist, from sequence: Int, discontinuitiesAtStart: Int?) -> MediaPlaylist {
        let missed = window.mediaSequence - sequence
        let tags = discontinuitiesAtStart.map { min(max(0, window.discontinuitySequence - $0), missed) } ?? 0
        let average = window.segments.reduce(0) { $0 + $1.duration } / Double(window.segments.count)
        // Dated back from the window's first date, so a schedule reads the same clock as before.
        let first = window.segments[0].programDateTime?.secondsSince1970
        var bridged = window
        bridged.mediaSequence = sequence
        bridged.discontinuitySequence = discontinuitiesAtStart ?? window.discontinuitySequence
        bridged.segments =
            (0..<missed).map { index in
                MediaSegment(
                    uri: "", duration: average, discontinuity: index < tags,
                    programDateTime: first.map { DateTime(secondsSince1970: $0 - Double(missed - index) * average) })
            } + window.segments
        return bridged
    }

    // MARK: Clock

    /// Program date-time of every segment of `window`, carried forward from the last explicit one.
    static func programDateTimes(of window: MediaPlaylist) -> [Double?] {
        var result: [Double?] = []
        result.reserveCapacity(window.segments.count)
        var clock: Double?
        for segment in window.segments {
            if let explicit = segment.programDateTime?.secondsSince1970 { clock = explicit }
            result.append(clock)
            if let current = clock { clock = current + segment.duration }
        }
        return result
    }
}
