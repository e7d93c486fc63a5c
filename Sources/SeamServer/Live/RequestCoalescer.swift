import NIOConcurrencyHelpers

/// The owner of a `RequestCoalescerStateMachine` (the rules are there): one fetch per key at a
/// time, shared by concurrent requests, each waiting no longer than its own deadline, the
/// success kept for `lifetime`. It takes the lock, asks the machine, and outside the lock
/// starts and cancels fetches, resumes waiters and arms their timers on the injected clock.
final class RequestCoalescer<Key: Hashable & Sendable, Success: Sendable, Failure: Error>: Sendable {
    typealias Machine = RequestCoalescerStateMachine<Key, Success, Failure>
    typealias Answer = Machine.Answer

    let clock: SeamClock
    private let state: NIOLockedValueBox<State>

    struct State: Sendable {
        var machine: Machine
        var waiters = WaiterTable<Machine.WaiterID, Answer>()
        /// Running fetches, so the last waiter leaving can cancel one.
        var fetches: [Machine.FetchID: Task<Void, Never>] = [:]
    }

    init(lifetime: Duration, capacity: Int, clock: SeamClock) {
        self.clock = clock
        state = NIOLockedValueBox(State(machine: Machine(lifetime: lifetime, capacity: capacity)))
    }

    /// The value of `key`: cached, from the fetch running for it, or from `fetch` (started here
    /// when none runs). Waits until `deadline` at most (nil: as long as the fetch runs). The fetch
    /// runs in its own task so no single caller's cancellation ends it for the others; it is
    /// cancelled when nobody waits for it any more.
    func value(
        for key: Key, deadline: ContinuousClock.Instant?,
        fetch: @escaping @Sendable (Key) async -> Result<Success, Failure>
    ) async -> Answer {
        let now = clock.now
        let action = state.withLockedValue { state -> Machine.RequestAction in
            let action = state.machine.request(key, deadline: deadline, now: now)
            guard case .wait(_, _, let fetchID?) = action else { return action }
            // Created under the lock, so its completion (which takes the lock) finds it registered.
            state.fetches[fetchID] = Task { [self] in
                let result = await fetch(key)
                let finished = clock.now
                handle { state in
                    state.fetches[fetchID] = nil
                    return state.machine.fetchCompleted(fetchID, key: key, result: result, now: finished)
                }
            }
            return action
        }
        let id: Machine.WaiterID
        let until: ContinuousClock.Instant?
        switch action {
        case .answer(let answer): return answer
        case .wait(let waiter, let deadline, _): (id, until) = (waiter, deadline)
        }
        let timer = until.map { until in
            Task { [self] in
                try? await clock.sleep(until: until)
                guard !Task.isCancelled else { return }
                handle { $0.machine.waiterTimedOut(id) }
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                if let answered = state.withLockedValue({ $0.waiters.park(id, continuation) }) {
                    continuation.resume(returning: answered)
                }
            }
        } onCancel: {
            handle { $0.machine.waiterCancelled(id) }
        }
    }

    /// The cached value of `key`, if it is younger than the lifetime.
    func cached(_ key: Key) -> Success? {
        let now = clock.now
        return state.withLockedValue { $0.machine.cachedValue(key, now: now) }
    }

    /// Waiters right now (for tests).
    var waiterCount: Int { state.withLockedValue { $0.machine.waiterCount } }

    /// Runs one event under the lock; resumes waiters and cancels fetches outside it.
    private func handle(_ event: (inout State) -> [Machine.Action]) {
        let (continuations, cancelled) = state.withLockedValue {
            state -> ([WaiterResumption<Answer>], [Task<Void, Never>]) in
            var continuations: [WaiterResumption<Answer>] = []
            var cancelled: [Task<Void, Never>] = []
            for action in event(&state) {
                switch action {
                case .resume(let id, let answer):
                    if let continuation = state.waiters.answer(id, with: answer) {
                        continuations.append(WaiterResumption(continuation: continuation, value: answer))
                    }
                case .cancelFetch(let fetch):
                    if let task = state.fetches.removeValue(forKey: fetch) { cancelled.append(task) }
                }
            }
            return (continuations, cancelled)
        }
        for task in cancelled { task.cancel() }
        for continuation in continuations { continuation.run() }
    }
}
