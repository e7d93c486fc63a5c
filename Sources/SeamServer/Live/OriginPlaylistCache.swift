import CoreMetrics
import DASH
import Foundation
import HLS
import NIOConcurrencyHelpers
import NIOCore
import Stitching

/// A shared, coalescing, short-lived cache of origin media playlists, keyed by URL, so that many
/// viewers of one live channel cause one origin fetch per playlist per refresh, not one per viewer.
/// The owner of an `OriginPlaylistCacheStateMachine` (the rules are there): it takes the lock,
/// asks the machine, and runs fetches and resumes waiters outside the lock.
///
/// - A window younger than `freshFor` is answered without fetching (one lock, one lookup, no hop).
/// - Callers arriving while a fetch runs wait for that fetch; a cancelled caller leaves without
///   cancelling it for the others.
/// - When the origin fails (upstream error, not a media playlist, or a window that moved backwards),
///   the last good window is served, marked stale, while it is younger than `maxStale`; after that
///   the `ORIGIN_*` error is thrown. For `retryAfterFailure` after a failure every caller gets the
///   same outcome without a new fetch, so a dead origin is not hammered by every viewer.
/// - Entries nobody asked for in `idleTimeout` are dropped, and there are at most `maxEntries`
///   (plus any with a fetch in flight), so memory follows the channels being watched.
package final class OriginPlaylistCache: Sendable {
    package var freshFor: Duration { configuration.freshFor }
    /// How old a window of a busy channel (`busyAfter` callers per `freshFor` period) may be and
    /// still answer at once while a refresh runs (0: callers always wait for the refresh). Every
    /// viewer's reload would otherwise wait for the origin each time the window expires; with it,
    /// only one request per refresh does. A quiet channel (a lone viewer) always gets the fresh
    /// window, so it never sees new segments a reload late.
    package var serveWhileRefreshing: Duration { configuration.serveWhileRefreshing }
    package var busyAfter: Int { configuration.busyAfter }
    package var maxStale: Duration { configuration.maxStale }
    package var retryAfterFailure: Duration { configuration.retryAfterFailure }
    package var idleTimeout: Duration { configuration.idleTimeout }
    package var maxEntries: Int { configuration.maxEntries }
    /// Most segments a live window may list (`sessions.maxSegmentsPerPlaylist`); a longer one is
    /// refused like any unusable window (the last good one is served while it is fresh enough).
    package let maxSegments: Int
    /// A live MPD's limits beside `maxSegments`: representations per period
    /// (`sessions.maxRenditions`) and bytes (`sessions.maxContentBytes`, at most what an MPD may
    /// have), checked before anything is built from it.
    package let maxRenditions: Int
    package let maxContentBytes: Int

    typealias Machine = OriginPlaylistCacheStateMachine
    typealias Outcome = Result<OriginWindow, SeamError>

    private let configuration: Machine.Configuration
    private let upstream: any UpstreamFetching
    private let clock: SeamClock
    /// `clock.now`, as the fetch reads it.
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state: NIOLockedValueBox<State>
    private let fetchesCounter: CoreMetrics.Counter
    private let hitsCounter: CoreMetrics.Counter
    private let staleCounter: CoreMetrics.Counter

    /// The machine and the continuations of its waiters, behind one lock: the hot path is one
    /// lookup and a copy.
    struct State: Sendable {
        var machine: Machine
        var waiters = WaiterTable<Machine.WaiterID, Outcome>()
    }

    /// - Parameters:
    ///   - clock: injected so tests can move time without sleeping.
    ///   - metricsFactory: where the counters go; the process-wide `MetricsSystem` by default.
    package init(
        upstream: any UpstreamFetching, freshFor: Duration, serveWhileRefreshing: Duration = .zero, busyAfter: Int = 8,
        maxStale: Duration,
        retryAfterFailure: Duration = .milliseconds(500), idleTimeout: Duration = .seconds(60),
        maxEntries: Int = 10_000, maxSegments: Int = .max, maxRenditions: Int = .max, maxContentBytes: Int = .max,
        clock: SeamClock = .continuous,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.upstream = upstream
        let machine = Machine(
            configuration: .init(
                freshFor: freshFor, serveWhileRefreshing: serveWhileRefreshing, busyAfter: busyAfter,
                maxStale: maxStale, retryAfterFailure: retryAfterFailure,
                idleTimeout: idleTimeout, maxEntries: maxEntries),
            now: clock.now)
        configuration = machine.configuration
        self.maxSegments = max(1, maxSegments)
        self.maxRenditions = max(1, maxRenditions)
        self.maxContentBytes = max(1, maxContentBytes)
        self.clock = clock
        now = { clock.now }
        state = NIOLockedValueBox(State(machine: machine))
        fetchesCounter = CoreMetrics.Counter(label: SeamMetrics.originPlaylistFetchesName, factory: metricsFactory)
        hitsCounter = CoreMetrics.Counter(label: SeamMetrics.originPlaylistCacheHitsName, factory: metricsFactory)
        staleCounter = CoreMetrics.Counter(label: SeamMetrics.originPlaylistStaleServedName, factory: metricsFactory)
    }

    /// Upstream requests made so far (for tests and the load benchmark).
    package var upstreamFetchCount: Int { state.withLockedValue { $0.machine.fetchCount } }

    /// URLs the cache holds right now.
    package var entryCount: Int { state.withLockedValue { $0.machine.entries.count } }

    /// Callers waiting for a fetch right now (for tests).
    var waitingCallers: Int { state.withLockedValue { $0.machine.waitingCount } }

    /// The newest good window of `url`: fresh from cache, fetched (coalesced with concurrent callers),
    /// or — when the origin fails — the last good one while it is younger than `maxStale`.
    package func window(_ url: String) async throws(SeamError) -> OriginWindow {
        let now = clock.now
        let action = state.withLockedValue { $0.machine.windowRequested(url, now: now) }
        let id: Machine.WaiterID
        switch action {
        case .answer(let result):
            count(result, callers: 1)
            return try result.get()
        case .answerAndFetch(let result):
            count(result, callers: 1)
            launchFetch(url)
            return try result.get()
        case .wait(let waiter, let startFetch):
            id = waiter
            if startFetch { launchFetch(url) }
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                if let answered = state.withLockedValue({ $0.waiters.park(id, continuation) }) {
                    continuation.resume(returning: answered)
                }
            }
        } onCancel: {
            let cancelled = Outcome.failure(Self.cancelled(url))
            let continuation = state.withLockedValue { state -> CheckedContinuation<Outcome, Never>? in
                guard state.machine.waiterCancelled(url, id) else { return nil }
                return state.waiters.answer(id, with: cancelled)
            }
            continuation?.resume(returning: cancelled)
        }
        return try result.get()
    }

    /// The newest window of `url` when it is at hand — fresh, or a busy channel's served while it
    /// refreshes — without waiting; nil when `window(_:)` would wait for the origin or answer a
    /// failure.
    func windowAtHand(_ url: String) -> OriginWindow? {
        let now = clock.now
        switch state.withLockedValue({ $0.machine.windowAtHand(url, now: now) }) {
        case .answer(.success(let window))?:
            count(.success(window), callers: 1)
            return window
        case .answerAndFetch(.success(let window))?:
            count(.success(window), callers: 1)
            launchFetch(url)
            return window
        default:
            return nil
        }
    }

    /// Drops entries nobody asked for in `idleTimeout`. `window(_:)` also does this now and then;
    /// an owner may call it on a timer so idle channels are forgotten even when nothing is asked.
    package func removeIdleEntries() {
        let now = clock.now
        state.withLockedValue { $0.machine.sweep(now: now) }
    }

    /// Answers from the cache count as hits, stale ones as stale serves.
    private func count(_ result: Outcome, callers: Int) {
        guard case .success(let window) = result, callers > 0 else { return }
        if window.isStale {
            staleCounter.increment(by: Int64(callers))
        } else {
            hitsCounter.increment(by: Int64(callers))
        }
    }

    // MARK: - Fetching

    /// Runs the fetch in its own task on purpose: it is shared by every waiter, so no single
    /// caller's cancellation may end it. It is bounded by the upstream client's origin time-out.
    private func launchFetch(_ url: String) {
        fetchesCounter.increment()
        Task {
            let result = await fetchWindow(url)
            complete(url, with: result)
        }
    }

    private func fetchWindow(_ url: String) async -> Result<OriginWindow, SeamError> {
        if DASHTitle.names(url) { return await fetchMPDWindow(url) }
        let origin = OriginClient(upstream: upstream)
        let fetched: OriginClient.Fetched
        do {
            fetched = try await origin.fetchPlaylist(UpstreamRequest(url: url, purpose: .origin))
        } catch {
            return .failure(origin.originError(error, url: url))
        }
        guard case .media(var media) = fetched.playlist else {
            return .failure(
                SeamError(
                    .originInvalidPlaylist,
                    "\(url) is a multivariant playlist; a live window needs a media playlist (one rendition)"))
        }
        guard media.segments.count <= maxSegments else {
            return .failure(
                SeamError(
                    .originInvalidPlaylist,
                    "\(url) lists \(media.segments.count) segments, more than sessions.maxSegmentsPerPlaylist (\(maxSegments)); a live window lists a few minutes"
                ))
        }
        media.resolveURIs(against: fetched.finalURL)
        return .success(OriginWindow(playlist: media, finalURL: fetched.finalURL, fetchedAt: now()))
    }

    /// A live MPD: fetched, read, and its video seen as the window sessions follow
    /// (`DASHLiveWindow`), on the wall clock of `clock`.
    private func fetchMPDWindow(_ url: String) async -> Result<OriginWindow, SeamError> {
        let response: UpstreamResponse
        do {
            response = try await upstream.fetch(
                UpstreamRequest(url: url, purpose: .origin, sizeLimit: min(maxContentBytes, XMLReader().maxBytes)))
        } catch .tooLarge {
            return .failure(
                SeamError(
                    .originInvalidPlaylist,
                    "the live MPD at \(url) is larger than Seam reads (sessions.maxContentBytes, at most \(XMLReader().maxBytes) bytes); raise sessions.maxContentBytes if this channel is meant to play"
                ))
        } catch {
            return .failure(OriginClient.originError(error, url: url))
        }
        let mpd: MPD
        do {
            mpd = try MPD(parsing: Array(buffer: response.body))
        } catch {
            return .failure(
                SeamError(
                    .originInvalidPlaylist, "the origin's answer for \(url) is not an MPD Seam can read: \(error)"))
        }
        // Counted before anything is built: a hostile MPD must not cost a core per refresh.
        for period in mpd.periods {
            let representations = period.adaptationSets.flatMap(\.representations)
            guard representations.count <= maxRenditions else {
                return .failure(
                    SeamError(
                        .originInvalidPlaylist,
                        "\(period.path) of the live MPD at \(url) lists \(representations.count) representations, more than sessions.maxRenditions (\(maxRenditions)); raise sessions.maxRenditions if this channel is meant to play"
                    ))
            }
            // A static MPD (the channel's last) is read whole, and a representation's segments are
            // listed to SegmentTemplate.maxSegments at most: a longer one would lose its end.
            let cap = mpd.isDynamic ? maxSegments : min(maxSegments, SegmentTemplate.maxSegments)
            for representation in representations
            where (representation.segmentTemplate?.segmentCount(periodDuration: nil) ?? 0) > cap {
                return .failure(Self.tooManySegments(representation.path, url: url, maxSegments: maxSegments, in: mpd))
            }
        }
        switch DASHLiveWindow.make(
            mpd, url: response.finalURL, now: clock.date.timeIntervalSince1970, following: true)
        {
        case .failure(let refusal):
            return .failure(SeamError(.originInvalidPlaylist, refusal.description))
        case .success(let window):
            guard window.reference.segments.count <= maxSegments else {
                return .failure(
                    SeamError(
                        .originInvalidPlaylist,
                        "\(url) lists \(window.reference.segments.count) video segments, more than sessions.maxSegmentsPerPlaylist (\(maxSegments)); a live window lists a few minutes"
                    ))
            }
            return .success(
                OriginWindow(playlist: window.reference, finalURL: response.finalURL, fetchedAt: now(), dash: window))
        }
    }

    /// A live MPD whose representation lists more segments than `sessions.maxSegmentsPerPlaylist`:
    /// a live window lists a few minutes, but a channel's last MPD, turned static when it ended,
    /// may list the whole event (of which Seam keeps the last `timeShiftBufferDepth`, as a live
    /// window would): sessions then play to the channel's end only under a higher setting.
    static func tooManySegments(_ path: String, url: String, maxSegments: Int, in mpd: MPD) -> SeamError {
        guard mpd.isDynamic else {
            guard maxSegments < SegmentTemplate.maxSegments else {
                return SeamError(
                    .originInvalidPlaylist,
                    "\(path) of the channel's last MPD at \(url) (static: the channel ended) lists more than \(SegmentTemplate.maxSegments) segments, its whole event, more than Seam reads of one representation; sessions play this channel to its end when its origin ends it still listing a live window (dynamic, with mediaPresentationDuration and no minimumUpdatePeriod)"
                )
            }
            return SeamError(
                .originInvalidPlaylist,
                "\(path) of the channel's last MPD at \(url) (static: the channel ended) lists more than sessions.maxSegmentsPerPlaylist (\(maxSegments)) segments, its whole event; raise sessions.maxSegmentsPerPlaylist (to at most \(SegmentTemplate.maxSegments)) for sessions to play this channel to its end"
            )
        }
        return SeamError(
            .originInvalidPlaylist,
            "\(path) of the live MPD at \(url) lists more than sessions.maxSegmentsPerPlaylist (\(maxSegments)) segments; a live window lists a few minutes"
        )
    }

    /// Records a fetch's outcome and answers everyone who waited for it.
    private func complete(_ url: String, with result: Outcome) {
        let now = clock.now
        let (continuations, completion) = state.withLockedValue { state in
            let completion = state.machine.fetchCompleted(url, result: result, now: now)
            return (completion.waiters.compactMap { state.waiters.answer($0, with: completion.outcome) }, completion)
        }
        if case .success(let window) = completion.outcome, window.isStale {
            staleCounter.increment(by: Int64(completion.waiters.count))
        }
        for continuation in continuations { continuation.resume(returning: completion.outcome) }
    }

    /// Why `window` cannot follow `last`, or nil when it does not go backwards (equal is fine).
    static func movedBackwards(_ window: OriginWindow, after last: OriginWindow, url: String) -> SeamError? {
        Machine.movedBackwards(window, after: last, url: url)
    }

    static func cancelled(_ url: String) -> SeamError {
        SeamError(.originUnavailable, "the request for \(url) was cancelled while waiting for the origin")
    }
}
