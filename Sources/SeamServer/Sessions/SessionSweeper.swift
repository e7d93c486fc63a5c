import Foundation
import ServiceLifecycle

/// Keeps this replica's sessions in step with the store while Seam runs: the runtime's upkeep
/// (changes other replicas made, activity written back: `SessionRuntime.keepUp`) and, every
/// `interval`, the sweep of expired sessions, so memory follows the viewers who are still watching.
struct SessionSweeper: Service {
    let runtime: SessionRuntime
    let interval: Duration
    let clock: @Sendable () -> Date
    var analytics: SessionAnalytics = .off

    func run() async throws {
        // Stop at once on graceful shutdown, not after the current sleep.
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await runtime.keepUp() }
                group.addTask {
                    while !Task.isCancelled {
                        guard (try? await Task.sleep(for: interval)) != nil else { break }
                        // A store that cannot answer now is swept at the next turn.
                        let now = clock()
                        for id in (try? await runtime.sweep(now: now)) ?? [] {
                            analytics.sessionEnded(id, reason: .expired, at: now)
                        }
                    }
                }
            }
        }
    }
}
