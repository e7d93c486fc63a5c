/// How often one client may ask `POST /v1/creatives/prefetch` to condition: a token bucket per
/// client address, `perMinute` requests a minute with a burst of as many. Each new creative
/// costs an ffmpeg job; unlimited, 120 anonymous URLs in 0.4 s filled the queue and pushed real
/// ads minutes back (issue 23).
///
/// A value: the owner holds it under its lock and passes the time in, so a test drives it with
/// a table of (time, client) events and no clock.
struct PrefetchRateLimiter: Sendable {
    /// Requests a minute per client, and the burst.
    let perMinute: Int
    /// At most this many clients are remembered; the one seen longest ago is forgotten first (a
    /// forgotten client starts again with a full bucket).
    let maxClients: Int

    private var buckets: [String: (tokens: Double, updated: Double)] = [:]

    init(perMinute: Int, maxClients: Int = 10_000) {
        self.perMinute = max(1, perMinute)
        self.maxClients = max(1, maxClients)
    }

    /// Whether `client` may make a request at `seconds` (any monotonic time base); if not, how
    /// many seconds until it may.
    mutating func admit(_ client: String, at seconds: Double) -> (allowed: Bool, retryAfter: Double) {
        let rate = Double(perMinute) / 60
        var bucket = buckets[client] ?? (Double(perMinute), seconds)
        bucket.tokens = min(Double(perMinute), bucket.tokens + max(0, seconds - bucket.updated) * rate)
        bucket.updated = seconds
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        if buckets[client] == nil, buckets.count >= maxClients,
            let oldest = buckets.min(by: { $0.value.updated < $1.value.updated })?.key
        {
            buckets[oldest] = nil
        }
        buckets[client] = bucket
        return (allowed, allowed ? 0 : (1 - bucket.tokens) / rate)
    }
}
