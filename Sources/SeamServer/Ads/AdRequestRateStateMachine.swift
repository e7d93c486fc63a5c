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

    /// A host's cap: `perSecond` tokens a second, at most `burst` saved up. The default burst
    /// is one: requests are paced at most one per 1/`perSecond` seconds, so no second — the
    /// first of a break included — sends a host more than its cap (a bucket of a second's worth
    /// let twice the cap go in the second a break began).
    struct Limit: Sendable, Equatable {
        var perSecond: Double
        var burst: Double

        /// Rates are held to 0.001–1,000,000 a second, so no wait computed from them overflows.
        init(perSecond: Double, burst: Double? = nil) {
            let rate = perSecond.isFinite ? min(max(perSecond, 0.001), 1_000_000) : 1
            self.perSecond = rate
            self.burst = min(max(1, burst ?? 1), 1_000_000)
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
        /// The last sends, oldest at `head` once full: at most `windowLimit` in any second.
        var recent: [Instant] = []
        var head = 0

        /// Requests any one second may send: the cap, rounded up. Above 100,000 a second the
        /// window is not kept (its memory would outweigh a tolerance of one request in 100,000).
        var windowLimit: Int? {
            limit.perSecond <= 100_000 ? Int(limit.perSecond.rounded(.up)) : nil
        }

        /// Tokens come at the cap's rate. While requests wait they are not capped at the burst:
        /// a tick that comes late (timers do, on a busy machine) lets the requests due meanwhile
        /// go, and the window below keeps any second at the cap.
        mutating func refill(_ now: Instant) {
            guard now > refilledAt else { return }
            let elapsed =
                Double((now - refilledAt).components.seconds)
                + Double((now - refilledAt).components.attoseconds) / 1e18
            tokens = min(
                waiters.isEmpty ? limit.burst : limit.perSecond + limit.burst, tokens + elapsed * limit.perSecond)
            refilledAt = now
        }

        /// Whether a whole token is there (within rounding: times are sums of fractions).
        var hasToken: Bool { tokens >= 1 - 1e-9 }

        /// When the window lets one more go: now when it has room, else a second after the
        /// oldest send in it.
        func windowOpens(after now: Instant) -> Instant {
            guard let windowLimit, recent.count >= windowLimit else { return now }
            return max(now, recent[head] + .seconds(1))
        }

        /// Whether a request may go now.
        func mayGo(_ now: Instant) -> Bool { hasToken && windowOpens(after: now) <= now }

        mutating func send(_ now: Instant) {
            tokens -= 1
            guard let windowLimit else { return }
            if recent.count < windowLimit {
                recent.append(now)
            } else {
                recent[head] = now
                head = (head + 1) % windowLimit
            }
        }

        /// When a request may next go.
        func nextToken(after now: Instant) -> Instant {
            let window = windowOpens(after: now)
            guard !hasToken else { return window }
            // At most a day: the rate's floor (0.001/s) makes it 1,000 s at worst.
            let seconds = min((1 - tokens) / limit.perSecond, 86_400)
            return max(window, now + .nanoseconds(Int64((seconds * 1e9).rounded(.up))))
        }

        /// Nothing waits, the bucket is full and no send is within the last second: forgetting
        /// it changes nothing.
        func isIdle(_ now: Instant) -> Bool {
            guard waiters.isEmpty, tokens >= limit.burst - 1e-9 else { return false }
            guard let newest = recent.isEmpty ? nil : recent[(head + recent.count - 1) % recent.count] else {
                return true
            }
            return newest + .seconds(1) <= now
        }
    }

    private let limits: [String: Limit]
    private let fallback: Limit?
    private var buckets: [String: Bucket] = [:]
    /// The replicas each configured cap is shared among (`share(among:)`): each host is held
    /// to its cap divided by this, so the replicas together send it no more than the cap.
    private(set) var replicas = 1

    /// - Parameters:
    ///   - limits: caps by host name (lowercased).
    ///   - fallback: the cap of every other host; nil: other hosts are not capped.
    init(limits: [String: Limit], fallback: Limit?) {
        self.limits = Dictionary(limits.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.fallback = fallback
    }

    /// The cap `host` is held to here, if any: its configured cap, this replica's share of it.
    func limit(for host: String) -> Limit? {
        guard let configured = limits[host.lowercased()] ?? fallback else { return nil }
        guard replicas > 1 else { return configured }
        return Limit(perSecond: configured.perSecond / Double(replicas), burst: configured.burst)
    }

    /// The caps are shared among `count` replicas from now on (at least 1): every host's
    /// bucket takes its new rate, and its window of recent sends keeps the newest that fit the
    /// new second's cap. A rise lets waiting requests go sooner at the next `tick`.
    mutating func share(among count: Int) {
        let count = min(max(1, count), 10_000)
        guard count != replicas else { return }
        replicas = count
        for key in Array(buckets.keys) {
            guard var bucket = buckets[key], let limit = limit(for: key) else { continue }
            bucket.limit = limit
            bucket.tokens = min(bucket.tokens, limit.perSecond + limit.burst)
            // The ring in time order, oldest first, cut to the newest the new window holds.
            var ordered = Array(bucket.recent[bucket.head...] + bucket.recent[..<bucket.head])
            if let windowLimit = bucket.windowLimit {
                if ordered.count > windowLimit { ordered.removeFirst(ordered.count - windowLimit) }
            } else {
                ordered = []
            }
            bucket.recent = ordered
            bucket.head = 0
            buckets[key] = bucket
        }
    }

    /// Every host has a bucket of its own (a host not listed: with the fallback's cap).
    private func key(_ host: String) -> String { host.lowercased() }

    /// A request `id` for `host` that must be sent by `deadline`.
    mutating func admit(id: Int, host: String, deadline: Instant, now: Instant) -> Admission {
        guard let limit = limit(for: host) else { return .proceed }
        guard deadline > now else { return .expired }
        let key = key(host)
        var bucket = buckets[key] ?? Bucket(limit: limit, tokens: limit.burst, refilledAt: now)
        bucket.refill(now)
        if bucket.waiters.isEmpty, bucket.mayGo(now) {
            bucket.send(now)
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
            while !bucket.waiters.isEmpty, bucket.mayGo(now) {
                bucket.send(now)
                releases.append(.proceed(bucket.waiters.removeFirst().id))
            }
            if let first = bucket.waiters.first {
                let wake = min(bucket.nextToken(after: now), first.deadline)
                nextWake = nextWake.map { min($0, wake) } ?? wake
            }
            buckets[key] = bucket
        }
        // Full, idle buckets are forgotten: a host asked once a day costs nothing between.
        buckets = buckets.filter { !$0.value.isIdle(now) }
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
