/// The ADS time budget of one decision: a deadline on the continuous clock, and the per-request
/// time-out every fetch is cut down to so that no request can outlive the deadline.
///
/// Time-outs are computed from the deadline rather than counted per request, so however many
/// wrappers a chain has, the viewer waits no longer than the budget (SEAM.md §3: 2 s per request,
/// 5 s in all, configurable).
package struct AdTimeBudget: Sendable {
    let deadline: ContinuousClock.Instant
    let perRequest: Duration

    /// Extra time a deadline race allows beyond the deadline, so that a request ending exactly at
    /// the deadline (its own time-out) is reported by the fetcher, with its precise error, rather
    /// than by the race.
    static let raceGrace: Duration = .milliseconds(50)

    init(deadline: ContinuousClock.Instant, perRequestSeconds: Double) {
        self.deadline = deadline
        self.perRequest = AdTimeBudget.duration(seconds: perRequestSeconds)
    }

    /// Time left until the deadline; zero or negative when it has passed.
    var remaining: Duration { deadline - ContinuousClock.now }

    /// The time-out for a request started now: the configured per-request time-out, or the time
    /// left, whichever is shorter. Nil when no time is left (do not start the request).
    func requestTimeout() -> Duration? {
        let left = remaining
        guard left > .milliseconds(1) else { return nil }
        return min(perRequest, left)
    }

    /// Seconds from configuration as a `Duration`; negative, NaN and infinite values become zero
    /// or a day, so a bad configuration value can never trap.
    package static func duration(seconds: Double) -> Duration {
        guard seconds.isFinite else { return seconds > 0 ? .seconds(86_400) : .zero }
        return .milliseconds(Int64((min(max(seconds, 0), 86_400) * 1000).rounded()))
    }

    /// Runs `operation`, giving up at `deadline` (plus ``raceGrace``): nil when the deadline won.
    ///
    /// The operation is cancelled when the deadline wins. Structured: both the operation and the
    /// timer are children of a task group, so the group returns once the operation has reacted to
    /// the cancellation (the upstream clients do so at once). This is a backstop; every request
    /// also carries its own time-out from ``requestTimeout()``.
    static func race<T: Sendable>(
        until deadline: ContinuousClock.Instant,
        _ operation: @escaping @Sendable () async -> T
    ) async -> T? {
        await withTaskGroup(of: Optional<T>.self) { group in
            group.addTask { await operation() }
            group.addTask {
                // Not `Task.sleep`: its cancelled timers would outlive the race (`DeadlineTimer`).
                await DeadlineTimer.wait(until: deadline + raceGrace)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
