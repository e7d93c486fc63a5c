/// The continuations of a state machine's waiters, by waiter id, kept by the machine's owner
/// under the same lock as the machine.
///
/// A machine registers a waiter in one critical section and its owner parks the continuation
/// in a later one (the continuation exists only inside `withCheckedContinuation`); an answer
/// that arrives in between is kept here and handed to the continuation when it parks, so no
/// answer is lost and no continuation waits for one that already came.
struct WaiterTable<ID: Hashable & Sendable, Value: Sendable>: Sendable {
    private enum Slot: Sendable {
        case parked(CheckedContinuation<Value, Never>)
        case answered(Value)
    }

    private var slots: [ID: Slot] = [:]

    init() {}

    /// Parks `continuation` for `id`; returns the answer instead when it came first (resume
    /// with it outside the lock).
    mutating func park(_ id: ID, _ continuation: CheckedContinuation<Value, Never>) -> Value? {
        if case .answered(let value)? = slots.removeValue(forKey: id) {
            if slots.isEmpty { slots = [:] }
            return value
        }
        slots[id] = .parked(continuation)
        return nil
    }

    /// Answers `id`: returns the parked continuation to resume outside the lock, or keeps the
    /// answer for when it parks. Call once per waiter the machine registered.
    mutating func answer(_ id: ID, with value: Value) -> CheckedContinuation<Value, Never>? {
        if case .parked(let continuation)? = slots.removeValue(forKey: id) {
            // An emptied dictionary keeps its storage; thousands of sessions should not.
            if slots.isEmpty { slots = [:] }
            return continuation
        }
        slots[id] = .answered(value)
        return nil
    }

    /// Waiters parked or answered and not yet collected (for tests).
    var count: Int { slots.count }
}

/// A continuation and what to resume it with, collected under a lock and run outside it.
struct WaiterResumption<Value: Sendable>: Sendable {
    var continuation: CheckedContinuation<Value, Never>
    var value: Value

    func run() { continuation.resume(returning: value) }
}
