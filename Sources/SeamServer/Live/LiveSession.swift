import Foundation
import HLS
import NIOConcurrencyHelpers
import Stitching

/// One viewer of a live channel. The stitched timeline (`LiveTimeline`) and the break
/// decisions live here behind a lock; playlists are cut from them on each request, so a
/// session holds a few hundred bytes of timeline, not rendered playlists.
public final class LiveSession: Sendable {
    public let id: SessionID
    let channel: LiveChannel
    let inputs: SessionBuilder.Inputs
    let trackingMode: TrackingMode
    private let state: NIOLockedValueBox<State>

    struct State: Sendable {
        var timeline: LiveTimeline
        var decisions: [Int: LiveBreakDecision] = [:]
        /// Breaks whose decision is queued or running, by number.
        var deciding: [Int: PendingDecision] = [:]
        var nextWaiterID: UInt64 = 0
        /// What each rendition's last answer listed, so no later answer lists less (see `render`).
        /// A small array, not a dictionary: a session has a handful of renditions, and ten
        /// thousand sessions pay for every byte (BENCHMARKS.md, live memory).
        var served: [ServedWindow] = []
    }

    /// The media sequence numbers of a rendition's last answer: `mediaSequence..<end`.
    struct ServedWindow: Sendable {
        var rendition: String
        var mediaSequence: Int
        var end: Int
    }

    /// A decision on its way, and the requests waiting for it.
    struct PendingDecision: Sendable {
        var deadline: ContinuousClock.Instant
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    init(id: SessionID, channel: LiveChannel, inputs: SessionBuilder.Inputs, trackingMode: TrackingMode,
         defaultBreakSeconds: Double) {
        self.id = id
        self.channel = channel
        self.inputs = inputs
        self.trackingMode = trackingMode
        let configuration = LiveTimeline.Configuration(defaultBreakSeconds: defaultBreakSeconds, schedule: channel.schedule,
                                                       targetDuration: channel.content.reference.targetDuration)
        state = NIOLockedValueBox(State(timeline: LiveTimeline(configuration: configuration)))
    }

    var baseURL: String { inputs.baseURL + "/v1/sessions/\(id)" }

    // MARK: Timeline

    /// Brings the timeline up to the reference rendition's `window`. A break seen for the first
    /// time gets its ad decision queued (once per session) with `budget` to land; until then
    /// the timeline stops before the break. Only a session start waits for it
    /// (`waitForDecision`, up to the whole budget), so a break under way is in the first
    /// playlist. A reload never waits: an ad decision takes an ad server round trip, and a reload
    /// answered that late is a latency spike for every viewer at every cue. The player, a few
    /// segments behind the live edge, gets the break one reload later without noticing.
    /// A decision that misses its budget leaves the break to content (`ADS_TIMEOUT`).
    func advance(with window: MediaPlaylist, decider: LiveBreakDecider, budget: Duration, waitForDecision: Bool) async {
        enum Step { case done, again, pending(number: Int, deadline: ContinuousClock.Instant) }
        while true {
            let now = ContinuousClock.now
            var submit: (LiveBreak, ContinuousClock.Instant)?
            var timedOut: [CheckedContinuation<Void, Never>] = []
            let step = state.withLockedValue { state -> Step in
                guard case .needsDecision(let pending) = state.timeline.advance(with: window) else { return .done }
                if let running = state.deciding[pending.number] {
                    guard now < running.deadline else {
                        timedOut = Self.record(.unfilled(pending.number, reason: .adsTimeout, detail: Self.timeoutDetail), in: &state)
                        return .again
                    }
                    return .pending(number: pending.number, deadline: running.deadline)
                }
                let deadline = now + budget
                state.deciding[pending.number] = PendingDecision(deadline: deadline)
                submit = (pending, deadline)
                return .pending(number: pending.number, deadline: deadline)
            }
            timedOut.forEach { $0.resume() }
            if let (item, deadline) = submit {
                let number = item.number
                decider.queue.submit(deadline: deadline) { [self] in
                    land(await decider.decide(item, for: self, budgetEnd: deadline))
                } expired: { [self] in
                    land(.unfilled(number, reason: .adsTimeout,
                                   detail: "the decision waited for a free slot (live.adRequestConcurrency) past the ad budget"))
                }
            }
            switch step {
            case .done:
                return
            case .again:
                continue
            case .pending(let number, let deadline):
                guard waitForDecision else { return }
                if await !waitForLanding(of: number, until: deadline) {
                    land(.unfilled(number, reason: .adsTimeout, detail: Self.timeoutDetail))
                }
            }
        }
    }

    private static let timeoutDetail = "no ad decision within the ad budget; the break plays content"

    /// Waits until break `number` is decided or `until` passes; true when it was decided.
    private func waitForLanding(of number: Int, until: ContinuousClock.Instant) async -> Bool {
        let id = state.withLockedValue { state in
            defer { state.nextWaiterID &+= 1 }
            return state.nextWaiterID
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let resumeNow = self.state.withLockedValue { state -> Bool in
                            // Cancelled before it could register (the handler found nothing to resume), or decided already.
                            guard !Task.isCancelled, state.deciding[number] != nil else { return true }
                            state.deciding[number]?.waiters[id] = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                    return !Task.isCancelled
                } onCancel: {
                    self.state.withLockedValue { $0.deciding[number]?.waiters.removeValue(forKey: id) }?.resume()
                }
            }
            group.addTask {
                try? await Task.sleep(until: until, clock: .continuous)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Records a decision for a pending break; a late one (the break already went to content) is dropped.
    func land(_ decision: LiveBreakDecision) {
        let waiters = state.withLockedValue { state in
            Self.record(decision, in: &state)
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns the requests that waited for the decision, to be resumed outside the lock.
    private static func record(_ decision: LiveBreakDecision, in state: inout State) -> [CheckedContinuation<Void, Never>] {
        let waiters = state.deciding.removeValue(forKey: decision.breakNumber).map { Array($0.waiters.values) } ?? []
        // An emptied dictionary keeps its storage; thousands of sessions should not.
        if state.deciding.isEmpty { state.deciding = [:] }
        guard state.timeline.breakNumbered(decision.breakNumber)?.phase == .pending else { return waiters }
        state.timeline.resolve(breakNumber: decision.breakNumber, layout: decision.layout)
        state.decisions[decision.breakNumber] = decision
        // Decisions of breaks that left the timeline are of no more use.
        if state.decisions.count > 1 {
            let kept = Set(state.timeline.breaks.map(\.number))
            state.decisions = state.decisions.filter { kept.contains($0.key) }
        }
        return waiters
    }

    // MARK: Playlists

    /// The stitched window of one rendition, cut from the session timeline.
    ///
    /// Throws `ORIGIN_INVALID_PLAYLIST` instead of answering with a window that starts or ends
    /// before the rendition's previous answer, or with no segments because the origin's window lies
    /// behind everything the session has listed: the player would see its media sequence go back,
    /// or an empty live playlist. The origin cache refuses a window that moves backwards and serves
    /// the last good one for `live.maxStaleSeconds`; it only hands such a window out after that (it
    /// then follows the origin's new numbering, for new sessions), and this session cannot follow.
    func render(_ key: String, window: MediaPlaylist) throws(SeamError) -> MediaPlaylist {
        let routeAds = trackingMode != .client && channel.rendition(key)?.kind != .subtitles
        let urls = SessionURLs(baseURL: inputs.baseURL, sessionID: id.value)
        let renditionKey = RenditionKey(key)
        let outcome = state.withLockedValue { state -> Result<MediaPlaylist, SeamError> in
            let playlist = LiveWindowRenderer.render(state.timeline, window: window, targetDuration: channel.targetDuration,
                                                     media: { state.decisions[$0]?.media[key] },
                                                     slotURI: { slot, uri in
                guard routeAds, case .ad(let ad, let segment) = slot.source, let renditionKey else { return urls.segmentURI(uri) }
                return urls.adSegment(AdSegmentAddress(pod: slot.breakNumber, ad: ad, rendition: renditionKey, segment: segment), sourceURI: uri)
            })
            let end = playlist.mediaSequence + playlist.segments.count
            let originLast = window.mediaSequence + window.segments.count - 1
            let behindTimeline = playlist.segments.isEmpty && state.timeline.entries.contains { $0.anchor > originLast }
            let index = state.served.firstIndex { $0.rendition == key }
            let listsLess = index.map { playlist.mediaSequence < state.served[$0].mediaSequence || end < state.served[$0].end } ?? false
            if listsLess || behindTimeline { return .failure(Self.wentBackwards(key, window: window)) }
            let served = ServedWindow(rendition: key, mediaSequence: playlist.mediaSequence, end: end)
            if let index { state.served[index] = served } else { state.served.append(served) }
            return .success(playlist)
        }
        return try outcome.get()
    }

    static func wentBackwards(_ key: String, window: MediaPlaylist) -> SeamError {
        let last = window.mediaSequence + window.segments.count - 1
        return SeamError(.originInvalidPlaylist, "the origin's live window for rendition \(key) (media sequence \(window.mediaSequence)-\(last)) is behind what this session has already played: the origin went backwards or restarted its numbering, and its last good window is older than live.maxStaleSeconds. Start playback again to get a new session")
    }

    /// `.ts`, `.m4s`, ... of a segment URI (for players that look at it), or "" when there is
    /// none or it is odd. Runs for every ad segment of every reload, so it scans bytes.
    static func extensionSuffix(_ uri: String) -> String {
        let bytes = uri.utf8
        var end = bytes.endIndex
        if let query = bytes.firstIndex(of: UInt8(ascii: "?")) { end = query }
        var index = end
        while index > bytes.startIndex {
            let previous = bytes.index(before: index)
            switch bytes[previous] {
            case UInt8(ascii: "."):
                let length = bytes.distance(from: previous, to: end)
                guard length > 1, length <= 5 else { return "" }
                return String(uri[previous..<end])
            case UInt8(ascii: "/"):
                return ""
            default:
                index = previous
            }
        }
        return ""
    }

    // MARK: Server-side tracking

    /// Where an ad segment really is, which events fetching it reports, and their beacons.
    func adSegment(breakNumber: Int, ad: Int, rendition: String, segment: Int) -> (url: String, events: [AdProgressEvent], beacons: [AdProgressEvent: [String]])? {
        state.withLockedValue { state in
            guard let decision = state.decisions[breakNumber], let resolved = decision.ads[safe: ad] ?? nil,
                  let playlist = decision.media[rendition]?.ads[safe: ad] ?? nil,
                  let target = playlist.segments[safe: segment] else { return nil }
            let events = AdProgressEvent.due(atSegment: segment, of: playlist)
            var beacons: [AdProgressEvent: [String]] = [:]
            let played = decision.layout.playedAds
            for event in events where trackingMode.seamFires(event.rawValue) {
                var urls = resolved.urls(for: event)
                if trackingMode.seamFires("breakStart") {
                    if event == .impression, ad == played.first { urls += decision.breakStartURLs }
                    if event == .complete, ad == played.last { urls += decision.breakEndURLs }
                }
                beacons[event] = urls
            }
            return (target.uri, events, beacons)
        }
    }

    // MARK: Client-side tracking

    /// Recent avails on the session's stitched timeline (seconds since the session's first
    /// segment), with program date-times when the origin gives them.
    func tracking() -> TrackingDocument {
        state.withLockedValue { state in
            TrackingBuilder.live(sessionID: id.value, mode: trackingMode, timeline: state.timeline) { state.decisions[$0]?.tracking }
        }
    }
}
