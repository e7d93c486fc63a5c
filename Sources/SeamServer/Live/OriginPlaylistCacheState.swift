extension OriginPlaylistCache {
    /// What the cache knows about one playlist URL. Lives under the cache's lock.
    struct Entry {
        /// The newest window that parsed and did not move backwards; `isStale` is always false here.
        var lastGood: OriginWindow?
        /// The latest fetch's failure, until a fetch succeeds; it answers callers for `retryAfterFailure`.
        var failure: Failure?
        /// Whether a fetch for this URL is running; callers then wait for it instead of fetching.
        var fetching = false
        /// Callers waiting for the running fetch, by waiter id (the id lets a cancelled caller leave).
        var waiters: [UInt64: CheckedContinuation<Result<OriginWindow, SeamError>, Never>] = [:]
        /// When a caller last asked for this URL; idle entries are dropped.
        var lastAsked: ContinuousClock.Instant
        /// Callers in the current and the previous `freshFor` period: a busy channel is answered
        /// while it refreshes, a quiet one waits for the fresh window.
        var asks = 0
        var previousAsks = 0
        var asksSince: ContinuousClock.Instant?

        init(lastAsked: ContinuousClock.Instant) {
            self.lastAsked = lastAsked
        }

        /// Whether nothing depends on the entry staying (no fetch would come back to an entry that is gone).
        var isRemovable: Bool { !fetching && waiters.isEmpty }
    }

    struct Failure {
        var error: SeamError
        var at: ContinuousClock.Instant
    }

    /// Everything mutable, behind one lock: the hot path is one lookup and a copy.
    struct State {
        var entries: [String: Entry] = [:]
        var fetchCount = 0
        var nextWaiterID: UInt64 = 0
        var lastSweep: ContinuousClock.Instant

        init(now: ContinuousClock.Instant) {
            lastSweep = now
        }
    }

    /// What a call to `window(_:)` does next, decided under the lock.
    enum Step {
        /// Answered from the cache: fresh, stale after a failure, or the failure itself.
        case answer(Result<OriginWindow, SeamError>)
        /// Must wait for a fetch; `waiterID` is reserved for it.
        case wait(waiterID: UInt64)
        /// The caller's continuation is registered; `startFetch` says whether this caller launches the fetch.
        case registered(startFetch: Bool)
        /// Answered with a window past `freshFor` but within `serveWhileRefreshing`; this caller
        /// launches the refresh, which nobody waits for.
        case answerAndRefresh(Result<OriginWindow, SeamError>)
    }
}
