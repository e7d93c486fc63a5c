import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session being watched: reads the player through a `PlayheadAdapter`, turns it into ad
/// events (`events`, or `stream.delegate`), fires client-side beacons once each, enforces the
/// ad playback policy by seeking the player, keeps the tracking JSON fresh on live sessions, and
/// reports the session's expiry with a ready restart.
///
/// The parts are values that can be tested alone (`AdEventEngine`, `AdPolicyEngine`); this actor
/// owns them, samples the player on its own clock (or when the app calls `sample()` from its
/// player's time observer) and runs what they answer.
public actor SeamPlayback {
    public struct Configuration: Sendable, Equatable {
        /// Seconds between playhead samples when SeamKit samples on its own; nil when the app
        /// calls `sample()` itself (an `AVPlayer` periodic time observer).
        public var sampleInterval: Double?
        /// Seconds between tracking JSON reads on a live session (new breaks appear as they are
        /// decided); VOD reads it once.
        public var trackingRefreshInterval: Double
        /// A forward move between two samples larger than this is a seek. Raise it for players
        /// sampled rarely or run faster than real time (`seam watch --speed`).
        public var maxStep: Double

        public init(sampleInterval: Double? = 0.25, trackingRefreshInterval: Double = 4, maxStep: Double = 2) {
            self.sampleInterval = sampleInterval
            self.trackingRefreshInterval = trackingRefreshInterval
            self.maxStep = maxStep
        }
    }

    public nonisolated let session: ResolvedSession
    /// The ad events (and `delegate`).
    public nonisolated let stream: AdEventStream
    public nonisolated var events: AsyncStream<AdEvent> { stream.events }

    private let playhead: any PlayheadAdapter
    private let configuration: Configuration
    private let clock: any Clock<Duration>
    private var policy: AdPolicyEngine
    /// The interstitials rendering's breaks, to put its player on the engine's timeline.
    private var interstitials = InterstitialTimeline()
    private var warnedAboutAdapter = false
    private var document: TrackingDocument?
    /// Seeks under way, and the latest one's number: only the latest tells the engines where
    /// the player is, and no sample is taken while any runs (the player is between two places).
    private var seeksUnderWay = 0
    private var seekGeneration = 0
    private var over = false
    /// `start(atContentTime:)` asked before the tracking JSON was in: applied when it arrives.
    private var pendingStart: (contentTime: Double, watched: [Double])?
    private var tasks: [Task<Void, Never>] = []
    private var lastTime: Double?
    /// Cue points of breaks a previous session of the same content watched (a restart).
    private var inheritedCuePoints: [Double] = []

    /// - Parameters:
    ///   - beacons: what sends client-side beacons; nil for `URLSession.shared`.
    public init(
        session: ResolvedSession, playhead: some PlayheadAdapter, configuration: Configuration = Configuration(),
        beacons: (any BeaconFiring)? = nil, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.session = session
        self.playhead = playhead
        self.configuration = configuration
        self.clock = clock
        let engine = AdEventEngine.Configuration(maxStep: configuration.maxStep)
        stream = AdEventStream(
            beacons: beacons ?? URLSessionBeaconFiring(), configuration: engine, ledger: session.beaconLedger)
        policy = AdPolicyEngine(
            policy: session.origin?.options.adPlaybackPolicy ?? AdPlaybackPolicy(), maxStep: configuration.maxStep)
    }

    // MARK: Running

    /// Reads the tracking JSON, then keeps sampling the player (every `sampleInterval`), reading
    /// the tracking again on live sessions, and watching the session's keep-alives. Returns once
    /// the first tracking JSON is in (or could not be read: reported as an `.error` event and
    /// tried again).
    public func start() async {
        guard tasks.isEmpty, !over else { return }
        if session.mode == .interstitials, !(playhead is any InterstitialsPlayheadAdapter), !warnedAboutAdapter {
            warnedAboutAdapter = true
            stream.emit(
                .error(
                    .requestFailed(
                        status: nil, code: nil,
                        message:
                            "an interstitials session needs an InterstitialsPlayheadAdapter (the primary time alone does not say where the ads play): break and ad events will be wrong"
                    )))
        }
        await refreshTracking()
        // The first read may have found the session gone, or the app stopped meanwhile.
        guard !over, tasks.isEmpty else { return }
        // The statuses, not the handle: a playback the app drops without `stop()` must not keep
        // its session alive through this task.
        let statuses = session.handle.statuses
        tasks.append(
            Task { [weak self] in
                for await status in statuses {
                    guard case .expired(let error) = status else { continue }
                    await self?.expire(error)
                    return
                }
            })
        let live = playhead.duration.isLive
        let refresh = configuration.trackingRefreshInterval
        let clock = clock
        tasks.append(
            Task { [weak self] in
                var loaded = await self?.hasTracking ?? true
                while !Task.isCancelled, !loaded || live {
                    guard (try? await clock.sleep(for: .seconds(loaded ? refresh : min(refresh, 2)))) != nil else {
                        return
                    }
                    guard let self else { return }
                    await self.refreshTracking()
                    loaded = await self.hasTracking
                }
            })
        if let interval = configuration.sampleInterval {
            tasks.append(
                Task { [weak self] in
                    while !Task.isCancelled {
                        guard (try? await clock.sleep(for: .seconds(interval))) != nil, let self else { return }
                        await self.sample()
                    }
                })
        }
    }

    /// Starts playback at a saved content position (0: the beginning), applying the policy's
    /// pre-roll rule, and counts the breaks at `watchedCuePoints` as watched (a restart's).
    public func start(atContentTime contentTime: Double, watchedCuePoints: [Double] = []) async {
        guard !over else { return }
        inheritedCuePoints = watchedCuePoints
        guard document != nil else {
            // Where content time is in the stream depends on the breaks: wait for them.
            pendingStart = (contentTime, watchedCuePoints)
            return
        }
        applyInheritedWatched()
        guard !playhead.duration.isLive else { return }
        guard enforcesPolicy else {
            // The interstitials primary is the content itself; its player plays the pre-roll.
            await playhead.seek(to: contentTime)
            return
        }
        let answer = policy.start(atContentTime: contentTime)
        await perform(answer, from: playhead.currentTime)
    }

    /// Stops everything and deletes the session. `events` finishes.
    public func stop() async {
        guard !over else { return }
        over = true
        for task in tasks { task.cancel() }
        tasks = []
        // The ad and break playing end here, not completed.
        stream.close()
        await stream.flushBeacons()
        stream.finish()
        await session.handle.shutdown()
    }

    deinit {
        for task in tasks { task.cancel() }
    }

    // MARK: Player

    /// Samples the player now (call it from the player's periodic time observer when
    /// `sampleInterval` is nil).
    public func sample() async {
        guard !over, seeksUnderWay == 0 else { return }
        let playing = playhead.isPlaying
        let (time, date) = engineClock(observing: true)
        if enforcesPolicy, let answer = policy.sample(time: time) {
            if answer.afterPlayback { stream.playhead(time: time, playing: playing, date: date) }
            await perform(answer, from: time)
            return
        }
        lastTime = time
        stream.playhead(time: time, playing: playing, date: date)
    }

    /// The viewer asks to seek to `time` (stream seconds): SeamKit seeks where the policy says
    /// (maybe a break first) and returns that time.
    @discardableResult
    public func seek(to time: Double) async -> Double {
        guard !over else { return playhead.currentTime }
        let from = playhead.currentTime
        guard enforcesPolicy else {
            await move(to: time)
            return time
        }
        let answer = policy.seek(from: from, to: time)
        if answer.to == time {
            await move(to: time)
        } else {
            await perform(answer, from: from)
        }
        return answer.to
    }

    /// Skips the ad playing when it is skippable and its skip offset has passed; false
    /// otherwise.
    @discardableResult
    public func skipAd() async -> Bool {
        let time = playhead.currentTime
        guard enforcesPolicy, let ad = stream.currentAd, let answer = policy.skipAd(at: time) else { return false }
        stream.emit(.adSkipped(ad))
        await perform(answer, from: time)
        return true
    }

    /// Leaves the break playing (it counts as watched); false outside breaks.
    @discardableResult
    public func discardAdBreak() async -> Bool {
        let time = playhead.currentTime
        guard enforcesPolicy, let answer = policy.discardBreak(at: time) else { return false }
        await perform(answer, from: time)
        return true
    }

    /// The app is back from the background (or a call): the policy's `interrupt` rule applies
    /// to the ad that was playing.
    public func interruptionEnded() async {
        let time = playhead.currentTime
        guard enforcesPolicy, let answer = policy.interruptionEnded(at: time) else { return }
        await perform(answer, from: time)
    }

    /// The player got `status` for one of the session's URLs (its error log): `410` means the
    /// session expired; `403` is the CDN refusing a segment (an expired token: an `.error`).
    public func playerReceived(httpStatus status: Int, for url: URL) async {
        switch status {
        case 410:
            await expire(
                .sessionExpired(
                    status: 410, code: "SESSION_EXPIRED", message: "the player got 410 for \(url.absoluteString)"))
        case 403 where url.host == session.playbackURL.host && url.port == session.playbackURL.port:
            stream.emit(
                .error(
                    .requestFailed(
                        status: 403, code: "DOMAIN_NOT_ALLOWED",
                        message: "Seam refused \(url.absoluteString) (403): its domain rules do not take this content"))
            )
        case 403:
            stream.emit(
                .error(
                    .requestFailed(
                        status: 403, code: nil,
                        message: "the CDN refused \(url.absoluteString) (403): its token may have expired")))
        default:
            break
        }
    }

    // MARK: State

    /// SeamKit moves the playhead for the policy on the stitched VOD timeline only: live has no
    /// seeking over breaks, and an interstitials player applies the policy Seam wrote into the
    /// playlist (`AdPlaybackPolicy.serverPolicy`: `X-RESTRICT`, `CUE="ONCE"`, `SKIP-CONTROL`).
    private var enforcesPolicy: Bool { session.mode == .stitched && !playhead.duration.isLive }

    /// Breaks watched so far (ids of this session's tracking JSON).
    public var watchedBreakIDs: Set<String> { policy.watchedBreakIDs }

    /// Where content time is at the playhead (VOD), for a scrub bar that hides ads.
    public var contentTime: Double { policy.contentTime(forStream: playhead.currentTime) }

    public func streamTime(forContent contentTime: Double) -> Double { policy.streamTime(forContent: contentTime) }

    /// The tracking JSON last read.
    public var tracking: TrackingDocument? { document }

    private var hasTracking: Bool { document != nil }

    /// Reads the tracking JSON again (live: new breaks). A `410` expires the session.
    public func refreshTracking() async {
        guard !over else { return }
        do {
            let fresh = try await session.handle.tracking()
            guard !over else { return }
            document = fresh
            policy.updateTracking(fresh)
            interstitials.updateTracking(fresh)
            applyInheritedWatched()
            stream.updateTracking(fresh)
            if let pending = pendingStart {
                pendingStart = nil
                await start(atContentTime: pending.contentTime, watchedCuePoints: pending.watched)
            }
        } catch {
            if case .sessionExpired = error {
                await expire(error)
            } else {
                stream.emit(.error(error))
            }
        }
    }

    private func applyInheritedWatched() {
        guard let document, !inheritedCuePoints.isEmpty else { return }
        for avail in document.avails where inheritedCuePoints.contains(avail.cuePoint) {
            policy.markWatched(avail.availId)
        }
    }

    private func perform(_ answer: AdPolicyEngine.Seek, from: Double) async {
        stream.emit(.policySeek(from: from, to: answer.to, reason: answer.reason))
        await move(to: answer.to)
    }

    /// Seeks the player and tells the engines where it landed (a player may clamp a seek), with
    /// samples held off meanwhile. Of overlapping seeks, the latest is the one that counts.
    private func move(to time: Double) async {
        seeksUnderWay += 1
        seekGeneration += 1
        let generation = seekGeneration
        await playhead.seek(to: time)
        seeksUnderWay -= 1
        guard !over, generation == seekGeneration else { return }
        let (landed, date) = engineClock(observing: false)
        policy.didSeek(to: landed)
        lastTime = landed
        stream.seek(to: landed, date: date, playing: playhead.isPlaying)
    }

    /// The playhead on the engine's timeline: the player's own for the stitched rendering; for
    /// an interstitials player, its primary time and interstitial position mapped onto it.
    private func engineClock(observing: Bool) -> (time: Double, date: Double?) {
        let time = playhead.currentTime
        let date = playhead.currentDate
        guard session.mode == .interstitials, let adapter = playhead as? any InterstitialsPlayheadAdapter else {
            return (time, date)
        }
        let position = adapter.interstitial
        if observing { interstitials.observe(position) }
        return (
            interstitials.time(primaryTime: time, interstitial: position, live: playhead.duration.isLive),
            interstitials.date(primaryDate: date, interstitial: position)
        )
    }

    private func expire(_ error: SeamKitError) async {
        guard !over else { return }
        over = true
        for task in tasks { task.cancel() }
        tasks = []
        let live = playhead.duration.isLive
        let resume =
            live
            ? nil
            : session.mode == .interstitials
                ? playhead.currentTime
                : policy.contentTime(forStream: lastTime ?? playhead.currentTime)
        let watched = document?.avails.filter { policy.watchedBreakIDs.contains($0.availId) }.map(\.cuePoint) ?? []
        stream.close()
        if let origin = session.origin {
            stream.emit(
                .sessionExpired(
                    error, restart: SessionRestart(origin: origin, resumeContentTime: resume, watchedCuePoints: watched)
                ))
        } else {
            stream.emit(.error(error))
        }
        await stream.flushBeacons()
        stream.finish()
        await session.handle.shutdown()
    }
}
