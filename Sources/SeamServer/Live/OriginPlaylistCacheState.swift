import HLS

/// The rules of `OriginPlaylistCache` as a value: what it knows of each playlist URL, and what a
/// request, a finished fetch, a cancelled caller or a sweep does to it. No locks, no
/// continuations, no clock: the cache takes its lock, passes the time in, and runs the returned
/// actions (start a fetch, resume waiters) outside the lock.
///
/// - A window younger than `freshFor` is answered at once.
/// - Requests arriving while a fetch runs wait for that fetch (one fetch per URL at a time).
/// - A busy URL (`busyAfter` requests in the current or previous `freshFor` period) is answered
///   from its last window, up to `serveWhileRefreshing` old, while one refresh runs behind.
/// - When the origin fails (upstream error, unusable playlist, or a window that moved backwards)
///   the last good window is served, marked stale, while it is younger than `maxStale`; after
///   that the error. For `retryAfterFailure` after a failure every request gets the same outcome
///   without a new fetch. A last good window too old to serve stops being the reference, so an
///   origin that restarted its numbering is followed after one error.
/// - Entries nobody asked for in `idleTimeout` are dropped, and there are at most `maxEntries`
///   (plus any a fetch or a waiter depends on).
struct OriginPlaylistCacheStateMachine: Sendable {
    struct Configuration: Sendable {
        var freshFor: Duration
        var serveWhileRefreshing: Duration = .zero
        var busyAfter = 8
        var maxStale: Duration
        var retryAfterFailure: Duration = .milliseconds(500)
        var idleTimeout: Duration = .seconds(60)
        var maxEntries = 10_000
    }

    /// A request waiting for a fetch; the cache keeps its continuation by this id.
    struct WaiterID: Hashable, Sendable {
        let value: UInt64
    }

    /// What a request does next.
    enum RequestAction: Sendable, Equatable {
        /// Answered from the cache: fresh, stale after a failure, or the failure itself.
        case answer(Result<OriginWindow, SeamError>)
        /// Answered with the last window (past `freshFor`, within `serveWhileRefreshing`); the
        /// caller starts the refresh, which nobody waits for.
        case answerAndFetch(Result<OriginWindow, SeamError>)
        /// Parked as waiter `id` until `fetchCompleted`; with `startFetch` the caller starts the fetch.
        case wait(WaiterID, startFetch: Bool)
    }

    /// What a finished fetch answers, and to whom.
    struct Completion: Sendable, Equatable {
        var waiters: [WaiterID]
        var outcome: Result<OriginWindow, SeamError>
    }

    /// What the cache knows about one playlist URL.
    struct Entry: Sendable {
        /// The newest window that parsed and did not move backwards; `isStale` is always false here.
        var lastGood: OriginWindow?
        /// The latest fetch's failure, until a fetch succeeds; it answers requests for `retryAfterFailure`.
        var failure: Failure?
        /// Whether a fetch for this URL is running; requests then wait for it instead of fetching.
        var fetching = false
        /// Requests waiting for the running fetch.
        var waiters: [WaiterID] = []
        /// When a request last asked for this URL; idle entries are dropped.
        var lastAsked: ContinuousClock.Instant
        /// Requests in the current and the previous `freshFor` period: a busy channel is answered
        /// while it refreshes, a quiet one waits for the fresh window.
        var asks = 0
        var previousAsks = 0
        var asksSince: ContinuousClock.Instant?

        /// Whether nothing depends on the entry staying (no fetch would come back to an entry that is gone).
        var isRemovable: Bool { !fetching && waiters.isEmpty }
    }

    struct Failure: Sendable {
        var error: SeamError
        var at: ContinuousClock.Instant
    }

    let configuration: Configuration
    private(set) var entries: [String: Entry] = [:]
    /// Fetches started so far.
    private(set) var fetchCount = 0
    private var nextWaiterID: UInt64 = 0
    private var lastSweep: ContinuousClock.Instant

    init(configuration: Configuration, now: ContinuousClock.Instant) {
        var configuration = configuration
        configuration.maxEntries = max(1, configuration.maxEntries)
        self.configuration = configuration
        lastSweep = now
    }

    /// Requests waiting for a fetch right now.
    var waitingCount: Int { entries.values.reduce(0) { $0 + $1.waiters.count } }

    // MARK: Events

    /// A request for `url`'s window at `now`.
    mutating func windowRequested(_ url: String, now: ContinuousClock.Instant) -> RequestAction {
        guard let action = request(url, now: now, mayWait: true) else { preconditionFailure("a caller that waits") }
        return action
    }

    /// What `windowRequested` answers at once with a good window — a fresh one, or a busy
    /// channel's served while it refreshes — for a caller that cannot wait
    /// (`LiveSessionFactory.playlistAtHand`); nil where that caller would wait, or be answered a
    /// failure or a stale window: no waiter is registered and no fetch is started for it (the
    /// router's path then asks `windowRequested`).
    mutating func windowAtHand(_ url: String, now: ContinuousClock.Instant) -> RequestAction? {
        guard let entry = entries[url], entry.lastGood != nil, entry.failure == nil else { return nil }
        return request(url, now: now, mayWait: false)
    }

    private mutating func request(_ url: String, now: ContinuousClock.Instant, mayWait: Bool) -> RequestAction? {
        if now - lastSweep >= configuration.idleTimeout / 4 { sweep(now: now) }
        if entries[url] == nil {
            guard mayWait else { return nil }
            makeRoom(now: now)
            entries[url] = Entry(lastAsked: now)
        }
        guard let index = entries.index(forKey: url) else { preconditionFailure("just inserted") }
        entries.values[index].lastAsked = now
        countAsk(&entries.values[index], now: now)
        let entry = entries.values[index]

        if let good = entry.lastGood, now - good.fetchedAt < configuration.freshFor {
            return .answer(.success(good))
        }
        if let failure = entry.failure, now - failure.at < configuration.retryAfterFailure {
            guard mayWait else { return nil }
            return .answer(fallback(entry, failure.error, now: now))
        }
        // While the origin is healthy, refresh behind the callers' backs; after a failure the
        // stale-window rules above and below apply.
        if entry.failure == nil, max(entry.asks, entry.previousAsks) >= configuration.busyAfter,
            let good = entry.lastGood,
            now - good.fetchedAt < min(configuration.serveWhileRefreshing, configuration.maxStale)
        {
            guard !entry.fetching else { return .answer(.success(good)) }
            entries.values[index].fetching = true
            fetchCount += 1
            return .answerAndFetch(.success(good))
        }
        // Past here the caller waits for a fetch. One that cannot goes to the router's path,
        // which asks again and waits: a waiter registered here would wait for nobody, and a
        // fetch marked as running but never started would hold every later caller.
        guard mayWait else { return nil }
        let id = WaiterID(value: nextWaiterID)
        nextWaiterID &+= 1
        entries.values[index].waiters.append(id)
        guard !entry.fetching else { return .wait(id, startFetch: false) }
        entries.values[index].fetching = true
        fetchCount += 1
        return .wait(id, startFetch: true)
    }

    /// The fetch of `url` finished at `now` with `result`: recorded, and answered to everyone who waited.
    mutating func fetchCompleted(
        _ url: String, result: Result<OriginWindow, SeamError>, now: ContinuousClock.Instant
    ) -> Completion {
        // Only entries without a fetch are ever removed, so the entry is there; answer anyway.
        guard var entry = entries[url] else { return Completion(waiters: [], outcome: result) }
        entry.fetching = false
        let waiters = entry.waiters
        entry.waiters = []
        let outcome: Result<OriginWindow, SeamError>
        switch result {
        case .success(let window):
            if let last = entry.lastGood, let backwards = Self.movedBackwards(window, after: last, url: url) {
                entry.failure = Failure(error: backwards, at: now)
                outcome = fallback(entry, backwards, now: now)
                // A last good window too old to serve stops being the reference, so an origin
                // that restarted its numbering is followed after one error, not refused forever.
                if now - last.fetchedAt >= configuration.maxStale { entry.lastGood = nil }
            } else {
                entry.lastGood = window
                entry.failure = nil
                outcome = .success(window)
            }
        case .failure(let error):
            entry.failure = Failure(error: error, at: now)
            outcome = fallback(entry, error, now: now)
        }
        entries[url] = entry
        return Completion(waiters: waiters, outcome: outcome)
    }

    /// Waiter `id` of `url` went away; true when it was still waiting (the cache answers it).
    /// The fetch goes on for the others.
    mutating func waiterCancelled(_ url: String, _ id: WaiterID) -> Bool {
        guard let index = entries.index(forKey: url), let position = entries.values[index].waiters.firstIndex(of: id)
        else { return false }
        entries.values[index].waiters.remove(at: position)
        return true
    }

    /// Drops entries nobody asked for in `idleTimeout` (and nothing depends on).
    mutating func sweep(now: ContinuousClock.Instant) {
        lastSweep = now
        let idleTimeout = configuration.idleTimeout
        entries = entries.filter { _, entry in !entry.isRemovable || now - entry.lastAsked < idleTimeout }
    }

    // MARK: Rules

    /// Counts a request in the current `freshFor` period, rolling the periods over.
    private func countAsk(_ entry: inout Entry, now: ContinuousClock.Instant) {
        let freshFor = configuration.freshFor
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
    private func fallback(
        _ entry: Entry, _ error: SeamError, now: ContinuousClock.Instant
    ) -> Result<OriginWindow, SeamError> {
        guard var good = entry.lastGood, now - good.fetchedAt < configuration.maxStale else { return .failure(error) }
        good.isStale = true
        return .success(good)
    }

    /// Keeps the entry count below `maxEntries` before one is added: idle entries first, then the
    /// least recently asked one that no fetch depends on.
    private mutating func makeRoom(now: ContinuousClock.Instant) {
        guard entries.count >= configuration.maxEntries else { return }
        sweep(now: now)
        while entries.count >= configuration.maxEntries {
            let oldest = entries.filter { $0.value.isRemovable }.min { $0.value.lastAsked < $1.value.lastAsked }
            guard let oldest else { return }
            entries.removeValue(forKey: oldest.key)
        }
    }

    /// A live MPD whose segment numbers name other segments than in its last window: Seam
    /// follows a DASH channel by `$Number$`, so a packager that lets `SegmentTimeline` slide
    /// without moving `startNumber` cannot be followed (its sessions would replay or skip).
    static func renumbered(_ window: MediaPlaylist, after last: MediaPlaylist, url: String) -> SeamError? {
        let number = max(window.mediaSequence, last.mediaSequence)
        guard let new = window.segments[safe: number - window.mediaSequence]?.programDateTime?.secondsSince1970,
            let old = last.segments[safe: number - last.mediaSequence]?.programDateTime?.secondsSince1970,
            abs(new - old) > 0.05
        else { return nil }
        return SeamError(
            .originInvalidPlaylist,
            "\(url): the live MPD's segment \(number) starts at another time than in its previous version (\(DateTime(secondsSince1970: new).text), was \(DateTime(secondsSince1970: old).text)); Seam follows live DASH by segment number: the packager's startNumber must move with its SegmentTimeline"
        )
    }

    /// Why `window` cannot follow `last`, or nil when it does not go backwards (equal is fine).
    static func movedBackwards(_ window: OriginWindow, after last: OriginWindow, url: String) -> SeamError? {
        if window.dash != nil, let renumbered = renumbered(window.playlist, after: last.playlist, url: url) {
            return renumbered
        }
        if window.playlist.mediaSequence < last.playlist.mediaSequence {
            return SeamError(
                .originInvalidPlaylist,
                "\(url): the origin's live window moved backwards (media sequence \(window.playlist.mediaSequence) after \(last.playlist.mediaSequence)); check the origin or packager for a restart or a stale edge"
            )
        }
        if window.lastSequenceNumber < last.lastSequenceNumber {
            return SeamError(
                .originInvalidPlaylist,
                "\(url): the origin's live window moved backwards (last segment \(window.lastSequenceNumber) after \(last.lastSequenceNumber)); check the origin or packager for a stale edge"
            )
        }
        return nil
    }
}
