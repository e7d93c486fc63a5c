import NIOConcurrencyHelpers
import NIOCore

/// At most `limit` requests in flight to one host of one upstream pool; the rest wait, first come
/// first served, each until its own deadline.
///
/// AsyncHTTPClient would queue them too, but inside its pool, where the wait counts against the
/// request's deadline and cannot be seen: an origin answering in 0.5 s looked like a time-out to
/// the 17th concurrent session start. Waiting here instead lets `SafeUpstreamClient` start the
/// upstream's time-out only once a connection is free, and measure the wait on its own. The
/// client's pool has the same per-host size, so a request let through never queues in it.
///
/// Keys are what AsyncHTTPClient pools by (scheme, the address or name connected to, port).
final class UpstreamConnectionGate: Sendable {
    let limit: Int

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Bool, Never>
        /// Ends the wait at its deadline; cancelled when a slot comes first.
        var timer: Scheduled<Void>
    }

    private struct Host {
        var inFlight = 0
        var waiters = CircularBuffer<Waiter>()
    }

    private struct State {
        var hosts: [String: Host] = [:]
        var nextID: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a slot for `key`, waiting until `deadline` at most. True when taken (call
    /// `release(_:)` once done); false when the deadline passed or the task was cancelled first.
    /// `loop` runs the wait's timer.
    func acquire(_ key: String, until deadline: NIODeadline, timerLoop loop: any EventLoop) async -> Bool {
        let (taken, id) = state.withLockedValue { state -> (Bool, UInt64) in
            if state.hosts[key, default: Host()].inFlight < limit {
                state.hosts[key, default: Host()].inFlight += 1
                return (true, 0)
            }
            state.nextID &+= 1
            return (false, state.nextID)
        }
        if taken { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let decided = state.withLockedValue { state -> Bool? in
                    guard !Task.isCancelled else { return false }
                    // A slot may have come free since the first look.
                    if state.hosts[key, default: Host()].inFlight < limit {
                        state.hosts[key, default: Host()].inFlight += 1
                        return true
                    }
                    // Scheduling under the lock is safe: the timer never runs synchronously.
                    let timer = loop.scheduleTask(deadline: deadline) { [self] () -> Void in
                        if let waiter = self.withdraw(id, key: key) { waiter.continuation.resume(returning: false) }
                    }
                    state.hosts[key, default: Host()].waiters.append(
                        Waiter(id: id, continuation: continuation, timer: timer))
                    return nil
                }
                if let decided { continuation.resume(returning: decided) }
            }
        } onCancel: {
            if let waiter = self.withdraw(id, key: key) {
                waiter.timer.cancel()
                waiter.continuation.resume(returning: false)
            }
        }
    }

    /// Gives the slot back: the longest waiter for `key` gets it, else it is free.
    func release(_ key: String) {
        let next = state.withLockedValue { state -> Waiter? in
            guard var host = state.hosts[key] else { return nil }
            if let waiter = host.waiters.popFirst() {
                // The slot passes straight to the waiter: in-flight stays the same.
                state.hosts[key] = host
                return waiter
            }
            host.inFlight -= 1
            state.hosts[key] = host.inFlight > 0 ? host : nil
            return nil
        }
        if let next {
            next.timer.cancel()
            next.continuation.resume(returning: true)
        }
    }

    /// Requests in flight and waiting for `key` now.
    func usage(_ key: String) -> (inFlight: Int, waiting: Int) {
        state.withLockedValue { state in
            let host = state.hosts[key]
            return (host?.inFlight ?? 0, host?.waiters.count ?? 0)
        }
    }

    /// Removes waiter `id` (timed out or cancelled); nil when it was already served.
    private func withdraw(_ id: UInt64, key: String) -> Waiter? {
        state.withLockedValue { state -> Waiter? in
            guard var host = state.hosts[key], let index = host.waiters.firstIndex(where: { $0.id == id }) else {
                return nil
            }
            let waiter = host.waiters.remove(at: index)
            state.hosts[key] = host.inFlight > 0 || !host.waiters.isEmpty ? host : nil
            return waiter
        }
    }
}
