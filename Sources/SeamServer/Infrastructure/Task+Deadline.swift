import NIOConcurrencyHelpers

extension Task where Failure == Never {
    /// The task's value if it ends by `deadline`, else nil. The task goes on either way: this is
    /// for work that outlives the request that began it (a cold title's content probes, which a
    /// session start waits for only within its ad budget, and whose result later sessions use).
    func value(until deadline: ContinuousClock.Instant) async -> Success? {
        let waiting = NIOLockedValueBox(DeadlineWaiting<Success>())
        return await withCheckedContinuation { continuation in
            waiting.withLockedValue { $0.continuation = continuation }
            let timer = Task<Void, Never> {
                try? await Task<Never, Never>.sleep(until: deadline, clock: .continuous)
                let late = waiting.withLockedValue { waiting in
                    defer { waiting.continuation = nil }
                    return waiting.continuation
                }
                late?.resume(returning: nil)
            }
            waiting.withLockedValue { $0.timer = timer }
            Task<Void, Never> {
                let value = await self.value
                let (early, timer) = waiting.withLockedValue { waiting in
                    defer { waiting.continuation = nil }
                    return (waiting.continuation, waiting.timer)
                }
                timer?.cancel()
                early?.resume(returning: value)
            }
        }
    }
}

/// Who waits for a task's value with a deadline, and the timer that ends the wait.
private struct DeadlineWaiting<Value: Sendable> {
    var continuation: CheckedContinuation<Value?, Never>?
    var timer: Task<Void, Never>?
}
