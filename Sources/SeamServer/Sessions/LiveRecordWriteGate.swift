import NIOConcurrencyHelpers

/// One record write per live session at a time on this replica. A write before an answer and
/// one behind the answers (`LiveRecordsBehind`) can find the same session behind at once; both
/// would write on the same stored version, and the one refused could not tell this replica's
/// other write from another replica's (it would drop the session and take it up again from the
/// store, losing a decision still on its way). The second waits for the first (one store round
/// trip, within `store.postgresTimeoutSeconds`) and then finds less or nothing to write.
///
/// Only sessions being written have an entry, so idle sessions cost nothing here.
final class LiveRecordWriteGate: Sendable {
    private let writing = NIOLockedValueBox([SessionID: [CheckedContinuation<Void, Never>]]())

    /// Returns once this caller may write `id`'s record; call `leave(id)` after.
    func enter(_ id: SessionID) async {
        let entered = writing.withLockedValue { writing -> Bool in
            guard writing[id] == nil else { return false }
            writing[id] = []
            return true
        }
        if entered { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = writing.withLockedValue { writing -> Bool in
                guard writing[id] != nil else {
                    writing[id] = []
                    return true
                }
                writing[id]?.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Takes the gate of `id` if nobody holds it (call `leave(id)` after); false when a write of
    /// `id` is on its way, which stores whatever changed before it.
    func tryEnter(_ id: SessionID) -> Bool {
        writing.withLockedValue { writing -> Bool in
            guard writing[id] == nil else { return false }
            writing[id] = []
            return true
        }
    }

    /// Writers parked waiting for `id` (for tests: a second writer is known to wait, not guessed).
    func waiting(for id: SessionID) -> Int {
        writing.withLockedValue { $0[id]?.count ?? 0 }
    }

    /// The write of `id` is done: the next waiting writer goes on (the gate stays taken for it).
    func leave(_ id: SessionID) {
        let next = writing.withLockedValue { writing -> CheckedContinuation<Void, Never>? in
            guard var waiting = writing[id], !waiting.isEmpty else {
                writing[id] = nil
                return nil
            }
            let next = waiting.removeFirst()
            writing[id] = waiting
            return next
        }
        next?.resume()
    }
}
