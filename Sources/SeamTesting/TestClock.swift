import Foundation
import SeamServer

/// A clock the test moves by hand, in the manner of postgres-nio's `MockClock` and NIO's
/// `NIOAsyncTestingEventLoop.advanceTime`: session lifetimes, keep-alive expiry, origin cache
/// freshness and staleness, live cadence and decision deadlines are read from it, so a test
/// advances time instead of sleeping, and a busy machine cannot make a test late.
///
/// `sleep(until:)` returns when `advance` reaches the instant (or throws when the task is
/// cancelled). The wall-clock `date` Seam reads (session expiry times) moves with `now`.
///
/// It is also a `Clock`, for the client side (`SeamClient(clock:)`: keep-alive turns and retries).
package final class TestClock: Clock, @unchecked Sendable {
    package typealias Instant = ContinuousClock.Instant

    private let lock = NSLock()
    private let start: ContinuousClock.Instant
    private let startDate = Date()
    private var current: ContinuousClock.Instant
    private var sleepers:
        [UInt64: (deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Void, any Error>)] = [:]
    private var nextSleeper: UInt64 = 0

    package init() {
        start = .now
        current = start
    }

    package var now: ContinuousClock.Instant { lock.withLock { current } }

    /// The wall-clock date, moved as far as `now` has been (for `SeamClient(clock:date:)`).
    package var date: Date {
        let elapsed = (now - start).components
        return startDate.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    /// The clock as Seam's owners take it (`SeamServices.clock`).
    package var seamClock: SeamClock {
        SeamClock(now: { self.now }, sleep: { try await self.sleep(until: $0, tolerance: nil) }, date: { self.date })
    }

    /// Waits (in real time, polling; up to `timeout`) until `count` tasks sleep on this clock:
    /// the moment a test advances it, knowing the owner is waiting for that time to pass.
    package func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while sleeping < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Tasks sleeping on this clock right now.
    package var sleeping: Int { lock.withLock { sleepers.count } }

    /// The earliest instant a task sleeps until, if any.
    package var nextDeadline: ContinuousClock.Instant? { lock.withLock { sleepers.values.map(\.deadline).min() } }

    /// Runs `body` while time jumps to each sleeper's instant as soon as one sleeps: for a clock
    /// only the code under test waits on (SeamKit's keep-alive loop), so its turns and retries
    /// come at once and in order, however slow the machine.
    package func driving<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        let driver = Task {
            while !Task.isCancelled {
                if let next = nextDeadline {
                    advance(max(.zero, next - now))
                }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        defer { driver.cancel() }
        return try await body()
    }

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

    package var minimumResolution: Duration { .zero }

    package func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
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
