import Foundation
import SeamServer

/// A clock the test moves by hand, in the manner of postgres-nio's `MockClock` and NIO's
/// `NIOAsyncTestingEventLoop.advanceTime`: session lifetimes, keep-alive expiry, origin cache
/// freshness and staleness, live cadence and decision deadlines are read from it, so a test
/// advances time instead of sleeping, and a busy machine cannot make a test late.
///
/// `sleep(until:)` returns when `advance` reaches the instant (or throws when the task is
/// cancelled). The wall-clock `date` Seam reads (session expiry times) moves with `now`.
package final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = ContinuousClock.now
    private var sleepers: [UInt64: (deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Void, any Error>)] = [:]
    private var nextSleeper: UInt64 = 0

    package init() {}

    package var now: ContinuousClock.Instant { lock.withLock { current } }

    /// The clock as Seam's owners take it (`SeamServices.clock`).
    package var seamClock: SeamClock {
        SeamClock(now: { self.now }, sleep: { try await self.sleep(until: $0) })
    }

    /// Tasks sleeping on this clock right now.
    package var sleeping: Int { lock.withLock { sleepers.count } }

    /// The earliest instant a task sleeps until, if any.
    package var nextDeadline: ContinuousClock.Instant? { lock.withLock { sleepers.values.map(\.deadline).min() } }

    /// Moves time on by `duration` and wakes every sleeper whose instant has come.
    package func advance(_ duration: Duration) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            current += duration
            let due = sleepers.filter { $0.value.deadline <= current }
            for id in due.keys { sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = lock.withLock { () -> UInt64 in
            defer { nextSleeper += 1 }
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = lock.withLock { () -> Bool? in
                    if Task.isCancelled { return false }
                    if deadline <= current { return true }
                    sleepers[id] = (deadline, continuation)
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            lock.withLock { sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
