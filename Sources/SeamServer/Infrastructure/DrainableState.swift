import NIOConcurrencyHelpers

/// The state of a background sender (beacons, analytics) that callers can wait on until what they
/// handed it is done: tests and an orderly shutdown. The sender resumes `drainWaiters` whenever
/// its pending count reaches zero.
protocol DrainableState {
    var pendingCount: Int { get }
    var drainWaiters: [CheckedContinuation<Void, Never>] { get set }
}

extension NIOLockedValueBox where Value: DrainableState {
    /// Returns once nothing handed to the sender before this call is pending.
    func waitUntilDrained() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = withLockedValue { state -> Bool in
                if state.pendingCount == 0 { return true }
                state.drainWaiters.append(waiter)
                return false
            }
            if done { waiter.resume() }
        }
    }
}
