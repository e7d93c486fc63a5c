import NIOConcurrencyHelpers

/// Live sessions whose stored record is behind by changes no answer waited for
/// (`LiveSessionMachine.changesShown`: a break's end, a decision made ahead of its break, the
/// opening of a break decided ahead), for the runtime's writer to store after the answers went.
///
/// Why not before the answer: a channel's break opens and ends for every viewer within one
/// reload interval, so on a shared store each of those reloads would wait for a record write
/// queued behind all the others (10,000 viewers: 10,000 writes in 6 s, and reloads waiting
/// seconds for them; BENCHMARKS.md, prefetch on PostgreSQL). A replica taking a session up from
/// the older record serves these changes the same way (it derives them from the origin's
/// window, or decides a prefetched break again), so they need not hold an answer.
///
/// Each session is queued once however many reloads find it behind; the writer takes them in
/// the order they came.
final class LiveRecordsBehind: Sendable {
    private struct State {
        var queued: [LiveSession] = []
        var ids: Set<SessionID> = []
        var writer: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// Sessions waiting for their record write.
    var count: Int { state.withLockedValue { $0.queued.count } }

    /// Queues `session` unless it already waits; wakes the writer.
    func add(_ session: LiveSession) {
        let writer = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard state.ids.insert(session.id).inserted else { return nil }
            state.queued.append(session)
            defer { state.writer = nil }
            return state.writer
        }
        writer?.resume()
    }

    /// Up to `limit` sessions, oldest first, waiting until there is one; empty once the task is
    /// cancelled.
    func take(_ limit: Int) async -> [LiveSession] {
        while !Task.isCancelled {
            let taken = state.withLockedValue { state -> [LiveSession] in
                let taken = Array(state.queued.prefix(limit))
                state.queued.removeFirst(taken.count)
                for session in taken { state.ids.remove(session.id) }
                if state.queued.isEmpty { state.queued = [] }
                return taken
            }
            if !taken.isEmpty { return taken }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLockedValue { state -> Bool in
                        guard state.queued.isEmpty, !Task.isCancelled else { return true }
                        state.writer = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                    defer { state.writer = nil }
                    return state.writer
                }?.resume()
            }
        }
        return []
    }
}
