import DASH
import Foundation
import HLS
import Stitching

/// One viewer of a live channel: the owner of the session's `LiveSessionStateMachine`. It
/// takes the lock, asks the machine, and runs what the machine says outside the lock: submits
/// ad decisions to the break decision queue, resumes the requests that waited for one, arms
/// their timers. The stitched timeline and the decisions live in the machine; playlists are cut
/// from them on each request, so a session holds a few hundred bytes of timeline, not rendered
/// playlists. Time comes from the decision queue's clock (`BreakDecisionQueue.clock`, the one
/// clock of `LiveServices`), so a session stores none.
package final class LiveSession: Sendable {
    package let id: SessionID
    let channel: LiveChannel
    let inputs: SessionInputs
    let trackingMode: TrackingMode
    /// The rendering `manifestUrl` named when the session was created.
    let mode: SessionMode
    /// How the interstitials rendering lets the viewer move through breaks: read from the
    /// request when rendering, not stored (thousands of sessions; most ask for no policy).
    var policy: InterstitialPolicy { InterstitialPolicy(inputs.request.policy) }
    /// The channel's variants this viewer gets (`renditions` of the request), nil for all: read
    /// from the request when answering a multivariant playlist or an ad asset, not stored.
    var admittedVariants: Set<Int>? {
        try? inputs.request.renditions?.admittedVariants(of: channel.content.multivariant.variants)
    }
    /// The main session of a picture-in-picture session (the root main); nil for a main. The
    /// main asks the ad server for a pip, so its id is the requester's (not stored: two words
    /// less in every session).
    var pipOf: SessionID? { adRequester?.id }
    /// Whose inputs and id ask the ad server for a break this session sees first: the main's
    /// for a pip (the break is the main's decision, shared), nil for a main (itself).
    private let adRequester: LiveSession?
    /// The timeline and decisions. A pip holds its main's box: one timeline, one decision per
    /// break, whichever session's reload sees the cue; the box lives while either session does.
    private let state: LiveSessionStateBox<State>

    typealias Machine = LiveSessionMachine
    typealias WaiterID = Machine.WaiterID

    struct State: Sendable {
        var machine: Machine
        /// The continuations of session starts waiting for a decision, by the machine's waiter id.
        var waiters = WaiterTable<WaiterID, Void>()

        var timeline: LiveTimeline { machine.timeline }
        var decisions: BreakDecisions<LiveBreakDecision> { machine.decisions }
    }

    /// Every session is made here: a main owns its state box, a pip holds its main's.
    private init(
        id: SessionID, channel: LiveChannel, inputs: SessionInputs, trackingMode: TrackingMode, mode: SessionMode,
        adRequester: LiveSession?, state: LiveSessionStateBox<State>
    ) {
        self.id = id
        self.mode = mode
        self.channel = channel
        self.inputs = inputs
        self.trackingMode = trackingMode
        self.adRequester = adRequester
        self.state = state
    }

    convenience init(
        id: SessionID, channel: LiveChannel, inputs: SessionInputs, trackingMode: TrackingMode,
        defaultBreakSeconds: Double, mode: SessionMode = .stitched, completesAdOnEarlyReturn: Bool = false,
        prerollSeconds: Double? = nil
    ) {
        let configuration = LiveTimeline.Configuration(
            defaultBreakSeconds: defaultBreakSeconds, schedule: channel.schedule,
            targetDuration: channel.content.reference.targetDuration,
            completesAdOnEarlyReturn: completesAdOnEarlyReturn, prerollSeconds: prerollSeconds)
        self.init(
            id: id, channel: channel, inputs: inputs, trackingMode: trackingMode, mode: mode, adRequester: nil,
            state: LiveSessionStateBox(State(machine: Machine(timeline: channel.begunTimeline(configuration)))))
    }

    /// A session taken up from its record on a replica that did not hold it (the one that did
    /// was lost, or the load balancer moved the viewer): the machine resumed from the record's
    /// snapshot (`LiveSessionMachine(resuming:)`). The next reload brings the timeline to the
    /// origin's window exactly as the previous replica would have, so media and discontinuity
    /// sequence numbers go on; the decisions' media come from the channel by creative URL.
    convenience init(
        resuming snapshot: LiveSessionMachine.Snapshot, id: SessionID, channel: LiveChannel, inputs: SessionInputs,
        trackingMode: TrackingMode, mode: SessionMode
    ) {
        self.init(
            id: id, channel: channel, inputs: inputs, trackingMode: trackingMode, mode: mode, adRequester: nil,
            state: LiveSessionStateBox(State(machine: Machine(resuming: snapshot))))
    }

    /// A picture-in-picture session of `main`: its own id, URLs, inputs and rendering mode, on
    /// the main's timeline and decisions (breaks the main decided, and those decided later by
    /// whichever of them reloads first). A pip of a pip follows the root main.
    convenience init(pipOf main: LiveSession, id: SessionID, inputs: SessionInputs, mode: SessionMode) {
        self.init(
            id: id, channel: main.channel, inputs: inputs, trackingMode: main.trackingMode, mode: mode,
            adRequester: main.adRequester ?? main, state: main.state)
    }

    // MARK: Timeline

    /// Brings the timeline up to the reference rendition's `window`. A break seen for the first
    /// time gets its ad decision queued (once per session) with `budget` to land; until then
    /// the timeline stops before the break. Only a session start waits for it
    /// (`waitForDecision`, up to the whole budget), so a break under way is in the first
    /// playlist. A reload never waits: an ad decision takes an ad server round trip, and a reload
    /// answered that late is a latency spike for every viewer at every cue. The player, a few
    /// segments behind the live edge, gets the break one reload later without noticing.
    /// A decision that misses its budget leaves the break to content (`ADS_TIMEOUT`).
    /// The rules are `LiveSessionStateMachine`'s; this runs its actions.
    func advance(
        with window: MediaPlaylist, decider: LiveBreakDecider, budget: Duration, waitForDecision: Bool,
        announced: [AnnouncedBreak] = [], prefetchLead: Duration? = nil
    ) async {
        let clock = decider.queue.clock
        while true {
            let now = clock.now
            let actions = handle {
                $0.reload(
                    window: window, now: now, budget: budget, isSessionStart: waitForDecision, announced: announced,
                    prefetchLead: prefetchLead)
            }
            var waiting: (id: WaiterID, until: ContinuousClock.Instant)?
            for action in actions {
                switch action {
                case .submitDecision(let item, let deadline): submit(item, deadline: deadline, decider: decider)
                case .submitPrefetch(let item, let deadline): prefetch(item, deadline: deadline, decider: decider)
                case .wait(let id, let until): waiting = (id, until)
                case .resumeWaiters, .answer: break
                }
            }
            guard let waiting else { return }
            // Resumed by the decision, its deadline, or cancellation; reload again unless cancelled.
            guard await wait(waiting.id, until: waiting.until, clock: clock) else { return }
        }
    }

    /// A reload's advance (never a session start: nothing waits), without suspending: the
    /// machine's answer for `window`, with its decisions and prefetches queued. The early playlist
    /// path runs it on the network thread (`LiveSessionFactory.playlistAtHand`).
    func advanceNow(
        with window: MediaPlaylist, decider: LiveBreakDecider, budget: Duration, announced: [AnnouncedBreak],
        prefetchLead: Duration?
    ) {
        let now = decider.queue.clock.now
        let actions = handle {
            $0.reload(
                window: window, now: now, budget: budget, isSessionStart: false, announced: announced,
                prefetchLead: prefetchLead)
        }
        for action in actions {
            switch action {
            case .submitDecision(let item, let deadline): submit(item, deadline: deadline, decider: decider)
            case .submitPrefetch(let item, let deadline): prefetch(item, deadline: deadline, decider: decider)
            case .wait, .resumeWaiters, .answer: break
            }
        }
    }

    /// Queues the decision of `item`; its outcome lands in the machine, on time or not.
    private func submit(_ item: LiveBreak, deadline: ContinuousClock.Instant, decider: LiveBreakDecider) {
        let number = item.number
        let clock = decider.queue.clock
        decider.queue.submit(deadline: deadline) { [self] in
            land(await decider.decide(item, for: adRequester ?? self, budgetEnd: deadline), now: clock.now)
        } expired: { [self] in
            handle { $0.decisionExpired(breakNumber: number, detail: Self.queueTimeoutDetail) }
        }
    }

    /// Queues the decision of a break not open yet (prefetch); it lands under the break's signal id.
    private func prefetch(_ item: LiveBreak, deadline: ContinuousClock.Instant, decider: LiveBreakDecider) {
        guard let signal = item.signalID else { return }
        decider.queue.submit(deadline: deadline) { [self] in
            var decision = await decider.decide(item, for: adRequester ?? self, budgetEnd: deadline)
            decision.prefetched = true
            decision.shareBody(channel.decisionBodies.intern)
            handle { $0.prefetchLanded(decision, signalID: signal) }
        } expired: { [self] in
            handle { $0.prefetchExpired(signalID: signal, detail: Self.queueTimeoutDetail) }
        }
    }

    private static let queueTimeoutDetail =
        "the decision waited for a free slot (live.adRequestConcurrency) past the ad budget"

    /// Parks the request as waiter `id` until the machine resumes it (decision landed or timed
    /// out) or the task is cancelled; false when cancelled. A timer sends `waiterTimedOut` at `until`.
    private func wait(_ id: WaiterID, until: ContinuousClock.Instant, clock: SeamClock) async -> Bool {
        let timer = Task { [self] in
            try? await clock.sleep(until: until)
            guard !Task.isCancelled else { return }
            handle { $0.waiterTimedOut(id, now: clock.now) }
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if state.withLockedValue({ $0.waiters.park(id, continuation) }) != nil { continuation.resume() }
            }
        } onCancel: {
            handle { $0.waiterCancelled(id) }
        }
        return !Task.isCancelled
    }

    /// Records a decision for a pending break; a late one (past its budget, or the break already
    /// went to content) is dropped.
    func land(_ decision: LiveBreakDecision, now: ContinuousClock.Instant) {
        handle { $0.decisionLanded(decision, now: now) }
    }

    /// Sends one event to the machine under the lock, resumes the waiters it names outside the
    /// lock, and returns its actions for the caller to run the rest.
    @discardableResult
    private func handle(_ event: (inout Machine) -> [Machine.Action]) -> [Machine.Action] {
        let (actions, continuations) = state.withLockedValue {
            state -> ([Machine.Action], [CheckedContinuation<Void, Never>]) in
            let actions = event(&state.machine)
            var continuations: [CheckedContinuation<Void, Never>] = []
            for case .resumeWaiters(let ids) in actions {
                for id in ids {
                    if let continuation = state.waiters.answer(id, with: ()) { continuations.append(continuation) }
                }
            }
            return (actions, continuations)
        }
        for continuation in continuations { continuation.resume() }
        return actions
    }

    /// Breaks whose decision is on its way (for tests).
    var pendingBreaks: [Int] { state.withLockedValue { $0.machine.pendingBreaks } }

    /// The interstitial id of each break on the timeline, decided or not (for tests).
    var breakIDs: [InterstitialBreakID] {
        state.withLockedValue { $0.timeline.breaks.map(InterstitialBreakID.init(liveBreak:)) }
    }

    /// Breaks on the timeline that are decided (filled, or given to content), by number: what
    /// session analytics has yet to report is among them.
    var decidedBreaks: [Int] {
        state.withLockedValue { $0.timeline.breaks.compactMap { $0.phase == .pending ? nil : $0.number } }
    }

    /// The session's state as a session record keeps it: the machine's snapshot on its channel.
    func snapshot() -> SessionRecord.Live {
        SessionRecord.Live(channelURL: channel.url, session: state.withLockedValue { $0.machine.snapshot })
    }

    /// The record kind of this session before its first reload (shared by the channel's sessions).
    func begunRecordKind() -> SessionRecord.Kind {
        channel.begunRecordKind(state.withLockedValue { $0.machine.timeline.configuration })
    }

    /// The creative URLs of the ads (and bumpers) this session's decisions play whose media the channel does
    /// not hold (a session taken up from its record, or media the channel let go): the refresh
    /// fetches them before rendering.
    func creativesWithoutMedia() -> [String] {
        let urls = state.withLockedValue { state -> [String] in
            var urls: [String] = []
            for decision in state.decisions.values {
                for case let ad? in decision.ads where !urls.contains(ad.creativeURL) { urls.append(ad.creativeURL) }
                for url in (decision.bumperURLs ?? [:]).values where !urls.contains(url) { urls.append(url) }
            }
            return urls
        }
        return urls.isEmpty ? [] : channel.creativesWithoutMedia(urls)
    }

    /// The session whose timeline this one plays: a pip's main (they share one), else itself.
    /// Its record holds the state (`SessionRuntime.saveLive`).
    var timelineOwner: LiveSession { adRequester ?? self }

    /// Counts the timeline's changes (`LiveTimeline.changes`: a break decided or ended, a cue
    /// seen ahead): analytics looks at the breaks again only when it moved.
    var changes: Int { state.withLockedValue { $0.timeline.changes } }

    /// The machine's `changes`, and the count a record must hold before an answer may show the
    /// timeline (`LiveSessionMachine.changesShown`), read together.
    var recordChanges: (changes: Int, shown: Int) {
        state.withLockedValue { ($0.machine.changes, $0.machine.changesShown) }
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
        let routeAds = channel.rendition(key).map { trackingMode.routesAdSegments(in: $0.kind) } ?? false
        let urls = SessionURLs(baseURL: inputs.baseURL, sessionID: id.value)
        let renditionKey = RenditionKey(key)
        let outcome = state.withLockedValue { state -> Result<MediaPlaylist, SeamError> in
            let playlist = state.machine.render(
                rendition: key, window: window, targetDuration: channel.targetDuration,
                media: { decision in renditionKey.map { channel.breakMedia(decision, rendition: $0) } },
                slotURI: { slot, uri in
                    guard routeAds, case .ad(let ad, let segment) = slot.source, let renditionKey else {
                        return urls.segmentURI(uri)
                    }
                    return urls.adSegment(
                        AdSegmentAddress(pod: slot.breakNumber, ad: ad, rendition: renditionKey, segment: segment),
                        sourceURI: uri)
                })
            let decorate = inputs.request.adIdDecoration == true
            guard decorate || channel.removeOriginCues, case .success(var decorated) = playlist else {
                return playlist.mapError { _ in Self.wentBackwards(key, window: window) }
            }
            let decisions = state.decisions
            if channel.removeOriginCues {
                OriginCueRemoval.live(&decorated, timeline: state.timeline) { decisions[$0]?.ads.isEmpty == false }
            }
            guard decorate else { return .success(decorated) }
            AdIDDecoration.decorateLive(&decorated, timeline: state.timeline, mode: trackingMode) { number in
                decisions[number].map { decision in
                    AdIDDecoration.LiveBreakAds(
                        layout: decision.layout, ads: decision.ads.map { $0.map { $0 as any TrackedAd } })
                }
            }
            return .success(decorated)
        }
        return try outcome.get()
    }

    static func wentBackwards(_ key: String, window: MediaPlaylist) -> SeamError {
        let last = window.mediaSequence + window.segments.count - 1
        return SeamError(
            .originInvalidPlaylist,
            "the origin's live window for rendition \(key) (media sequence \(window.mediaSequence)-\(last)) is behind what this session has already played: the origin went backwards or restarted its numbering, and its last good window is older than live.maxStaleSeconds. Start playback again to get a new session"
        )
    }

    // MARK: DASH

    /// `.dash` for a session of a live DASH channel: it answers `manifest.mpd` only.
    var format: StreamFormat { channel.dash == nil ? .hls : .dash }

    /// The session's MPD for the origin's newest `window` (`DASHLiveRenderer`): content periods
    /// cut from the origin's, an ad period per ad the timeline placed (`DASHAdPeriod.fitted`,
    /// routed through the ad segment route when Seam tracks), the session's `renditions` filter
    /// applied to both. Throws when nothing on the timeline is in the origin's window (it went
    /// backwards and the cache's last good window is too old to serve).
    /// - Parameter upcoming: the starts of breaks announced on the channel (seconds since 1970).
    func renderDASH(_ window: DASHLiveWindow, upcoming: [Double] = []) throws(SeamError) -> MPD {
        let urls = urls
        let tracking = trackingMode
        let channel = channel
        let rendered = state.withLockedValue { state in
            let decisions = state.decisions
            return DASHLiveRenderer.render(
                state.timeline, window: window, contentPeriods: channel.contentPeriods, upcoming: upcoming,
                slatePeriod: { _, _, _, seconds in channel.dashSlatePeriod(listing: seconds) },
                bumperPeriod: { number, position, _, seconds in
                    decisions[number]?.bumperURL(position).flatMap {
                        channel.dashBumperPeriod(creative: $0, listing: seconds)
                    }
                }
            ) {
                number, ad, id, seconds in
                guard let creative = decisions[number]?.creativeURL(ofAd: ad),
                    let shared = channel.dashAdPeriod(creative: creative, mode: tracking, listing: seconds)
                else { return nil }
                return DASHAdPeriod.personalized(
                    shared, id: id, placeholder: LiveChannel.routePlaceholder,
                    route: urls.session + "/ad/\(number)/\(ad)/")
            }
        }
        guard case .success(let mpd) = rendered else {
            throw Self.wentBackwards("manifest.mpd", window: window.reference)
        }
        return inputs.request.renditions.map { $0.filtered(mpd) } ?? mpd
    }

    // MARK: Interstitials

    var urls: SessionURLs { SessionURLs(baseURL: inputs.baseURL, sessionID: id.value) }

    /// One rendition's primary playlist in the interstitials rendering: its origin window with a
    /// date range per decided break with ads (`InterstitialRenderer.live`).
    func renderInterstitials(window: MediaPlaylist) -> MediaPlaylist {
        let breaks = state.withLockedValue { state in
            let decisions = state.decisions
            return InterstitialRenderer.liveBreaks(of: state.timeline) { decisions[$0]?.ads.isEmpty == false }
        }
        return InterstitialRenderer.live(
            window: window, breaks: breaks, targetDuration: channel.content.reference.targetDuration,
            urls: urls, policy: policy)
    }

    /// The asset list of break `id`: its played ads; empty for a break without ads, and for one
    /// the session knows but has no decision for (not decided yet, or its decision already let go):
    /// an empty list is the draft's "play the primary" (resume offset 0), where an error would make
    /// some players report a failed ad. nil when the session has no break of that id.
    func assetList(_ id: InterstitialBreakID) -> AssetList? {
        state.withLockedValue { state in
            guard let item = state.timeline.breaks.first(where: { InterstitialBreakID(liveBreak: $0) == id }) else {
                return nil
            }
            guard let decision = state.decisions[item.number], !decision.ads.isEmpty else { return .empty }
            return InterstitialRenderer.liveAssetList(
                breakNumber: item.number, layout: decision.layout, ads: decision.ads,
                skipOffset: \.skipOffset, urls: urls, tracking: trackingMode)
        }
    }

    /// Ad `address.ad` of break `address.pod` as an interstitial asset: nil when the break's
    /// decision is gone or the ad does not play in it.
    func adAsset(_ address: AdAssetAddress) -> AdAssetRenderer.Asset? {
        guard let decision = state.withLockedValue({ $0.decisions[address.pod] }) else { return nil }
        let urls = urls
        let channel = channel
        let admitted = admittedVariants
        if let bumper = Bumper.Position.allCases.first(where: {
            Bumper.assetNumber($0, adCount: decision.ads.count) == address.ad
        }) {
            // A bumper fires nothing: its asset lists the clip's own segments.
            guard let url = decision.bumperURL(bumper) else { return nil }
            return AdAssetRenderer.asset(
                content: channel.content.multivariant, address: address, urls: urls,
                adPlaylist: { key in
                    if key.kind == .variant, let admitted, !admitted.contains(key.index) { return nil }
                    return channel.playlist(creative: url, rendition: key)
                },
                segmentURI: { _, _, uri in urls.segmentURI(uri) })
        }
        guard decision.layout.playedAds.contains(address.ad) else { return nil }
        let tracking = trackingMode
        return AdAssetRenderer.asset(
            content: channel.content.multivariant, address: address, urls: urls,
            adPlaylist: { key in
                // The ad is offered in the variants the viewer gets, as the content is.
                if key.kind == .variant, let admitted, !admitted.contains(key.index) { return nil }
                return decision.creativeURL(ofAd: address.ad).flatMap { channel.playlist(creative: $0, rendition: key) }
            },
            segmentURI: { key, index, uri in
                guard tracking.routesAdSegments(in: key.kind) else { return urls.segmentURI(uri) }
                return SessionURLs.adAssetSegmentReference(
                    AdSegmentAddress(pod: address.pod, ad: address.ad, rendition: key, segment: index),
                    sourceURI: uri)
            })
    }

    // MARK: Server-side tracking

    /// Where an ad segment really is, which events fetching it reports, and their beacons.
    func adSegment(
        breakNumber: Int, ad: Int, rendition: String, segment: Int
    ) -> (url: String, events: [AdProgressEvent], beacons: [AdProgressEvent: [String]])? {
        state.withLockedValue { state in
            guard let decision = state.decisions[breakNumber], let creative = decision.creativeURL(ofAd: ad),
                let key = RenditionKey(rendition), let playlist = channel.playlist(creative: creative, rendition: key),
                let target = playlist.segments[safe: segment]
            else { return nil }
            let fired = TrackingBuilder.liveSegmentBeacons(
                ad: ad, segment: segment, adPlaylist: playlist,
                decision: decision.tracking, mode: trackingMode)
            return (target.uri, fired.events, fired.beacons)
        }
    }

    // MARK: Client-side tracking

    /// The avails of the breaks numbered in `numbers`, as the tracking document lists them, for
    /// the ad delivery metrics and analytics events: without what only a player reads (the
    /// interstitials' annotations, the renderings), which the whole document would build on
    /// every break of the window.
    func avails(of numbers: Set<Int>) -> [TrackingDocument.Avail] {
        state.withLockedValue { state in
            TrackingBuilder.live(sessionID: id.value, mode: trackingMode, timeline: state.timeline, only: numbers) {
                state.decisions[$0]?.tracking
            }.avails
        }
    }

    /// Recent avails on the session's stitched timeline (seconds since the session's first
    /// segment), with program date-times when the origin gives them.
    func tracking() -> TrackingDocument {
        let urls = urls
        var document = state.withLockedValue { state in
            var document = TrackingBuilder.live(sessionID: id.value, mode: trackingMode, timeline: state.timeline) {
                state.decisions[$0]?.tracking
            }
            if channel.dash == nil {
                InterstitialRenderer.annotateLive(&document, timeline: state.timeline, urls: urls)
            }
            return document
        }
        if channel.dash == nil {
            document.describeRenderings(urls: urls, mode: mode)
        } else {
            document.renderings = [.init(mode: .stitched, manifestUrl: urls.dashManifest)]
        }
        document.pipOf = pipOf?.value
        return document
    }
}
