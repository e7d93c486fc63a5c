/// The rules of a coalescing cache as a value: one fetch per key at a time, shared by every
/// request for the key that arrives while it runs, its success kept for `lifetime`. Each
/// waiting request keeps its own deadline: when it passes, that request gets a time-out and the
/// fetch goes on for the others. The fetch runs until its own time limit or until the last
/// (latest) waiter has left, whichever comes first: when nobody waits any more it is cancelled.
///
/// No locks, no continuations, no clock: `RequestCoalescer` takes its lock, passes the time in,
/// and runs the returned actions (start or cancel a fetch, resume waiters, arm their timers)
/// outside the lock. Used for ad creatives (`CreativeLoader`) and live channels
/// (`LiveChannelCatalog`).
struct RequestCoalescerStateMachine<Key: Hashable & Sendable, Success: Sendable, Failure: Error>: Sendable {
    struct WaiterID: Hashable, Sendable, CustomStringConvertible {
        let value: UInt64
        var description: String { "waiter \(value)" }
    }

    /// One fetch; a later fetch of the same key has another id, so a cancelled one that still
    /// finishes is told apart.
    struct FetchID: Hashable, Sendable, CustomStringConvertible {
        let value: UInt64
        var description: String { "fetch \(value)" }
    }

    /// What a request gets.
    enum Answer: Sendable {
        case result(Result<Success, Failure>)
        /// Its deadline passed first (the fetch may go on for others).
        case timedOut
        /// Its task was cancelled.
        case cancelled
    }

    /// What a request does next.
    enum RequestAction: Sendable {
        /// Answered at once: the cached value, or a time-out when the deadline has passed already.
        case answer(Answer)
        /// Parked as `waiter`; with a deadline its timer sends `waiterTimedOut` at `until`. With
        /// `startFetch` the caller starts that fetch.
        case wait(WaiterID, until: ContinuousClock.Instant?, startFetch: FetchID?)
    }

    /// What the owner does after a fetch, a time-out or a cancellation.
    enum Action: Sendable {
        case resume(WaiterID, Answer)
        /// Nobody waits for this fetch any more: stop it.
        case cancelFetch(FetchID)
    }

    /// A running fetch and its waiters, with each one's deadline (nil: waits as long as the fetch runs).
    struct Flight: Sendable {
        var id: FetchID
        var waiters: [(id: WaiterID, deadline: ContinuousClock.Instant?)]

        /// How long someone still waits for the fetch: the latest deadline (nil when a waiter has none).
        var latestDeadline: ContinuousClock.Instant? {
            var latest: ContinuousClock.Instant?
            for waiter in waiters {
                guard let deadline = waiter.deadline else { return nil }
                latest = max(latest ?? deadline, deadline)
            }
            return latest
        }
    }

    /// How long a fetched value is served without fetching again.
    let lifetime: Duration
    /// Most values kept; past it, expired ones go, then the oldest.
    let capacity: Int
    private var cached: [Key: (value: Success, storedAt: ContinuousClock.Instant)] = [:]
    private(set) var flights: [Key: Flight] = [:]
    /// The key each waiter waits for.
    private var waiting: [WaiterID: Key] = [:]
    private var nextID: UInt64 = 0

    init(lifetime: Duration, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    // MARK: Events

    /// A request for `key` that waits until `deadline` at most (nil: as long as the fetch runs).
    mutating func request(_ key: Key, deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> RequestAction
    {
        if let value = cachedValue(key, now: now) { return .answer(.result(.success(value))) }
        if let deadline, deadline <= now { return .answer(.timedOut) }
        let id = WaiterID(value: takeID())
        waiting[id] = key
        if flights[key] != nil {
            flights[key]?.waiters.append((id, deadline))
            return .wait(id, until: deadline, startFetch: nil)
        }
        let fetch = FetchID(value: takeID())
        flights[key] = Flight(id: fetch, waiters: [(id, deadline)])
        return .wait(id, until: deadline, startFetch: fetch)
    }

    /// Fetch `fetch` of `key` finished: a success is kept for `lifetime`; the waiters get the result.
    /// A fetch that was cancelled (nobody waited) and finished anyway answers nobody, but a
    /// success is still kept.
    mutating func fetchCompleted(
        _ fetch: FetchID, key: Key, result: Result<Success, Failure>, now: ContinuousClock.Instant
    ) -> [Action] {
        if case .success(let value) = result { store(value, for: key, now: now) }
        guard let flight = flights[key], flight.id == fetch else { return [] }
        flights[key] = nil
        return flight.waiters.map { waiter in
            waiting[waiter.id] = nil
            return .resume(waiter.id, .result(result))
        }
    }

    /// Waiter `id`'s deadline passed: it gets a time-out; the fetch goes on unless it was the last waiter.
    mutating func waiterTimedOut(_ id: WaiterID) -> [Action] {
        leave(id, with: .timedOut)
    }

    /// Waiter `id`'s task was cancelled: it leaves; the fetch goes on unless it was the last waiter.
    mutating func waiterCancelled(_ id: WaiterID) -> [Action] {
        leave(id, with: .cancelled)
    }

    /// The cached value of `key` while it is younger than `lifetime`.
    func cachedValue(_ key: Key, now: ContinuousClock.Instant) -> Success? {
        guard let entry = cached[key], now - entry.storedAt < lifetime else { return nil }
        return entry.value
    }

    /// Waiters right now (for tests).
    var waiterCount: Int { waiting.count }

    // MARK: Rules

    private mutating func leave(_ id: WaiterID, with answer: Answer) -> [Action] {
        guard let key = waiting.removeValue(forKey: id), var flight = flights[key] else { return [] }
        flight.waiters.removeAll { $0.id == id }
        guard flight.waiters.isEmpty else {
            flights[key] = flight
            return [.resume(id, answer)]
        }
        flights[key] = nil
        return [.resume(id, answer), .cancelFetch(flight.id)]
    }

    private mutating func store(_ value: Success, for key: Key, now: ContinuousClock.Instant) {
        cached[key] = (value, now)
        guard cached.count > capacity else { return }
        let lifetime = self.lifetime
        cached = cached.filter { now - $0.value.storedAt < lifetime }
        while cached.count > capacity, let oldest = cached.min(by: { $0.value.storedAt < $1.value.storedAt }) {
            cached.removeValue(forKey: oldest.key)
        }
    }

    private mutating func takeID() -> UInt64 {
        defer { nextID &+= 1 }
        return nextID
    }
}
