import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore

/// Runs live break decisions, at most `maxConcurrent` at once across all sessions, in the order
/// the sessions saw their cues: a break that starts for 10,000 viewers must neither flood the ad
/// server nor take the cores from the viewers' playlist reloads.
///
/// A waiting decision is one small record in a FIFO, not a task: no timer, no stack. Workers are
/// tasks on the `BackgroundExecutor`, started when work arrives and ended when the queue is
/// empty. A decision whose deadline passed while it waited is not run: it is `expired()` instead
/// (the caller plays content, `ADS_TIMEOUT`).
///
/// Callers on the serving path only `submit` (a short critical section), so they never wait
/// behind a low-priority worker.
package final class BreakDecisionQueue: Sendable {
    package let maxConcurrent: Int
    let executor: BackgroundExecutor
    /// The clock deadlines are read on; the live sessions deciding through this queue time
    /// their waits with it too.
    let clock: SeamClock

    /// One decision to make.
    struct Job: Sendable {
        var deadline: ContinuousClock.Instant
        var run: @Sendable () async -> Void
        var expired: @Sendable () -> Void
    }

    private struct State {
        var pending = CircularBuffer<Job>()
        var workers = 0
    }

    private let state = NIOLockedValueBox(State())
    private let waitingGauge: Gauge

    /// - Parameters:
    ///   - clock: the one clock of the live machinery (`LiveServices`).
    ///   - metricsFactory: where `seam_ads_requests_waiting` goes; the process-wide `MetricsSystem` by default.
    package init(
        maxConcurrent: Int, executor: BackgroundExecutor, clock: SeamClock = .continuous,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.maxConcurrent = max(1, maxConcurrent)
        self.executor = executor
        self.clock = clock
        waitingGauge = Gauge(label: SeamMetrics.adsRequestsWaitingName, factory: metricsFactory)
        waitingGauge.record(0)
    }

    /// Decisions running now (a worker between two jobs counts as running).
    package var running: Int { state.withLockedValue { $0.workers } }

    /// Decisions waiting for a free slot now.
    package var waiting: Int { state.withLockedValue { $0.pending.count } }

    /// Queues a decision. `run` is called on the background executor when a slot is free and the
    /// deadline has not passed; otherwise `expired` is called instead. Exactly one of them is called.
    func submit(
        deadline: ContinuousClock.Instant, run: @escaping @Sendable () async -> Void,
        expired: @escaping @Sendable () -> Void
    ) {
        let job = Job(deadline: deadline, run: run, expired: expired)
        // The gauge is set under the lock, so its values are in the queue's order.
        let startWorker = state.withLockedValue { state -> Bool in
            state.pending.append(job)
            guard state.workers < maxConcurrent else {
                waitingGauge.record(state.pending.count)
                return false
            }
            state.workers += 1
            waitingGauge.record(state.pending.count - 1)  // the new worker takes this one
            return true
        }
        if startWorker {
            Task(executorPreference: executor, priority: .low) { await self.work() }
        }
    }

    /// One worker: runs queued jobs until there are none.
    private func work() async {
        while let job = next() {
            if clock.now >= job.deadline {
                job.expired()
            } else {
                await job.run()
            }
        }
    }

    private func next() -> Job? {
        state.withLockedValue { state -> Job? in
            guard let job = state.pending.popFirst() else {
                state.workers -= 1
                // An emptied buffer keeps its storage; after a burst of thousands it should not.
                if state.pending.capacity > 64 { state.pending = CircularBuffer() }
                return nil
            }
            waitingGauge.record(state.pending.count)
            return job
        }
    }
}
