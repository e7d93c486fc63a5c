/// The one clock the live machinery and the creative loader read and wait on: the live
/// session's decision budget, the origin cache's freshness, the coalescers' deadlines, the
/// break decision queue. Injected, so tests move time by hand instead of sleeping.
public struct SeamClock: Sendable {
    private let readNow: @Sendable () -> ContinuousClock.Instant
    private let sleeper: @Sendable (ContinuousClock.Instant) async throws -> Void

    /// - Parameters:
    ///   - now: the current instant.
    ///   - sleep: returns once `now` has reached the instant; throws when the task is cancelled.
    public init(now: @escaping @Sendable () -> ContinuousClock.Instant,
                sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void) {
        readNow = now
        sleeper = sleep
    }

    /// A clock that reads `now` and waits out what is left by it in real time (for owners that
    /// only inject `now`, as `SeamServices.now` does).
    public init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.init(now: now) { deadline in
            while true {
                let left = deadline - now()
                guard left > .zero else { return }
                try await Task.sleep(for: left)
            }
        }
    }

    /// The process's monotonic clock.
    public static let continuous = SeamClock(now: { .now }, sleep: { try await Task.sleep(until: $0, clock: .continuous) })

    public var now: ContinuousClock.Instant { readNow() }

    /// Returns at `deadline`; throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleeper(deadline)
    }
}
