/// The request-rate cap of each ad-server host (`ads.requestsPerSecond`) as a value: a token
/// bucket per host, and the requests waiting for a token served earliest deadline first, so a
/// break whose viewers' budgets end soonest is asked for first and no burst — a break seen by
/// thousands of viewers at once — sends a host more than its cap.
///
/// A state machine in the manner of AsyncHTTPClient's connection pool: events in (`admit`,
/// `tick`, `cancel`), actions out; time is passed in; waiters are referred to by id. The owner
/// (`AdRequestShaper`) takes its lock, asks, and resumes the waiters outside the lock.
struct AdRequestRateStateMachine: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// A host's cap: `perSecond` tokens a second, at most `burst` saved up.
    struct Limit: Sendable, Equatable {
        var perSecond: Double
        var burst: Double

        /// Rates are held to 0.001–1,000,000 a second, so no wait computed from them overflows.
        init(perSecond: Double, burst: Double? = nil) {
            let rate = perSecond.isFinite ? min(max(perSecond, 0.001), 1_000_000) : 1
            self.perSecond = rate
            self.burst = min(max(1, burst ?? rate), 1_000_000)
        }
    }

    /// What a request is told when it asks.
    enum Admission: Sendable, Equatable {
        /// Send it now.
        case proceed
        /// Wait; `tick` at `wakeAt` (or earlier) may let it go.
        case wait(wakeAt: Instant)
        /// Its deadline has passed: do not send it.
        case expired
    }

    /// What `tick` decides for a waiting request.
    enum Release: Sendable, Equatable {
        case proceed(Int)
        /// Its deadline passed while it waited.
        case expired(Int)
    }

    private struct Waiter: Sendable {
        var id: Int
        var deadline: Instant
    }

    private struct Bucket: Sendable {
        var limit: Limit
        var tokens: Double
        var refilledAt: Instant
        /// Earliest deadline first; among equal deadlines, the first to ask.
        var waiters: [Waiter] = []

        mutating func refill(_ now: Instant) {
            guard now > refilledAt else { return }
            let elapsed =
                Double((now - refilledAt).components.seconds)
                + Double((now - refilledAt).components.attoseconds) / 1e18
            tokens = min(limit.burst, tokens + elapsed * limit.perSecond)
            refilledAt = now
        }

        /// Whether a whole token is there (within rounding: times are sums of fractions).
        var hasToken: Bool { tokens >= 1 - 1e-9 }

        /// When the bucket next holds a whole token.
        func nextToken(after now: Instant) -> Instant {
            guard !hasToken else { return now }
            // At most a day: the rate's floor (0.001/s) makes it 1,000 s at worst.
            let seconds = min((1 - tokens) / limit.perSecond, 86_400)
            return now + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
        }
    }

    private let limits: [String: Limit]
    private let fallback: Limit?
    private var buckets: [String: Bucket] = [:]

    /// - Parameters:
    ///   - limits: caps by host name (lowercased).
    ///   - fallback: the cap of every other host; nil: other hosts are not capped.
    init(limits: [String: Limit], fallback: Limit?) {
        self.limits = Dictionary(limits.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.fallback = fallback
    }

    /// The cap `host` is held to, if any.
    func limit(for host: String) -> Limit? { limits[host.lowercased()] ?? fallback }

    /// Every host has a bucket of its own (a host not listed: with the fallback's cap).
    private func key(_ host: String) -> String { host.lowercased() }

    /// A request `id` for `host` that must be sent by `deadline`.
    mutating func admit(id: Int, host: String, deadline: Instant, now: Instant) -> Admission {
        guard let limit = limit(for: host) else { return .proceed }
        guard deadline > now else { return .expired }
        let key = key(host)
        var bucket = buckets[key] ?? Bucket(limit: limit, tokens: limit.burst, refilledAt: now)
        bucket.refill(now)
        if bucket.waiters.isEmpty, bucket.hasToken {
            bucket.tokens -= 1
            buckets[key] = bucket
            return .proceed
        }
        let at = bucket.waiters.firstIndex { $0.deadline > deadline } ?? bucket.waiters.endIndex
        bucket.waiters.insert(Waiter(id: id, deadline: deadline), at: at)
        buckets[key] = bucket
        return .wait(wakeAt: min(bucket.nextToken(after: now), bucket.waiters[0].deadline))
    }

    /// Lets waiting requests go as tokens have come (earliest deadline first), and gives up those
    /// whose deadline passed. Returns what to do with each, and when to tick next (nil: nothing waits).
    mutating func tick(now: Instant) -> (releases: [Release], nextWake: Instant?) {
        var releases: [Release] = []
        var nextWake: Instant?
        for key in buckets.keys.sorted() {
            guard var bucket = buckets[key] else { continue }
            bucket.refill(now)
            bucket.waiters.removeAll { waiter in
                guard waiter.deadline <= now else { return false }
                releases.append(.expired(waiter.id))
                return true
            }
            while bucket.hasToken, !bucket.waiters.isEmpty {
                bucket.tokens -= 1
                releases.append(.proceed(bucket.waiters.removeFirst().id))
            }
            if let first = bucket.waiters.first {
                let wake = min(bucket.nextToken(after: now), first.deadline)
                nextWake = nextWake.map { min($0, wake) } ?? wake
            }
            buckets[key] = bucket
        }
        // Full, idle buckets are forgotten: a host asked once a day costs nothing between.
        buckets = buckets.filter { !$0.value.waiters.isEmpty || $0.value.tokens < $0.value.limit.burst - 1e-9 }
        return (releases, nextWake)
    }

    /// Request `id` gave up waiting (its task was cancelled); true when it was waiting.
    mutating func cancel(id: Int) -> Bool {
        for (key, bucket) in buckets {
            guard let index = bucket.waiters.firstIndex(where: { $0.id == id }) else { continue }
            buckets[key]?.waiters.remove(at: index)
            return true
        }
        return false
    }

    /// Requests waiting for `host`'s cap.
    func waiting(for host: String) -> Int { buckets[key(host)]?.waiters.count ?? 0 }

    /// Requests waiting, by host (hosts with none left out).
    func waitingByHost() -> [String: Int] {
        buckets.compactMapValues { $0.waiters.isEmpty ? nil : $0.waiters.count }
    }
}
