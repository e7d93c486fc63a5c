import CoreMetrics
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Sends analytics events to the configured collectors in batches, in the background, so that no
/// viewer's request ever waits for a collector.
///
/// ``record(_:)`` appends to a bounded queue under a lock and returns at once; when the queue
/// holds `analytics.queueCapacity` events, new ones are dropped, counted
/// (`seam_analytics_events_total{outcome="dropped"}`) and logged. ``run()`` is the worker: it sends
/// what is queued whenever a batch fills (`analytics.batchSize`) and every `analytics.flushSeconds`,
/// one batch at a time, each batch POSTed as JSON (`AnalyticsBatch`) to every collector at once
/// through ``UpstreamFetching`` (purpose `.analytics`: the upstream rules, its time-out
/// `analytics.timeoutSeconds`, answers limited to 64 KiB). A failed POST is tried again after
/// 500 ms, 1 s, ... up to `analytics.maxAttempts` in all, for that collector only.
///
/// Run it as a ServiceLifecycle `Service`, after the HTTP server: on graceful shutdown it sends
/// what is queued and returns; on cancellation it returns at once and counts the rest abandoned.
///
/// A value type over shared state: copies are the same sender.
package struct AnalyticsSender: Service, Sendable {
    private let upstream: any UpstreamFetching
    private let configuration: SeamConfiguration.Analytics
    private let privacy: AnalyticsPrivacyMode
    private let retryBackoff: Duration
    private let logger: Logger
    private let executor: (any TaskExecutor)?
    private let wake: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation
    private let state: NIOLockedValueBox<State>
    private let metrics: Metrics

    private struct State: DrainableState {
        var queue: [AnalyticsEvent] = []
        var counters = AnalyticsCounters()
        var started = false
        var stopped = false
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
        var pendingCount: Int { counters.pending }
    }

    private struct Metrics: Sendable {
        let queued: CoreMetrics.Counter
        let dropped: CoreMetrics.Counter
        let batchesSent: CoreMetrics.Counter
        let batchesFailed: CoreMetrics.Counter

        init(factory: any MetricsFactory) {
            func counter(_ name: String, _ outcome: String) -> CoreMetrics.Counter {
                CoreMetrics.Counter(label: name, dimensions: [("outcome", outcome)], factory: factory)
            }
            queued = counter(SeamMetrics.analyticsEventsName, "queued")
            dropped = counter(SeamMetrics.analyticsEventsName, "dropped")
            batchesSent = counter(SeamMetrics.analyticsBatchesName, "sent")
            batchesFailed = counter(SeamMetrics.analyticsBatchesName, "failed")
        }
    }

    /// - Parameters:
    ///   - privacy: the mode the events were treated with, named in each batch.
    ///   - metricsFactory: where the counters go (Seam: its `SeamMetrics.factory`, shown at `/metrics`).
    ///   - executor: where the worker runs (Seam: its `BackgroundExecutor`); nil: Swift's shared pool.
    package init(
        upstream: any UpstreamFetching, configuration: SeamConfiguration.Analytics, privacy: AnalyticsPrivacyMode,
        logger: Logger, metricsFactory: any MetricsFactory = MetricsSystem.factory,
        retryBackoff: Duration = .milliseconds(500), executor: (any TaskExecutor)? = nil
    ) {
        self.upstream = upstream
        self.configuration = configuration
        self.privacy = privacy
        self.retryBackoff = retryBackoff
        self.logger = logger
        self.executor = executor
        (wake, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state = NIOLockedValueBox(State())
        metrics = Metrics(factory: metricsFactory)
    }

    package var counters: AnalyticsCounters {
        state.withLockedValue { $0.counters }
    }

    /// Queues `event` and returns at once; never waits for the network.
    package func record(_ event: AnalyticsEvent) {
        let capacity = max(1, configuration.queueCapacity)
        let batchSize = max(1, configuration.batchSize)
        let (accepted, droppedTotal, full) = state.withLockedValue { state -> (Bool, Int, Bool) in
            guard !state.stopped, state.queue.count < capacity else {
                state.counters.dropped += 1
                return (false, state.counters.dropped, false)
            }
            state.queue.append(event)
            state.counters.queued += 1
            state.counters.pending += 1
            return (true, state.counters.dropped, state.queue.count >= batchSize)
        }
        if accepted {
            metrics.queued.increment()
            if full { wakeContinuation.yield() }
            return
        }
        metrics.dropped.increment()
        // One line for the first drop and every 1,000th after: a flood must not flood the log too.
        if droppedTotal == 1 || droppedTotal % 1000 == 0 {
            logger.warning(
                "analytics queue full or stopped; events dropped",
                metadata: ["droppedTotal": "\(droppedTotal)", "capacity": "\(capacity)"])
        }
    }

    /// Sends what is queued now and waits until every event recorded so far is sent or given up.
    /// Needs ``run()`` running (or ended); for tests and orderly shutdown.
    package func flush() async {
        wakeContinuation.yield()
        await state.waitUntilDrained()
    }

    /// The worker; returns on cancellation, or after graceful shutdown once the queue is sent.
    package func run() async {
        let first = state.withLockedValue { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else {
            logger.error("AnalyticsSender.run() called twice; the second call returns at once")
            return
        }
        let wakeContinuation = self.wakeContinuation
        let interval = UpstreamPolicy.duration(seconds: configuration.flushSeconds)
        await withGracefulShutdownHandler {
            await withTaskExecutorPreference(executor) {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while !Task.isCancelled {
                            do { try await Task.sleep(for: interval) } catch { return }
                            wakeContinuation.yield()
                        }
                    }
                    for await _ in wake {
                        await sendQueued()
                    }
                    group.cancelAll()
                }
                // Graceful shutdown: what was queued before the stop still goes out.
                if !Task.isCancelled { await sendQueued() }
            }
        } onGracefulShutdown: {
            wakeContinuation.finish()
        }
        wakeContinuation.finish()
        let (abandoned, waiters) = state.withLockedValue { state -> (Int, [CheckedContinuation<Void, Never>]) in
            state.stopped = true
            let count = state.queue.count
            state.queue = []
            state.counters.abandoned += count
            state.counters.pending = 0
            defer { state.drainWaiters = [] }
            return (count, state.drainWaiters)
        }
        waiters.forEach { $0.resume() }
        if abandoned > 0 {
            logger.warning("analytics sender stopped with events unsent", metadata: ["abandoned": "\(abandoned)"])
        }
    }

    // MARK: - Sending

    /// Sends the queue in batches until it is empty.
    private func sendQueued() async {
        let batchSize = max(1, configuration.batchSize)
        while !Task.isCancelled {
            let events = state.withLockedValue { state -> [AnalyticsEvent] in
                let taken = Array(state.queue.prefix(batchSize))
                state.queue.removeFirst(taken.count)
                return taken
            }
            guard !events.isEmpty else { return }
            let body = ByteBuffer(bytes: AnalyticsBatch(privacy: privacy, events: events).encoded())
            await withTaskGroup(of: Void.self) { group in
                for endpoint in configuration.endpoints {
                    group.addTask { await self.deliver(body, to: endpoint, events: events.count) }
                }
            }
            finish(events.count)
        }
    }

    /// POSTs one batch to one collector, with retries.
    private func deliver(_ body: ByteBuffer, to endpoint: String, events: Int) async {
        let maxAttempts = max(1, configuration.maxAttempts)
        var lastReason = ""
        for attempt in 1...maxAttempts {
            if attempt > 1 {
                do {
                    try await Task.sleep(for: retryBackoff * (1 << min(attempt - 2, 6)))
                } catch {
                    break
                }
            }
            state.withLockedValue { $0.counters.attempts += 1 }
            let request = UpstreamRequest(
                url: endpoint, method: "POST", headers: [(name: "Content-Type", value: "application/json")],
                purpose: .analytics, body: body)
            let outcome: BeaconAttempt
            do {
                outcome = BeaconAttempt.classify(status: try await upstream.fetch(request).status)
            } catch {
                outcome = BeaconAttempt.classify(error)
            }
            var permanent = false
            switch outcome {
            case .sent:
                state.withLockedValue { $0.counters.batchesSent += 1 }
                metrics.batchesSent.increment()
                logger.trace(
                    "analytics batch sent",
                    metadata: ["endpoint": "\(BeaconDispatcher.redacted(endpoint))", "events": "\(events)"])
                return
            case .permanent(let reason), .blocked(let reason):
                lastReason = reason
                permanent = true
            case .transient(let reason):
                lastReason = reason
            }
            if permanent { break }
        }
        state.withLockedValue { $0.counters.batchesFailed += 1 }
        metrics.batchesFailed.increment()
        logger.warning(
            "analytics batch not delivered",
            metadata: [
                "endpoint": "\(BeaconDispatcher.redacted(endpoint))", "events": "\(events)", "reason": "\(lastReason)",
            ])
    }

    /// Marks `count` events done; wakes `flush()` callers when nothing is pending.
    private func finish(_ count: Int) {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.counters.pending = max(0, state.counters.pending - count)
            guard state.counters.pending == 0 else { return [] }
            defer { state.drainWaiters = [] }
            return state.drainWaiters
        }
        waiters.forEach { $0.resume() }
    }
}
