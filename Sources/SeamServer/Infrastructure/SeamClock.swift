import Foundation

/// The one clock Seam reads and waits on: the live session's decision budget, the origin cache's
/// freshness, the coalescers' deadlines, the break decision queue, and (as wall-clock time, `date`)
/// session lifetimes. Injected (`SeamServices.clock`), so tests move time by hand instead of
/// sleeping; the monotonic instant and the wall-clock date move together.
package struct SeamClock: Sendable {
    private let readNow: @Sendable () -> ContinuousClock.Instant
    private let sleeper: @Sendable (ContinuousClock.Instant) async throws -> Void
    private let readDate: @Sendable () -> Date

    /// - Parameters:
    ///   - now: the current instant.
    ///   - sleep: returns once `now` has reached the instant; throws when the task is cancelled.
    ///   - date: the wall-clock time; by default the date when the clock was made, moved on as
    ///     far as `now` has moved since, so a test that moves `now` moves session lifetimes too.
    package init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void,
        date: (@Sendable () -> Date)? = nil
    ) {
        readNow = now
        sleeper = sleep
        if let date {
            readDate = date
        } else {
            let startInstant = now()
            let startDate = Date()
            readDate = {
                let elapsed = (now() - startInstant).components
                return startDate.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
            }
        }
    }

    /// A clock that reads `now` and waits out what is left by it in real time (for owners that
    /// only inject `now`, as `SeamServices.now` does).
    package init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.init(now: now) { deadline in
            while true {
                let left = deadline - now()
                guard left > .zero else { return }
                try await Task.sleep(for: left)
            }
        }
    }

    /// The process's monotonic clock.
    package static let continuous = SeamClock(
        now: { .now }, sleep: { try await Task.sleep(until: $0, clock: .continuous) },
        date: { Date() })

    package var now: ContinuousClock.Instant { readNow() }

    /// The wall-clock time (session expiry times, which players read as dates).
    package var date: Date { readDate() }

    /// Returns at `deadline`; throws `CancellationError` when the task is cancelled first.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleeper(deadline)
    }
}
