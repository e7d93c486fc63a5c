import Foundation
import ServiceLifecycle

/// Drops expired sessions now and then, so memory follows the viewers who are still watching.
struct SessionSweeper: Service {
    let store: any SessionStore
    let interval: Duration
    let clock: @Sendable () -> Date
    var analytics: SessionAnalytics = .off

    func run() async throws {
        // Stop at once on graceful shutdown, not after the current sleep.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                // A store that cannot answer now is swept at the next turn.
                let now = clock()
                for id in (try? await store.expire(now: now)) ?? [] {
                    analytics.sessionEnded(id, reason: .expired, at: now)
                }
            }
        }
    }
}
