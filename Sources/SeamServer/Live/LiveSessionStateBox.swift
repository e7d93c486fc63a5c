import Synchronization

/// A live session's state behind its lock, in one allocation. `Mutex` is a word on Linux where
/// NIO's lock box carries a `pthread_mutex_t` (40 bytes), and every viewer of a live channel holds
/// one of these (BENCHMARKS.md, live session heap).
final class LiveSessionStateBox<State: Sendable>: Sendable {
    private let mutex: Mutex<State>

    init(_ state: sending State) {
        mutex = Mutex(state)
    }

    /// Runs `body` with the state, under the lock; as `NIOLockedValueBox.withLockedValue`.
    func withLockedValue<Result: Sendable>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try mutex.withLock { state in try body(&state) }
    }
}
