import HLS

/// What the live session machine needs of an ad decision: which break it fills and how.
/// The payload (ads, beacons, media) is the owner's; Stitching never looks inside it.
public protocol LiveSessionDecision: Sendable {
    var breakNumber: Int { get }
    var layout: LiveBreakLayout { get }
    /// The decision recorded for a break whose ads did not come within the budget: no ads,
    /// content plays through the break (`ADS_TIMEOUT`), with `detail` saying why.
    static func adsTimeout(breakNumber: Int, detail: String) -> Self
    /// The same decision for the break the timeline numbered `breakNumber` (a decision made
    /// before its break opened, `prefetchLanded`, gets its number when it opens).
    func renumbered(_ breakNumber: Int) -> Self
}

/// One live session's rules as a value: the stitched timeline, the ad decision of each break,
/// the decisions on their way with their deadlines, the requests waiting for one, and what
/// each rendition last listed. No locks, no continuations, no clock: the owner takes its lock,
/// passes the time in with each event, and runs the returned actions outside the lock
/// (submits decisions, resumes waiters, arms their timers), like AsyncHTTPClient's
/// `HTTPConnectionPool.StateMachine`.
///
/// The rules:
/// - a break is decided once per session, with `budget` from the reload that first saw it;
/// - the timeline stops before a break whose decision is pending;
/// - only a session start waits for a decision (up to the budget); a reload never waits, since
///   an ad decision takes an ad server round trip and a reload answered that late is a latency
///   spike for every viewer at every cue (the player, a few segments behind the live edge, gets
///   the break one reload later without noticing);
/// - a decision past its budget becomes `ADS_TIMEOUT` (content plays through the break), and the
///   decision itself, when it lands later, is dropped;
/// - decisions of breaks that left the timeline are dropped;
/// - no rendition is ever answered with less than it listed before (`render`);
/// - with a prefetch lead, a break known ahead of its start (an announced break, the schedule's
///   next, a cue date range the origin wrote before its `START-DATE`) is decided once the live
///   edge is within the lead of its start, so its ad request is not made in the burst of every
///   viewer reaching the break at once; when the break opens its decision is
///   already there (or on its way: the break waits for it as for any pending decision). A
///   session that joins the break late decides it then, for what is left of it.
public struct LiveSessionStateMachine<Decision: LiveSessionDecision>: Sendable {
    /// A request waiting for a decision (a session start); the owner keeps its continuation by this id.
    public struct WaiterID: Hashable, Sendable, CustomStringConvertible {
        public let value: UInt64
        public init(_ value: UInt64) { self.value = value }
        public var description: String { "waiter \(value)" }
    }

    /// What the owner does after an event, in order, outside its lock.
    public enum Action: Sendable, Equatable {
        /// Ask for the ad decision of this break; it must land (or expire) by `deadline`.
        case submitDecision(LiveBreak, deadline: ContinuousClock.Instant)
        /// Ask for the decision of a break not open yet (its number is not known: `-1`); report
        /// it with `prefetchLanded` (or `prefetchExpired`) under the break's `signalID`.
        case submitPrefetch(LiveBreak, deadline: ContinuousClock.Instant)
        /// These waiters' break was decided (or gave up): resume them; each reloads again.
        case resumeWaiters([WaiterID])
        /// Park the request as this waiter; send `waiterTimedOut` at `until` if nothing resumed it.
        case wait(WaiterID, until: ContinuousClock.Instant)
        /// The timeline is as far as it goes for now: render the playlist.
        case answer
    }

    /// Why `render` refused to answer.
    public enum RenderRefusal: Error, Sendable, Equatable {
        /// The window would start or end before what this rendition listed last time, or the
        /// origin's window lies behind everything the session has listed (an empty playlist).
        case behindServed
    }

    /// The detail of an `ADS_TIMEOUT` recorded because the budget passed.
    public static var timeoutDetail: String { "no ad decision within the ad budget; the break plays content" }

    /// A decision on its way and the session starts waiting for it.
    struct PendingDecision: Sendable {
        var breakNumber: Int
        var deadline: ContinuousClock.Instant
        var waiters: [WaiterID]
        /// Set when the decision is a prefetch still on its way (no decision of its own was
        /// submitted for the break).
        var prefetchedSignal: String? = nil
    }

    /// A break known before its start (prefetch): its signal id, and its start and the live
    /// edge on the clock that places it.
    struct Upcoming {
        var signalID: String
        var start: Double
        var duration: Double
        var edge: Double
    }

    /// A decision asked for before its break opened, by the break's signal id.
    enum Prefetch: Sendable {
        case running(deadline: ContinuousClock.Instant)
        /// Landed as the machine's `changes` reached `change`: a record written at that count or
        /// later holds it.
        case landed(Decision, change: Int32)
    }

    /// A decision made before its break opened, as a session record keeps it: the break's signal
    /// id and the decision.
    public struct PrefetchedDecision: Sendable {
        public var signalID: String
        public var decision: Decision

        public init(signalID: String, decision: Decision) {
            self.signalID = signalID
            self.decision = decision
        }
    }

    /// The media sequence numbers of a rendition's last answer: `mediaSequence..<end`.
    /// A small array, not a dictionary: a session has a handful of renditions, and ten thousand
    /// sessions pay for every byte (BENCHMARKS.md, live memory).
    public struct ServedWindow: Sendable, Codable, Equatable {
        public var rendition: String
        public var mediaSequence: Int
        public var end: Int

        public init(rendition: String, mediaSequence: Int, end: Int) {
            self.rendition = rendition
            self.mediaSequence = mediaSequence
            self.end = end
        }
    }

    public private(set) var timeline: LiveTimeline
    /// The decision of each break still on the timeline, by break number.
    public private(set) var decisions = BreakDecisions<Decision>()
    /// Usually empty; one entry while a cue's decision runs. An array: it is tiny and every
    /// session has one.
    private var pending: [PendingDecision] = []
    /// Prefetched decisions of breaks not open yet; empty (one word) unless prefetch is on and a
    /// break is near.
    private var prefetches: [String: Prefetch] = [:]
    private var served: [ServedWindow] = []
    private var nextWaiterID: UInt64 = 0
    /// The changes a record keeps beyond the timeline's: each decision made ahead that landed,
    /// less each break that opened with one (the timeline counts that opening, but a replica
    /// resuming a record that holds the decision opens the break the same way). Part of `changes`.
    private var prefetchChanges: Int32 = 0
    /// See `changesShown`.
    private var shown: Int32 = 0

    public init(timeline: LiveTimeline) {
        self.timeline = timeline
    }

    /// What a session record keeps of the machine: the timeline, the decision of each break on
    /// it (by break number), the decisions made ahead of breaks not open yet, and what each
    /// rendition last served. Pending decisions and waiters are not part of it — they belong to
    /// the process that ran them — so a break still pending is decided again by whoever resumes
    /// the snapshot.
    public struct Snapshot: Sendable {
        public var timeline: LiveTimeline
        /// In break order.
        public var decisions: [Decision]
        public var served: [ServedWindow]
        /// Prefetched decisions of breaks not open yet; nil when none (and in records written
        /// before prefetched decisions were kept).
        public var prefetched: [PrefetchedDecision]?
        /// The changes beyond the timeline's when the snapshot was taken (decisions made ahead
        /// landed, less breaks opened with one; see `changes`); nil for none.
        public var prefetchChanges: Int?

        public init(
            timeline: LiveTimeline, decisions: [Decision], served: [ServedWindow],
            prefetched: [PrefetchedDecision]? = nil, prefetchChanges: Int? = nil
        ) {
            self.timeline = timeline
            self.decisions = decisions
            self.served = served
            self.prefetched = prefetched
            self.prefetchChanges = prefetchChanges
        }

        /// The machine's `changes` when the snapshot was taken.
        public var changes: Int { timeline.changes + (prefetchChanges ?? 0) }
    }

    /// The machine as a session record keeps it.
    public var snapshot: Snapshot {
        var landed: [PrefetchedDecision] = []
        for (signal, prefetch) in prefetches {
            if case .landed(let decision, _) = prefetch {
                landed.append(PrefetchedDecision(signalID: signal, decision: decision))
            }
        }
        landed.sort { $0.signalID < $1.signalID }
        return Snapshot(
            timeline: timeline, decisions: decisions.values.sorted { $0.breakNumber < $1.breakNumber }, served: served,
            prefetched: landed.isEmpty ? nil : landed,
            prefetchChanges: prefetchChanges == 0 ? nil : Int(prefetchChanges))
    }

    /// A session taken up again from its snapshot (on another replica, or after this one lost
    /// it): the timeline resumed (`LiveTimeline.resumed()`), so the next reload brings it to the
    /// origin's window exactly as the machine that wrote the snapshot would have, and media and
    /// discontinuity sequence numbers go on; its decisions, those made ahead of their breaks;
    /// what each rendition served. Everything in it is stored, so nothing is to be written
    /// before an answer (`changesShown`).
    public init(resuming snapshot: Snapshot) {
        timeline = snapshot.timeline.resumed()
        for decision in snapshot.decisions { decisions[decision.breakNumber] = decision }
        served = snapshot.served
        prefetchChanges = Int32(clamping: snapshot.prefetchChanges ?? 0)
        shown = Int32(clamping: snapshot.changes)
        for item in snapshot.prefetched ?? [] {
            prefetches[item.signalID] = .landed(item.decision, change: shown)
        }
    }

    // MARK: Record

    /// Counts the changes a session record keeps and a replica taking the session up could not
    /// work out again from the origin's windows alone: the timeline's (`LiveTimeline.changes`:
    /// a break given its layout, a break ending, a cue seen ahead) and each prefetched decision
    /// kept — but not a break opening with a decision made ahead, which a replica resuming a
    /// record that holds the decision opens the same way (and when no record holds it yet, the
    /// decision's own change is one an answer must wait for: `changesShown`). A record written at
    /// this count holds the session as it is, or as a replica resuming it derives it.
    public var changes: Int { timeline.changes + Int(prefetchChanges) }

    /// The count a record must hold before an answer may show the timeline as it is: past it,
    /// the changes since are ones another replica taking the session up from the older record
    /// would serve the same way, so they may be written after the answer.
    ///
    /// What an answer shows and only the record can tell is a break's decision: one made when
    /// the break opened (an ad server's answer, or `ADS_TIMEOUT`) is shown the moment it is
    /// recorded. A break that opens with a decision made ahead needs only that decision stored
    /// (a replica resuming the record opens the break at the same segment with it). A break's
    /// end, a cue seen ahead and a decision made ahead of a break not open yet show nothing a
    /// replica resuming the record would not derive from the origin's window (which still lists
    /// the segments since), or decide again itself.
    public var changesShown: Int { Int(shown) }

    /// What each rendition last served (`mediaSequence..<end`).
    public var servedWindows: [ServedWindow] { served }

    // MARK: Events

    /// A request brought the reference rendition's newest `window`. A break seen for the first
    /// time gets its decision submitted, due by `now + budget`. A session start
    /// (`isSessionStart`) waits for a pending decision until its deadline, so a break under
    /// way is in the first playlist; a reload answers at once. A pending decision whose
    /// deadline has passed is recorded as `ADS_TIMEOUT` and the timeline goes on.
    ///
    /// Ends with `.wait` or `.answer`. After a `.wait` resumes, the owner sends `reload` again.
    /// - Parameters:
    ///   - announced: the breaks announced on the channel (the break API).
    ///   - prefetchLead: decide an announced break once the live edge is this close to its
    ///     start (nil: at the break, as any other).
    public mutating func reload(
        window: MediaPlaylist, now: ContinuousClock.Instant, budget: Duration,
        isSessionStart: Bool, announced: [AnnouncedBreak] = [], prefetchLead: Duration? = nil
    ) -> [Action] {
        var actions: [Action] = []
        while case .needsDecision(let item) = timeline.advance(with: window, announced: announced) {
            let index: Int
            if let running = pending.firstIndex(where: { $0.breakNumber == item.number }) {
                guard now < pending[running].deadline else {
                    let waiters = record(.adsTimeout(breakNumber: item.number, detail: Self.timeoutDetail))
                    if !waiters.isEmpty { actions.append(.resumeWaiters(waiters)) }
                    continue
                }
                index = running
            } else if let signal = item.signalID, let prefetch = prefetches.removeValue(forKey: signal) {
                if prefetches.isEmpty { prefetches = [:] }
                switch prefetch {
                case .landed(let decision, let change) where item.elapsedAtJoin == 0:
                    // Decided before the break: it opens with its ads, shown once a record holds
                    // the decision.
                    let waiters = record(decision.renumbered(item.number), shownOnceStored: change)
                    if !waiters.isEmpty { actions.append(.resumeWaiters(waiters)) }
                    continue
                case .running(let deadline) where item.elapsedAtJoin == 0:
                    // On its way: the break waits for it as for its own decision.
                    pending.append(
                        PendingDecision(
                            breakNumber: item.number, deadline: max(deadline, now + budget), waiters: [],
                            prefetchedSignal: signal))
                    index = pending.count - 1
                default:
                    // Opened late (the session joined inside it): decided for what is left.
                    let deadline = now + budget
                    pending.append(PendingDecision(breakNumber: item.number, deadline: deadline, waiters: []))
                    index = pending.count - 1
                    actions.append(.submitDecision(item, deadline: deadline))
                }
            } else {
                let deadline = now + budget
                pending.append(PendingDecision(breakNumber: item.number, deadline: deadline, waiters: []))
                index = pending.count - 1
                actions.append(.submitDecision(item, deadline: deadline))
            }
            guard isSessionStart else { break }
            let id = WaiterID(nextWaiterID)
            nextWaiterID &+= 1
            pending[index].waiters.append(id)
            actions.append(.wait(id, until: pending[index].deadline))
            return actions
        }
        // After the timeline took the window in: the cues it carried ahead of their start are
        // known now, and a break that opened with this window is no longer ahead.
        if let prefetchLead,
            !announced.isEmpty || timeline.configuration.schedule != nil || timeline.upcomingCues != nil
                || !prefetches.isEmpty
        {
            actions += prefetch(announced, window: window, now: now, budget: budget, lead: prefetchLead)
        }
        actions.append(.answer)
        return actions
    }

    /// The decision of a break landed: while the break is still pending it is recorded and the
    /// timeline can pass the break — even a moment past the deadline, because the decider works
    /// to the same deadline (a pod whose slow creative was cut at the deadline lands just after
    /// it, and its other ads must still play). For a break no longer pending (a reload or a
    /// waiter's timer already gave it `ADS_TIMEOUT`, or it left the timeline) it is dropped.
    public mutating func decisionLanded(_ decision: Decision, now: ContinuousClock.Instant) -> [Action] {
        guard pending.contains(where: { $0.breakNumber == decision.breakNumber }) else { return [] }
        let waiters = record(decision)
        return waiters.isEmpty ? [] : [.resumeWaiters(waiters)]
    }

    // MARK: Prefetch

    /// Prefetches for the breaks known ahead — announced ones, cue date ranges ahead of their
    /// start, and the schedule's next — whose
    /// start the live edge (the end of `window`, on the clock that places them) is within `lead`
    /// of, not asked for yet and not on the timeline.
    /// Each may run until the break's start plus `budget`, as the break's own decision would.
    private mutating func prefetch(
        _ announced: [AnnouncedBreak], window: MediaPlaylist, now: ContinuousClock.Instant, budget: Duration,
        lead: Duration
    ) -> [Action] {
        guard let last = window.segments.last else { return [] }
        let dated = LiveTimeline.programDateTimes(of: window).last.flatMap { $0 }.map { $0 + last.duration }
        var upcoming: [Upcoming] = []
        if let dated {
            upcoming = announced.map {
                Upcoming(signalID: $0.signalID, start: $0.start, duration: $0.duration, edge: dated)
            }
            // Cue date ranges the origin wrote ahead of their start.
            for cue in timeline.upcomingCues ?? [] {
                upcoming.append(Upcoming(signalID: cue.signalID, start: cue.start, duration: cue.duration, edge: dated))
            }
        }
        // The schedule's next break, on the clock the timeline reads it by (program date-time,
        // else media sequence number × target duration).
        if let schedule = timeline.configuration.schedule, schedule.every > 0, schedule.duration > 0 {
            let target = Double(timeline.configuration.targetDuration)
            let edge = dated ?? Double(window.mediaSequence + window.segments.count) * target
            // A break starting exactly at the edge is still next: the window that ends there has
            // not opened it (the next one will), so its decision made ahead must stay.
            var period = ((edge - schedule.offset) / schedule.every).rounded(.up)
            if schedule.offset + period * schedule.every < edge - 0.001 { period += 1 }
            if period.isFinite, period.magnitude < 1e15 {
                upcoming.append(
                    Upcoming(
                        signalID: "schedule-\(Int(period))", start: schedule.offset + period * schedule.every,
                        duration: schedule.duration, edge: edge))
            }
        }
        // A break that will not open any more (an announcement cancelled, a cue a gap skipped)
        // leaves nothing behind; one that opened took its prefetch with it. Not while the
        // timeline waits at a pending break: the edge may have passed breaks it has yet to open.
        if !prefetches.isEmpty, timeline.openBreak?.phase != .pending {
            let known = Set(upcoming.map(\.signalID))
            prefetches = prefetches.filter { known.contains($0.key) }
            if prefetches.isEmpty { prefetches = [:] }
        }
        let leadSeconds = Double(lead.components.seconds) + Double(lead.components.attoseconds) / 1e18
        var actions: [Action] = []
        for item in upcoming {
            let ahead = item.start - item.edge
            guard ahead > 0, ahead <= leadSeconds, prefetches[item.signalID] == nil,
                !timeline.breaks.contains(where: { $0.signalID == item.signalID })
            else { continue }
            let deadline = now + .milliseconds(Int64(ahead * 1000)) + budget
            prefetches[item.signalID] = .running(deadline: deadline)
            var next = LiveBreak(
                number: -1, signalID: item.signalID, startSequence: -1, duration: item.duration, elapsedAtJoin: 0,
                programDateTime: dated == nil ? nil : item.start)
            next.sessionTime = timeline.sessionDuration + ahead
            actions.append(.submitPrefetch(next, deadline: deadline))
        }
        return actions
    }

    /// A prefetched decision landed: kept for its break, or, when the break opened and waits for
    /// it, recorded as the break's decision.
    public mutating func prefetchLanded(_ decision: Decision, signalID: String) -> [Action] {
        if let index = pending.firstIndex(where: { $0.prefetchedSignal == signalID }) {
            let waiters = record(decision.renumbered(pending[index].breakNumber))
            return waiters.isEmpty ? [] : [.resumeWaiters(waiters)]
        }
        guard case .running = prefetches[signalID] else { return [] }
        prefetchChanges &+= 1
        prefetches[signalID] = .landed(decision, change: Int32(clamping: changes))
        return []
    }

    /// A prefetched decision will not come: its break, if it waits for it, plays content
    /// (`ADS_TIMEOUT`); if it has not opened, it is decided when it does.
    public mutating func prefetchExpired(signalID: String, detail: String) -> [Action] {
        if let index = pending.firstIndex(where: { $0.prefetchedSignal == signalID }) {
            let waiters = record(.adsTimeout(breakNumber: pending[index].breakNumber, detail: detail))
            return waiters.isEmpty ? [] : [.resumeWaiters(waiters)]
        }
        prefetches[signalID] = nil
        return []
    }

    /// The decision of a break will not come (it waited for a free slot past its budget, say):
    /// the break plays content (`ADS_TIMEOUT`) with `detail`.
    public mutating func decisionExpired(breakNumber: Int, detail: String) -> [Action] {
        guard pending.contains(where: { $0.breakNumber == breakNumber }) else { return [] }
        let waiters = record(.adsTimeout(breakNumber: breakNumber, detail: detail))
        return waiters.isEmpty ? [] : [.resumeWaiters(waiters)]
    }

    /// A waiter's timer fired. Past the deadline its break becomes `ADS_TIMEOUT` and everyone
    /// waiting for it is resumed; a timer that fired early resumes only this waiter (it reloads
    /// and waits again). Nothing when the waiter was already resumed.
    public mutating func waiterTimedOut(_ id: WaiterID, now: ContinuousClock.Instant) -> [Action] {
        guard let index = pending.firstIndex(where: { $0.waiters.contains(id) }) else { return [] }
        guard now >= pending[index].deadline else {
            pending[index].waiters.removeAll { $0 == id }
            return [.resumeWaiters([id])]
        }
        let waiters = record(.adsTimeout(breakNumber: pending[index].breakNumber, detail: Self.timeoutDetail))
        return [.resumeWaiters(waiters)]
    }

    /// The waiting request went away. It stops waiting; the decision keeps running for the session.
    public mutating func waiterCancelled(_ id: WaiterID) -> [Action] {
        guard let index = pending.firstIndex(where: { $0.waiters.contains(id) }) else { return [] }
        pending[index].waiters.removeAll { $0 == id }
        return [.resumeWaiters([id])]
    }

    /// Whether `id` still waits (the owner parks a continuation only for a waiting id).
    public func isWaiting(_ id: WaiterID) -> Bool {
        pending.contains { $0.waiters.contains(id) }
    }

    /// Breaks whose decision is on its way, by number.
    public var pendingBreaks: [Int] { pending.map(\.breakNumber) }

    // MARK: Playlists

    /// One rendition's stitched window, cut from the timeline (see `LiveWindowRenderer`), and
    /// remembered as what this rendition listed.
    ///
    /// Refused (`behindServed`) instead of answering with a window that starts or ends before
    /// the rendition's previous answer, or with no segments because the origin's `window` lies
    /// behind everything the session has listed: the player would see its media sequence go
    /// back, or an empty live playlist.
    public mutating func render(
        rendition: String, window: MediaPlaylist, targetDuration: Int,
        media: (Decision) -> LiveBreakMedia?,
        slotURI: (LiveSlotID, String) -> String = { $1 }
    ) -> Result<MediaPlaylist, RenderRefusal> {
        let decisions = self.decisions
        let playlist = LiveWindowRenderer.render(
            timeline, window: window, targetDuration: targetDuration,
            media: { decisions[$0].flatMap(media) }, slotURI: slotURI)
        let end = playlist.mediaSequence + playlist.segments.count
        let originLast = window.mediaSequence + window.segments.count - 1
        let behindTimeline = playlist.segments.isEmpty && timeline.entries.contains { $0.anchor > originLast }
        let index = served.firstIndex { $0.rendition == rendition }
        let listsLess = index.map { playlist.mediaSequence < served[$0].mediaSequence || end < served[$0].end } ?? false
        if listsLess || behindTimeline { return .failure(.behindServed) }
        let answer = ServedWindow(rendition: rendition, mediaSequence: playlist.mediaSequence, end: end)
        if let index { served[index] = answer } else { served.append(answer) }
        return .success(playlist)
    }

    // MARK: Recording

    /// Records `decision` for its break when the break is still pending, and returns the
    /// waiters of that break (to resume). The decision is shown by the next answer: a record must
    /// hold it first, or, for a decision made ahead, hold the change `shownOnceStored` that kept it.
    private mutating func record(_ decision: Decision, shownOnceStored: Int32? = nil) -> [WaiterID] {
        var waiters: [WaiterID] = []
        if let index = pending.firstIndex(where: { $0.breakNumber == decision.breakNumber }) {
            waiters = pending.remove(at: index).waiters
            // An emptied array keeps its storage; thousands of sessions should not.
            if pending.isEmpty { pending = [] }
        }
        guard timeline.breakNumbered(decision.breakNumber)?.phase == .pending else { return waiters }
        timeline.resolve(breakNumber: decision.breakNumber, layout: decision.layout)
        if let shownOnceStored {
            // The opening counts in the timeline's changes, not in the record's (see `changes`).
            prefetchChanges &-= 1
            shown = max(shown, shownOnceStored)
        } else {
            shown = max(shown, Int32(clamping: changes))
        }
        decisions[decision.breakNumber] = decision
        // Decisions of breaks that left the timeline are of no more use.
        if decisions.count > 1 { decisions.keep(Set(timeline.breaks.map(\.number))) }
        return waiters
    }
}

extension LiveSessionStateMachine.Snapshot: Equatable where Decision: Equatable {}

extension LiveSessionStateMachine.Snapshot: Codable where Decision: Codable {}

extension LiveSessionStateMachine.PrefetchedDecision: Equatable where Decision: Equatable {}

extension LiveSessionStateMachine.PrefetchedDecision: Codable where Decision: Codable {}

/// A live session's rules with Seam's decisions: the machine `LiveSession` owns, whose snapshot
/// is the live session record.
public typealias LiveSessionMachine = LiveSessionStateMachine<LiveBreakDecision>
