import CoreMetrics
import HLS
import NIOConcurrencyHelpers
import NIOCore

/// A shared, coalescing, short-lived cache of origin media playlists, keyed by URL, so that many
/// viewers of one live channel cause one origin fetch per playlist per refresh, not one per viewer.
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
public final class OriginPlaylistCache: Sendable {
    public let freshFor: Duration
    /// How old a window of a busy channel (`busyAfter` callers per `freshFor` period) may be and
    /// still answer at once while a refresh runs (0: callers always wait for the refresh). Every
    /// viewer's reload would otherwise wait for the origin each time the window expires; with it,
    /// only one request per refresh does. A quiet channel (a lone viewer) always gets the fresh
    /// window, so it never sees new segments a reload late.
    public let serveWhileRefreshing: Duration
    public let busyAfter: Int
    public let maxStale: Duration
    public let retryAfterFailure: Duration
    public let idleTimeout: Duration
    public let maxEntries: Int
    /// Most segments a live window may list (`sessions.maxSegmentsPerPlaylist`); a longer one is
    /// refused like any unusable window (the last good one is served while it is fresh enough).
    public let maxSegments: Int

    private let upstream: any UpstreamFetching
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state: NIOLockedValueBox<State>
    private let fetchesCounter: CoreMetrics.Counter
    private let hitsCounter: CoreMetrics.Counter
    private let staleCounter: CoreMetrics.Counter

    /// - Parameters:
    ///   - now: the clock, injected so tests can move time without sleeping.
    ///   - metricsFactory: where the counters go; the process-wide `MetricsSystem` by default.
    public init(upstream: any UpstreamFetching, freshFor: Duration, serveWhileRefreshing: Duration = .zero, busyAfter: Int = 8,
                maxStale: Duration,
                retryAfterFailure: Duration = .milliseconds(500), idleTimeout: Duration = .seconds(60),
                maxEntries: Int = 10_000, maxSegments: Int = .max, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.upstream = upstream
        self.freshFor = freshFor
        self.serveWhileRefreshing = serveWhileRefreshing
        self.busyAfter = busyAfter
        self.maxStale = maxStale
        self.retryAfterFailure = retryAfterFailure
        self.idleTimeout = idleTimeout
        self.maxEntries = max(1, maxEntries)
        self.maxSegments = max(1, maxSegments)
        self.now = now
        state = NIOLockedValueBox(State(now: now()))
        fetchesCounter = CoreMetrics.Counter(label: SeamMetrics.originPlaylistFetchesName, factory: metricsFactory)
        hitsCounter = CoreMetrics.Counter(label: SeamMetrics.originPlaylistCacheHitsName, factory: metricsFactory)
        staleCounter = CoreMetrics.Counter(label: SeamMetrics.originPlaylistStaleServedName, factory: metricsFactory)
    }

    /// Upstream requests made so far (for tests and the load benchmark).
    public var upstreamFetchCount: Int { state.withLockedValue { $0.fetchCount } }

    /// URLs the cache holds right now.
    public var entryCount: Int { state.withLockedValue { $0.entries.count } }

    /// Callers waiting for a fetch right now (for tests).
    var waitingCallers: Int { state.withLockedValue { $0.entries.values.reduce(0) { $0 + $1.waiters.count } } }

    /// The newest good window of `url`: fresh from cache, fetched (coalesced with concurrent callers),
    /// or — when the origin fails — the last good one while it is younger than `maxStale`.
    public func window(_ url: String) async throws(SeamError) -> OriginWindow {
        let first = state.withLockedValue { state in step(url, in: &state, waiter: nil) }
        let waiterID: UInt64
        switch first {
        case .answer(let result): return try result.get()
        case .answerAndRefresh(let result):
            launchFetch(url)
            return try result.get()
        case .wait(let id): waiterID = id
        case .registered: preconditionFailure("a step without a waiter never registers one")
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<OriginWindow, SeamError>, Never>) in
                let next = state.withLockedValue { state -> Step in
                    if Task.isCancelled { return .answer(.failure(Self.cancelled(url))) }
                    return step(url, in: &state, waiter: (waiterID, continuation))
                }
                switch next {
                case .answer(let result): continuation.resume(returning: result)
                case .answerAndRefresh(let result):
                    launchFetch(url)
                    continuation.resume(returning: result)
                case .registered(let startFetch): if startFetch { launchFetch(url) }
                case .wait: preconditionFailure("a step with a waiter registers it or answers")
                }
            }
        } onCancel: {
            let continuation = state.withLockedValue { state in
                state.entries[url]?.waiters.removeValue(forKey: waiterID)
            }
            continuation?.resume(returning: .failure(Self.cancelled(url)))
        }
        return try result.get()
    }

    /// Drops entries nobody asked for in `idleTimeout`. `window(_:)` also does this now and then;
    /// an owner may call it on a timer so idle channels are forgotten even when nothing is asked.
    public func removeIdleEntries() {
        let now = now()
        state.withLockedValue { state in sweep(&state, now: now) }
    }

    // MARK: - Decisions (under the lock)

    /// Answers from the cache when it can; otherwise reserves a waiter id (`waiter == nil`) or
    /// registers the waiter and says whether it must start the fetch.
    private func step(_ url: String, in state: inout State,
                      waiter: (id: UInt64, continuation: CheckedContinuation<Result<OriginWindow, SeamError>, Never>)?) -> Step {
        let now = now()
        if now - state.lastSweep >= idleTimeout / 4 { sweep(&state, now: now) }
        let index: Dictionary<String, Entry>.Index
        if let existing = state.entries.index(forKey: url) {
            index = existing
        } else {
            makeRoom(&state, now: now)
            state.entries[url] = Entry(lastAsked: now)
            guard let inserted = state.entries.index(forKey: url) else { preconditionFailure("just inserted") }
            index = inserted
        }
        state.entries.values[index].lastAsked = now
        countAsk(&state.entries.values[index], now: now)
        let entry = state.entries.values[index]

        if let good = entry.lastGood, now - good.fetchedAt < freshFor {
            hitsCounter.increment()
            return .answer(.success(good))
        }
        if let failure = entry.failure, now - failure.at < retryAfterFailure {
            return .answer(fallback(entry, failure.error, now: now, callers: 1))
        }
        // While the origin is healthy, refresh behind the callers' backs; after a failure the
        // stale-window rules above and below apply.
        if entry.failure == nil, max(entry.asks, entry.previousAsks) >= busyAfter,
           let good = entry.lastGood, now - good.fetchedAt < min(serveWhileRefreshing, maxStale) {
            hitsCounter.increment()
            guard !entry.fetching else { return .answer(.success(good)) }
            state.entries.values[index].fetching = true
            state.fetchCount += 1
            return .answerAndRefresh(.success(good))
        }
        guard let waiter else {
            defer { state.nextWaiterID &+= 1 }
            return .wait(waiterID: state.nextWaiterID)
        }
        state.entries.values[index].waiters[waiter.id] = waiter.continuation
        guard !entry.fetching else { return .registered(startFetch: false) }
        state.entries.values[index].fetching = true
        state.fetchCount += 1
        return .registered(startFetch: true)
    }

    /// Counts a caller in the current `freshFor` period, rolling the periods over.
    private func countAsk(_ entry: inout Entry, now: ContinuousClock.Instant) {
        guard let since = entry.asksSince, now - since < freshFor else {
            let rolledOnce = entry.asksSince.map { now - $0 < freshFor * 2 } ?? false
            entry.previousAsks = rolledOnce ? entry.asks : 0
            entry.asks = 1
            entry.asksSince = now
            return
        }
        entry.asks += 1
    }

    /// The answer when the origin failed: the last good window while it is young enough, else the error.
    private func fallback(_ entry: Entry, _ error: SeamError, now: ContinuousClock.Instant, callers: Int) -> Result<OriginWindow, SeamError> {
        guard var good = entry.lastGood, now - good.fetchedAt < maxStale else { return .failure(error) }
        good.isStale = true
        if callers > 0 { staleCounter.increment(by: Int64(callers)) }
        return .success(good)
    }

    private func sweep(_ state: inout State, now: ContinuousClock.Instant) {
        state.lastSweep = now
        state.entries = state.entries.filter { _, entry in !entry.isRemovable || now - entry.lastAsked < idleTimeout }
    }

    /// Keeps the entry count below `maxEntries` before one is added: idle entries first, then the
    /// least recently asked one that no fetch depends on.
    private func makeRoom(_ state: inout State, now: ContinuousClock.Instant) {
        guard state.entries.count >= maxEntries else { return }
        sweep(&state, now: now)
        while state.entries.count >= maxEntries {
            let oldest = state.entries.filter { $0.value.isRemovable }.min { $0.value.lastAsked < $1.value.lastAsked }
            guard let oldest else { return }
            state.entries.removeValue(forKey: oldest.key)
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
        let origin = OriginClient(upstream: upstream)
        let fetched: OriginClient.Fetched
        do {
            fetched = try await origin.fetchPlaylist(UpstreamRequest(url: url, purpose: .origin))
        } catch {
            return .failure(origin.originError(error, url: url))
        }
        guard case .media(var media) = fetched.playlist else {
            return .failure(SeamError(.originInvalidPlaylist, "\(url) is a multivariant playlist; a live window needs a media playlist (one rendition)"))
        }
        guard media.segments.count <= maxSegments else {
            return .failure(SeamError(.originInvalidPlaylist, "\(url) lists \(media.segments.count) segments, more than sessions.maxSegmentsPerPlaylist (\(maxSegments)); a live window lists a few minutes"))
        }
        media.resolveURIs(against: fetched.finalURL)
        return .success(OriginWindow(playlist: media, finalURL: fetched.finalURL, fetchedAt: now()))
    }

    /// Records a fetch's outcome and answers everyone who waited for it.
    private func complete(_ url: String, with result: Result<OriginWindow, SeamError>) {
        let (waiters, outcome) = state.withLockedValue { state -> ([CheckedContinuation<Result<OriginWindow, SeamError>, Never>], Result<OriginWindow, SeamError>) in
            let now = now()
            guard var entry = state.entries[url] else {
                // Only entries without a fetch are ever removed, so this does not happen; answer anyway.
                return ([], result)
            }
            entry.fetching = false
            let waiters = Array(entry.waiters.values)
            entry.waiters = [:]
            let outcome: Result<OriginWindow, SeamError>
            switch result {
            case .success(let window):
                if let last = entry.lastGood, let backwards = Self.movedBackwards(window, after: last, url: url) {
                    entry.failure = Failure(error: backwards, at: now)
                    outcome = fallback(entry, backwards, now: now, callers: waiters.count)
                    // A last good window too old to serve stops being the reference, so an origin
                    // that restarted its numbering is followed after one error, not refused forever.
                    if now - last.fetchedAt >= maxStale { entry.lastGood = nil }
                } else {
                    entry.lastGood = window
                    entry.failure = nil
                    outcome = .success(window)
                }
            case .failure(let error):
                entry.failure = Failure(error: error, at: now)
                outcome = fallback(entry, error, now: now, callers: waiters.count)
            }
            state.entries[url] = entry
            return (waiters, outcome)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Why `window` cannot follow `last`, or nil when it does not go backwards (equal is fine).
    static func movedBackwards(_ window: OriginWindow, after last: OriginWindow, url: String) -> SeamError? {
        if window.playlist.mediaSequence < last.playlist.mediaSequence {
            return SeamError(.originInvalidPlaylist, "\(url): the origin's live window moved backwards (media sequence \(window.playlist.mediaSequence) after \(last.playlist.mediaSequence)); check the origin or packager for a restart or a stale edge")
        }
        if window.lastSequenceNumber < last.lastSequenceNumber {
            return SeamError(.originInvalidPlaylist, "\(url): the origin's live window moved backwards (last segment \(window.lastSequenceNumber) after \(last.lastSequenceNumber)); check the origin or packager for a stale edge")
        }
        return nil
    }

    static func cancelled(_ url: String) -> SeamError {
        SeamError(.originUnavailable, "the request for \(url) was cancelled while waiting for the origin")
    }
}
