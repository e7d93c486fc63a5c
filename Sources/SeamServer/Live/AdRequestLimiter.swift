import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore

/// Bounds the ADS requests in flight across all sessions, so a break that starts for 10,000 viewers
/// at once does not flood the ad server. Waiters are served first come, first served; a waiter
/// still waiting at its deadline gives up (`nil`: the caller plays content, `ADS_TIMEOUT`).
///
/// A permit is handed straight from a finishing body to the first waiter, so newcomers cannot
/// overtake the queue. Cancelled waiters leave the queue; permits are always given back.
public final class AdRequestLimiter: Sendable {
    public let maxConcurrent: Int

    private typealias Waiter = CheckedContinuation<Bool, Never>

    private struct State {
        var inFlight = 0
        /// Waiters by id; giving up removes only from here (O(1)), so 10,000 waiters can time out at once.
        var waiters: [UInt64: Waiter] = [:]
        /// Arrival order; ids of waiters that gave up are skipped when they reach the front.
        var order = CircularBuffer<UInt64>()
        var nextID: UInt64 = 0

        var waiting: Int { waiters.count }

        mutating func popFirst() -> Waiter? {
            while let id = order.popFirst() {
                if let waiter = waiters.removeValue(forKey: id) { return waiter }
            }
            return nil
        }

        mutating func remove(_ id: UInt64) -> Waiter? {
            let waiter = waiters.removeValue(forKey: id)
            if waiters.isEmpty { order.removeAll(keepingCapacity: true) }
            return waiter
        }
    }

    private let state = NIOLockedValueBox(State())
    private let waitingGauge: Gauge

    /// - Parameter metricsFactory: where `seam_ads_requests_waiting` goes; the process-wide `MetricsSystem` by default.
    public init(maxConcurrent: Int, metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.maxConcurrent = max(1, maxConcurrent)
        waitingGauge = Gauge(label: SeamMetrics.adsRequestsWaitingName, factory: metricsFactory)
        waitingGauge.record(0)
    }

    /// Bodies running now.
    public var inFlight: Int { state.withLockedValue { $0.inFlight } }

    /// Callers waiting for a permit now.
    public var waiting: Int { state.withLockedValue { $0.waiting } }

    /// Runs `body` once a permit is free and returns its result; returns nil without running it when
    /// the deadline passes first (or has passed already) or the calling task is cancelled.
    public func withPermit<T: Sendable>(deadline: ContinuousClock.Instant, _ body: @Sendable () async -> T) async -> T? {
        guard await acquire(deadline: deadline) else { return nil }
        defer { release() }
        return await body()
    }

    // MARK: - Permits

    private func acquire(deadline: ContinuousClock.Instant) async -> Bool {
        enum Immediate { case granted, refused, mustWait(UInt64) }
        let immediate = state.withLockedValue { state -> Immediate in
            guard !Task.isCancelled, ContinuousClock.now < deadline else { return .refused }
            if state.inFlight < maxConcurrent, state.waiting == 0 {
                state.inFlight += 1
                return .granted
            }
            defer { state.nextID &+= 1 }
            return .mustWait(state.nextID)
        }
        switch immediate {
        case .granted: return true
        case .refused: return false
        case .mustWait(let id):
            let granted = await withTaskGroup(of: Void.self) { group in
                // Gives up at the deadline; cancelled as soon as the wait ends either way.
                group.addTask {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    if !Task.isCancelled { self.giveUp(id) }
                }
                let granted = await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: Waiter) in enqueue(id, continuation, deadline: deadline) }
                } onCancel: {
                    giveUp(id)
                }
                group.cancelAll()
                return granted
            }
            // Granted just as the caller was cancelled: the ADS answer would go nowhere.
            if granted, Task.isCancelled {
                release()
                return false
            }
            return granted
        }
    }

    private func enqueue(_ id: UInt64, _ continuation: Waiter, deadline: ContinuousClock.Instant) {
        enum Outcome { case granted, refused, queued }
        let outcome = state.withLockedValue { state -> Outcome in
            // The deadline timer or the cancellation handler may have fired before the waiter was
            // queued, when there was nothing to remove; both conditions are still visible here.
            guard !Task.isCancelled, ContinuousClock.now < deadline else { return .refused }
            if state.inFlight < maxConcurrent, state.waiting == 0 {
                state.inFlight += 1
                return .granted
            }
            state.waiters[id] = continuation
            state.order.append(id)
            waitingGauge.record(state.waiting)
            return .queued
        }
        switch outcome {
        case .granted: continuation.resume(returning: true)
        case .refused: continuation.resume(returning: false)
        case .queued: break
        }
    }

    /// A waiter's deadline passed or its task was cancelled: it leaves the queue, if still in it.
    private func giveUp(_ id: UInt64) {
        let waiter = state.withLockedValue { state -> Waiter? in
            let removed = state.remove(id)
            if removed != nil { waitingGauge.record(state.waiting) }
            return removed
        }
        waiter?.resume(returning: false)
    }

    /// Hands the permit to the first waiter, or returns it to the pool.
    private func release() {
        let next = state.withLockedValue { state -> Waiter? in
            if let first = state.popFirst() {
                waitingGauge.record(state.waiting)
                return first  // the permit moves over: inFlight is unchanged
            }
            state.inFlight -= 1
            return nil
        }
        next?.resume(returning: true)
    }
}
