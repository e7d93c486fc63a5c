import Testing
@testable import SeamServer

/// The prefetch route's per-client token bucket, as a table of (seconds, client) -> allowed.
@Suite struct PrefetchRateLimiterTests {
    @Test("A burst of perMinute, then one every 60/perMinute seconds; clients apart; a forgotten client starts full")
    func table() {
        var limiter = PrefetchRateLimiter(perMinute: 3, maxClients: 2)
        let events: [(Double, String, Bool)] = [
            (0, "a", true), (0, "a", true), (0, "a", true), (0, "a", false),
            (0, "b", true),
            (19, "a", false), (20, "a", true), (20, "a", false),
            (80, "a", true), (80, "a", true), (80, "a", true), (80, "a", false),
            // A third client makes the limiter forget the one seen longest ago (b), and b back
            // again forgets a: a starts full.
            (81, "c", true), (81, "b", true), (81, "a", true), (81, "a", true),
        ]
        for (index, (seconds, client, allowed)) in events.enumerated() {
            #expect(limiter.admit(client, at: seconds).allowed == allowed, "event \(index): \(client) at \(seconds) s")
        }
        // Refused, it says when: one token comes every 20 s at 3 a minute.
        var fresh = PrefetchRateLimiter(perMinute: 3)
        for _ in 0..<3 { _ = fresh.admit("a", at: 0) }
        #expect(fresh.admit("a", at: 5).retryAfter == 15)
    }
}
