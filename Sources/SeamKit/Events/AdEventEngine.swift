import Foundation
import SeamWire

/// Turns the tracking JSON and playhead samples into ad events and client beacons.
///
/// A value with no I/O, after AsyncHTTPClient's `HTTPConnectionPool.StateMachine`: each input
/// (`updateTracking(_:)`, `playhead(time:playing:date:)`, `seek(to:date:)`) returns the actions
/// to run — events to deliver, beacons to fire — and the owner runs them outside its lock.
///
/// Rules, as the SSAI SDKs apply them:
/// - Playing across a time fires what lies between the two samples, in timeline order.
/// - A seek (a jump larger than `maxStep` forward or `backwardTolerance` back) ends the ad and
///   break it leaves without completing them, and fires none of the tracking events it jumped
///   over. An ad entered away from its start (`entryWindow`) reports start, progress and end,
///   but no tracking events: a view with a `complete` and no `impression` would count wrongly.
/// - Events repeat on every pass over a break; each beacon URL list fires once per ad per
///   session, so a replay or a rewind never counts an ad twice.
/// - VOD breaks sit at `startTimeSeconds` on the stitched timeline. Live breaks sit at
///   `startTimeSeconds` on the session's timeline, or — when the playhead gives a date and the
///   avail its `programDateTime` — at that date, which survives the live window sliding.
public struct AdEventEngine: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// A forward move between two samples larger than this is a seek, not playback.
        public var maxStep: Double
        /// A backward move larger than this is a seek; smaller ones are clock jitter.
        public var backwardTolerance: Double
        /// Entering an ad at most this far past its start counts as playing it from its start.
        public var entryWindow: Double

        public init(maxStep: Double = 2.0, backwardTolerance: Double = 0.25, entryWindow: Double = 1.0) {
            self.maxStep = maxStep
            self.backwardTolerance = backwardTolerance
            self.entryWindow = entryWindow
        }
    }

    /// What the owner does with the engine's answer, in order.
    public enum Action: Sendable, Equatable {
        /// Deliver to the app (stream, delegate).
        case emit(AdEvent)
        /// GET each URL (client and hybrid tracking; the server lists none in server mode).
        /// `key` names the beacon (`break/ad/event`) for a ledger shared with a
        /// picture-in-picture session of the same breaks.
        case fire([URL], key: String)
    }

    public let configuration: Configuration
    private var document: TrackingDocument?
    private var marks: [Mark] = []
    /// `programDateTime - startTimeSeconds` per live avail, for playheads that give a date.
    private var dateOffsets: [String: Double] = [:]
    private var fallbackDateOffset: Double?
    private var emittedCuePoints: [Double] = []
    private var position: Position?
    /// The player time since which playback has run without a seek: an ad that started after
    /// it was seen from its first frame, even when the tracking JSON listing it came late.
    private var continuousSince: Double?
    private var activeBreak: BreakInfo?
    /// The break was entered at its start: its `breakEnd` beacon may fire.
    private var activeBreakTracked = false
    private var activeAd: ActiveAd?
    private var firedBeacons: Set<BeaconKey> = []
    private var reportedSkips: Set<String> = []

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The break and ad the playhead is in, if any.
    public var currentBreak: BreakInfo? { activeBreak }
    public var currentAd: AdInfo? { activeAd?.info }

    // MARK: Inputs

    /// A new tracking JSON (live sessions fetch it again as breaks arrive). Breaks keep their
    /// ids across documents, so what was fired stays fired.
    public mutating func updateTracking(_ document: TrackingDocument) -> [Action] {
        self.document = document
        marks = Self.marks(of: document)
        dateOffsets = [:]
        for avail in document.avails {
            guard let text = avail.programDateTime, let date = Self.seconds(iso8601: text) else { continue }
            let offset = date - avail.startTimeSeconds
            dateOffsets[avail.availId] = offset
            fallbackDateOffset = offset
        }
        guard document.cuePoints != emittedCuePoints else { return [] }
        emittedCuePoints = document.cuePoints
        return [.emit(.cuePointsChanged(document.cuePoints))]
    }

    /// A playhead sample. `time` is the player's current time (the stitched timeline for VOD,
    /// the session's timeline for live); `date` its program date-time in seconds since 1970,
    /// when the player knows it (AVPlayerItem `currentDate()`).
    public mutating func playhead(time: Double, playing: Bool, date: Double? = nil) -> [Action] {
        guard time.isFinite else { return [] }
        let next = clockPosition(time: time, date: date)
        guard let previous = position else { return jump(to: next, playing: playing) }
        let played = next.time - previous.time
        if played > configuration.maxStep || played < -configuration.backwardTolerance {
            return jump(to: next, playing: playing)
        }
        guard previous.onDateClock == next.onDateClock else {
            // The first dated break arrived: the engine moves to the date clock. Playback went on;
            // what it is in now counts from where continuous playback began.
            var actions: [Action] = []
            position = next
            reconcile(at: next, entering: false, into: &actions)
            progress(at: next, playing: playing, into: &actions)
            return actions
        }
        guard next.value - previous.value > 0 else { return [] }
        var actions: [Action] = []
        for mark in marks {
            guard let at = clockTime(of: mark, onDateClock: next.onDateClock), at > previous.value, at <= next.value
            else { continue }
            cross(mark, into: &actions)
        }
        position = next
        reconcile(at: next, entering: false, into: &actions)
        progress(at: next, playing: playing, into: &actions)
        return actions
    }

    /// The player seeked (when it says so, rather than leaving the engine to infer it).
    public mutating func seek(to time: Double, date: Double? = nil, playing: Bool = true) -> [Action] {
        guard time.isFinite else { return [] }
        return jump(to: clockPosition(time: time, date: date), playing: playing)
    }

    /// Playback stopped (the app ended it, or the session expired): the ad and the break the
    /// playhead is in end, the ad not completed. Nothing fires.
    public mutating func close() -> [Action] {
        var actions: [Action] = []
        if let ad = activeAd { actions.append(.emit(.adEnded(ad.info, completed: false))) }
        if let current = activeBreak { actions.append(.emit(.breakEnded(current))) }
        activeAd = nil
        activeBreak = nil
        position = nil
        return actions
    }

    // MARK: Transitions

    private mutating func jump(to next: Position, playing: Bool) -> [Action] {
        var actions: [Action] = []
        let landing = locate(next)
        // A seek inside the ad that is playing keeps it: nothing passed is fired, nothing fired repeats.
        if let activeAd, let ad = landing.ad, ad.isSameAd(as: activeAd.info) {
            position = next
            continuousSince = next.time
            progress(at: next, playing: playing, into: &actions)
            return actions
        }
        position = next
        continuousSince = next.time
        reconcile(at: next, entering: true, into: &actions)
        progress(at: next, playing: playing, into: &actions)
        return actions
    }

    /// Brings the active break and ad in line with where the playhead is: ends what it left,
    /// starts what it is in (a seek's landing, or a break the document listed late).
    private mutating func reconcile(at position: Position, entering: Bool, into actions: inout [Action]) {
        let here = locate(position)
        if let ad = activeAd, !(here.ad?.isSameAd(as: ad.info) ?? false) {
            actions.append(.emit(.adEnded(ad.info, completed: false)))
            activeAd = nil
        }
        if let current = activeBreak, here.breakInfo?.id != current.id {
            actions.append(.emit(.breakEnded(current)))
            activeBreak = nil
        }
        if entering {
            for mark in marks {
                guard case .skipped(let id, let reason) = mark.kind,
                    let at = clockTime(of: mark, onDateClock: position.onDateClock),
                    abs(at - position.value) <= configuration.entryWindow
                else { continue }
                reportSkip(id: id, reason: reason, into: &actions)
            }
        }
        guard let info = here.breakInfo else { return }
        if activeBreak == nil {
            activeBreak = info
            activeBreakTracked = false
            actions.append(.emit(.breakStarted(info)))
        }
        guard let ad = here.ad, activeAd == nil, let adStart = here.adStart else { return }
        // Within the entry window of its start, or played into without a seek (a break the
        // tracking JSON listed after the playhead reached it): seen from its start.
        let playedInto = continuousSince.map { $0 <= position.time - (position.value - adStart) + 0.001 } ?? false
        let fromStart = position.value - adStart <= configuration.entryWindow || playedInto
        activeAd = ActiveAd(info: ad, tracked: fromStart, fired: [])
        actions.append(.emit(.adStarted(ad)))
        guard fromStart else { return }
        if ad.index == 0, let breakStart = marks.first(where: { $0.isBreakStart(of: info.id) }) {
            cross(breakStart, into: &actions)
        }
        for mark in marks {
            guard case .tracking(let markAd, _, _) = mark.kind, markAd.isSameAd(as: ad),
                let at = clockTime(of: mark, onDateClock: position.onDateClock), at <= position.value
            else { continue }
            cross(mark, into: &actions)
        }
    }

    /// Playback crossed `mark`.
    private mutating func cross(_ mark: Mark, into actions: inout [Action]) {
        switch mark.kind {
        case .breakStart(let info, let urls):
            if activeBreak?.id != info.id {
                if let current = activeBreak { actions.append(.emit(.breakEnded(current))) }
                activeBreak = info
                actions.append(.emit(.breakStarted(info)))
            }
            activeBreakTracked = true
            fire(urls, key: BeaconKey(breakId: info.id, ad: -1, event: "breakStart"), into: &actions)
        case .adStart(let ad):
            guard !(activeAd?.info.isSameAd(as: ad) ?? false) else { return }
            if let previous = activeAd { actions.append(.emit(.adEnded(previous.info, completed: false))) }
            activeAd = ActiveAd(info: ad, tracked: true, fired: [])
            actions.append(.emit(.adStarted(ad)))
        case .tracking(let ad, let event, let urls):
            guard var active = activeAd, active.info.isSameAd(as: ad), active.tracked, !active.fired.contains(event)
            else { return }
            active.fired.insert(event)
            activeAd = active
            actions.append(.emit(.tracking(ad, event: event)))
            fire(urls, key: BeaconKey(breakId: ad.breakId, ad: ad.index, event: event.rawValue), into: &actions)
        case .adEnd(let ad):
            guard let active = activeAd, active.info.isSameAd(as: ad) else { return }
            actions.append(.emit(.adEnded(ad, completed: active.tracked)))
            activeAd = nil
        case .breakEnd(let info, let urls):
            guard activeBreak?.id == info.id else { return }
            actions.append(.emit(.breakEnded(info)))
            activeBreak = nil
            guard activeBreakTracked else { return }
            fire(urls, key: BeaconKey(breakId: info.id, ad: -1, event: "breakEnd"), into: &actions)
        case .skipped(let id, let reason):
            reportSkip(id: id, reason: reason, into: &actions)
        }
    }

    private mutating func progress(at position: Position, playing: Bool, into actions: inout [Action]) {
        guard playing, let ad = activeAd?.info, let start = adStart(ad, onDateClock: position.onDateClock) else {
            return
        }
        let elapsed = min(max(position.value - start, 0), ad.duration)
        actions.append(.emit(.adProgress(ad, elapsed: elapsed, duration: ad.duration)))
    }

    private mutating func reportSkip(id: String, reason: String, into actions: inout [Action]) {
        guard reportedSkips.insert(id).inserted else { return }
        actions.append(.emit(.breakSkipped(id: id, reason: reason)))
    }

    private mutating func fire(_ urls: [String], key: BeaconKey, into actions: inout [Action]) {
        let parsed = urls.compactMap(URL.init(string:))
        guard !parsed.isEmpty, firedBeacons.insert(key).inserted else { return }
        actions.append(.fire(parsed, key: "\(key.breakId)/\(key.ad)/\(key.event)"))
    }

    // MARK: Timeline

    /// Where the playhead is: on the session's timeline, or on the program date-time clock
    /// when the sample gives a date and the document dates its breaks.
    private struct Position: Sendable, Equatable {
        var value: Double
        var onDateClock: Bool
        /// The player's own time: what tells playback from a seek. On the date clock a splice
        /// can jump (an ad shorter than the break it fills puts the content after it seconds
        /// ahead in program date-time) while the player plays on without a gap.
        var time: Double
    }

    private func clockPosition(time: Double, date: Double?) -> Position {
        if let date, date.isFinite, fallbackDateOffset != nil {
            return Position(value: Self.millisecond(date), onDateClock: true, time: time)
        }
        return Position(value: time, onDateClock: false, time: time)
    }

    private func offset(of breakId: String, onDateClock: Bool) -> Double? {
        guard onDateClock else { return 0 }
        return dateOffsets[breakId] ?? fallbackDateOffset
    }

    private func clockTime(of mark: Mark, onDateClock: Bool) -> Double? {
        offset(of: mark.breakId, onDateClock: onDateClock).map { Self.millisecond(mark.time + $0) }
    }

    private func adStart(_ ad: AdInfo, onDateClock: Bool) -> Double? {
        offset(of: ad.breakId, onDateClock: onDateClock).map { Self.millisecond(ad.start + $0) }
    }

    /// The filled break and ad at `position` (half-open: a break's end is already after it).
    private func locate(_ position: Position) -> (breakInfo: BreakInfo?, ad: AdInfo?, adStart: Double?) {
        guard let document else { return (nil, nil, nil) }
        for avail in document.avails where !avail.ads.isEmpty && avail.durationSeconds > 0 {
            guard let offset = offset(of: avail.availId, onDateClock: position.onDateClock) else { continue }
            let start = Self.millisecond(avail.startTimeSeconds + offset)
            guard position.value >= start,
                position.value < Self.millisecond(avail.startTimeSeconds + avail.durationSeconds + offset)
            else { continue }
            let info = Self.breakInfo(avail)
            for (index, ad) in avail.ads.enumerated() {
                let adStart = Self.millisecond(ad.startTimeSeconds + offset)
                if position.value >= adStart,
                    position.value < Self.millisecond(ad.startTimeSeconds + ad.durationSeconds + offset)
                {
                    return (info, Self.adInfo(ad, index: index, breakId: avail.availId), adStart)
                }
            }
            return (info, nil, nil)
        }
        return (nil, nil, nil)
    }

    private struct ActiveAd: Sendable {
        var info: AdInfo
        /// Entered at its start: its tracking events fire.
        var tracked: Bool
        var fired: Set<AdTrackingEvent>
    }

    private struct BeaconKey: Sendable, Hashable {
        var breakId: String
        /// -1 for the break's own events.
        var ad: Int
        var event: String
    }

    /// A point on the session's timeline where something happens.
    private struct Mark: Sendable {
        enum Kind: Sendable {
            case breakStart(BreakInfo, urls: [String])
            case adStart(AdInfo)
            case tracking(AdInfo, AdTrackingEvent, urls: [String])
            case adEnd(AdInfo)
            case breakEnd(BreakInfo, urls: [String])
            case skipped(id: String, reason: String)
        }

        /// To the millisecond, as the tracking JSON is written: an ad's `complete` and its end,
        /// computed apart, must land on the same instant.
        var time: Double
        /// Among marks at the same time: what ends before what starts.
        var rank: Int
        var breakId: String
        var kind: Kind

        func isBreakStart(of id: String) -> Bool {
            if case .breakStart(let info, _) = kind { return info.id == id }
            return false
        }
    }

    private static func breakInfo(_ avail: TrackingDocument.Avail) -> BreakInfo {
        BreakInfo(
            id: avail.availId, position: avail.position, cuePoint: avail.cuePoint, start: avail.startTimeSeconds,
            duration: avail.durationSeconds, adCount: avail.ads.count)
    }

    private static func adInfo(_ ad: TrackingDocument.Ad, index: Int, breakId: String) -> AdInfo {
        AdInfo(
            id: ad.adId, title: ad.title, start: ad.startTimeSeconds, duration: ad.durationSeconds,
            skipOffset: ad.skipOffsetSeconds,
            index: index, breakId: breakId, verifications: ad.adVerifications)
    }

    private static func marks(of document: TrackingDocument) -> [Mark] {
        var marks: [Mark] = []
        for avail in document.avails {
            let id = avail.availId
            if let reason = avail.skipReason, avail.ads.isEmpty {
                marks.append(
                    Mark(time: avail.startTimeSeconds, rank: 3, breakId: id, kind: .skipped(id: id, reason: reason)))
                continue
            }
            guard !avail.ads.isEmpty, avail.durationSeconds > 0 else { continue }
            let info = breakInfo(avail)
            let breakURLs = { (name: String) in avail.trackingEvents.filter { $0.event == name }.flatMap(\.beaconUrls) }
            marks.append(
                Mark(
                    time: avail.startTimeSeconds, rank: 4, breakId: id,
                    kind: .breakStart(info, urls: breakURLs("breakStart"))))
            marks.append(
                Mark(
                    time: avail.startTimeSeconds + avail.durationSeconds, rank: 2, breakId: id,
                    kind: .breakEnd(info, urls: breakURLs("breakEnd"))))
            for (index, ad) in avail.ads.enumerated() {
                let adInfo = adInfo(ad, index: index, breakId: id)
                marks.append(Mark(time: ad.startTimeSeconds, rank: 5, breakId: id, kind: .adStart(adInfo)))
                marks.append(
                    Mark(time: ad.startTimeSeconds + ad.durationSeconds, rank: 1, breakId: id, kind: .adEnd(adInfo)))
                for tracked in ad.trackingEvents {
                    guard let event = AdTrackingEvent(rawValue: tracked.event) else { continue }
                    let rank = event == .complete ? 0 : 6 + (AdTrackingEvent.allCases.firstIndex(of: event) ?? 0)
                    marks.append(
                        Mark(
                            time: tracked.startTimeSeconds, rank: rank, breakId: id,
                            kind: .tracking(adInfo, event, urls: tracked.beaconUrls)))
                }
            }
        }
        for index in marks.indices { marks[index].time = (marks[index].time * 1000).rounded() / 1000 }
        return marks.sorted { ($0.time, $0.rank) < ($1.time, $1.rank) }
    }

    /// Every time the engine compares is rounded to the millisecond the tracking JSON is written
    /// in: on the date clock (seconds since 1970) an ad's end computed as `start + offset +
    /// duration` and its `complete` as `end + offset` differ in the last bit, which put a sample
    /// past the ad before its `complete`.
    static func millisecond(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }

    /// `YYYY-MM-DDThh:mm:ss(.sss)Z` (or with an offset), as the tracking JSON writes program
    /// date-times.
    static func seconds(iso8601 text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}

extension AdInfo {
    /// The same ad of the same break, even if a newer tracking JSON changed its details (a live
    /// break that ended early is listed shorter): what keeps a refresh from restarting it.
    func isSameAd(as other: AdInfo) -> Bool {
        breakId == other.breakId && index == other.index && id == other.id
    }
}
