import CoreMetrics
import Foundation
import Instrumentation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import VAST

/// Sends tracking beacons and VAST error URLs in the background, so that no playlist or segment
/// response ever waits for an ad server's tracking endpoint.
///
/// ``fire(_:context:macros:)`` only enqueues (a lock and an `AsyncStream` yield per URL) and
/// returns at once; it can be called from any thread, async or not. ``run()`` is the worker loop:
/// it takes URLs off a bounded queue and sends each with a GET through ``UpstreamFetching``
/// (purpose `.beacon`, time-out `beacons.timeoutSeconds`), at most `beacons.concurrency` at a time.
/// A failed request is tried again after 200 ms, then 400 ms, ... up to `beacons.maxAttempts`
/// attempts in all; then it is logged and counted as failed. When the queue is full, new URLs are
/// dropped, counted and logged (a slow tracking endpoint must not grow memory without bound).
///
/// **Starting and stopping.** Make one dispatcher for the process and run it as a service:
/// ```swift
/// let beacons = BeaconDispatcher(upstream: client, configuration: config.beacons, logger: logger)
/// let group = ServiceGroup(services: [server, beacons], ...)   // or: group.addTask { await beacons.run() }
/// ```
/// It is a ServiceLifecycle `Service`. On graceful shutdown it stops taking new URLs, sends what
/// is queued, and `run()` returns; list it after the HTTP server so that the server stops first.
/// On cancellation `run()` returns at once and queued URLs are counted as abandoned. `run()` may
/// be called once per dispatcher; URLs fired before it starts wait in the queue.
///
/// A value type over shared state: copies are the same dispatcher.
package struct BeaconDispatcher: Service, Sendable {
    /// Default queue bound: URLs waiting to be sent beyond those in flight.
    package static let defaultQueueCapacity = 10_000

    private let upstream: any UpstreamFetching
    private let configuration: SeamConfiguration.Beacons
    private let retryBackoff: Duration
    private let logger: Logger
    private let executor: (any TaskExecutor)?
    private let metricsFactory: any MetricsFactory
    private let stream: AsyncStream<BeaconJob>
    private let continuation: AsyncStream<BeaconJob>.Continuation
    private let state: NIOLockedValueBox<State>

    private struct State: DrainableState {
        var counters = BeaconCounters()
        var started = false
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
        var pendingCount: Int { counters.pending }
    }

    /// - Parameters:
    ///   - queueCapacity: most URLs waiting to be sent (not counting those in flight).
    ///   - retryBackoff: wait before the second attempt; doubled for each further one.
    ///   - executor: where the workers run (Seam: its `BackgroundExecutor`, so a burst of
    ///     impressions at a break start does not delay playlist answers); nil: Swift's shared pool.
    package init(
        upstream: any UpstreamFetching, configuration: SeamConfiguration.Beacons, logger: Logger,
        queueCapacity: Int = BeaconDispatcher.defaultQueueCapacity, retryBackoff: Duration = .milliseconds(200),
        executor: (any TaskExecutor)? = nil, metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.executor = executor
        self.metricsFactory = metricsFactory
        self.upstream = upstream
        self.configuration = configuration
        self.retryBackoff = retryBackoff
        self.logger = logger
        (stream, continuation) = AsyncStream.makeStream(
            of: BeaconJob.self, bufferingPolicy: .bufferingOldest(max(1, queueCapacity)))
        state = NIOLockedValueBox(State())
    }

    /// What the dispatcher has done so far.
    package var counters: BeaconCounters {
        state.withLockedValue { $0.counters }
    }

    /// Queues `urls` for sending and returns at once; never waits for the network.
    ///
    /// - Parameters:
    ///   - context: what the beacons are for, in log lines (e.g. `"impression ad1, session abc"`).
    ///   - macros: values for IAB macros in the URLs (`[ERRORCODE]`, `[DEVICEIP]`, ...).
    ///     `[TIMESTAMP]` defaults to now (the moment of the event) and `[CACHEBUSTING]` to a fresh
    ///     random number per URL.
    ///   - event: the event the URLs report (`impression`, ..., `error`): the label of
    ///     `seam_beacons_total`, so it must be one of a few names, never free text.
    ///   - viewer: the device the beacons report for, sent as VAST's server-side request headers.
    ///   - report: told how each URL ended, on a worker (it must return at once); nil: no one asks.
    package func fire(
        _ urls: [String], event: String, viewer: BeaconViewer, context: String, macros: VASTMacros = VASTMacros(),
        report: BeaconReport? = nil
    ) {
        var macros = macros
        if macros.timestamp == nil && macros.custom["TIMESTAMP"] == nil { macros.timestamp = Date() }
        var droppedHere = 0
        var droppedTotal = 0
        let trace = InstrumentationContext.current
        for url in urls where !url.isEmpty {
            // Counted before the yield, so a worker that finishes it at once cannot count it done first.
            state.withLockedValue {
                $0.counters.accepted += 1
                $0.counters.pending += 1
            }
            switch continuation.yield(
                BeaconJob(
                    url: url, macros: macros, event: event, viewer: viewer, context: context, trace: trace,
                    report: report))
            {
            case .enqueued:
                continue
            case .dropped, .terminated:
                droppedHere += 1
                count(event, "dropped")
                report?(
                    BeaconAnswer(
                        url: url, outcome: .dropped, status: nil, attempts: 0,
                        reason: "the beacon queue is full (beacons.concurrency, beacons.timeoutSeconds)"))
                droppedTotal =
                    finishOne {
                        $0.accepted -= 1
                        $0.dropped += 1
                    }.dropped
            @unknown default:
                continue
            }
        }
        // One line for the first drop and every 1,000th after: a flood must not flood the log too.
        if droppedHere > 0, droppedTotal == droppedHere || droppedTotal / 1000 != (droppedTotal - droppedHere) / 1000 {
            logger.warning(
                "beacon queue full or stopped; beacons dropped",
                metadata: ["context": "\(context)", "dropped": "\(droppedHere)", "droppedTotal": "\(droppedTotal)"])
        }
    }

    /// The worker loop; returns on cancellation, or after graceful shutdown once the queue is sent.
    package func run() async {
        let first = state.withLockedValue { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else {
            logger.error("BeaconDispatcher.run() called twice; the second call returns at once")
            return
        }
        let continuation = self.continuation
        await withGracefulShutdownHandler {
            await withTaskExecutorPreference(executor) { await workerLoop() }
        } onGracefulShutdown: {
            continuation.finish()
        }
        continuation.finish()
        // Cancelled: the stream threw away what it still held.
        let abandoned = state.withLockedValue { state -> (Int, [CheckedContinuation<Void, Never>]) in
            let count = state.counters.pending
            state.counters.abandoned += count
            state.counters.pending = 0
            defer { state.drainWaiters = [] }
            return (count, state.drainWaiters)
        }
        abandoned.1.forEach { $0.resume() }
        if abandoned.0 > 0 {
            logger.warning("beacon dispatcher stopped with beacons unsent", metadata: ["abandoned": "\(abandoned.0)"])
        }
    }

    /// Waits until every URL fired so far is sent, failed or dropped. Needs ``run()`` running
    /// (or ended); for tests and orderly shutdown.
    package func drain() async {
        await state.waitUntilDrained()
    }

    // MARK: - Workers

    private func workerLoop() async {
        let concurrency = max(1, configuration.concurrency)
        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for await job in stream {
                if inFlight >= concurrency {
                    await group.next()
                    inFlight -= 1
                }
                group.addTask {
                    guard let trace = job.trace else { return await self.deliver(job) }
                    await InstrumentationContext.$current.withValue(trace) { await self.deliver(job) }
                }
                inFlight += 1
            }
            await group.waitForAll()
        }
    }

    /// Sends one beacon, with retries.
    private func deliver(_ job: BeaconJob) async {
        let url = job.expandedURL()
        let maxAttempts = max(1, configuration.maxAttempts)
        let timeout = AdTimeBudget.duration(seconds: configuration.timeoutSeconds)
        var lastReason = ""
        var lastStatus: Int?
        for attempt in 1...maxAttempts {
            if attempt > 1 {
                let backoff = retryBackoff * (1 << min(attempt - 2, 6))
                do {
                    try await Task.sleep(for: backoff)
                } catch {
                    job.reportAnswer(url, .dropped, attempts: attempt - 1, reason: "Seam stopped before it was sent")
                    finishOne { $0.abandoned += 1 }
                    return
                }
            }
            if Task.isCancelled {
                job.reportAnswer(url, .dropped, attempts: attempt - 1, reason: "Seam stopped before it was sent")
                finishOne { $0.abandoned += 1 }
                return
            }
            state.withLockedValue {
                $0.counters.attempts += 1
                if attempt > 1 { $0.counters.retried += 1 }
            }
            let (attemptOutcome, status) = await send(url, headers: job.viewer.headers, timeout: timeout)
            switch attemptOutcome {
            case .sent:
                // Counted (and reported) before it is marked done, so whoever waits for the drain sees it.
                count(job.event, "sent")
                job.reportAnswer(url, .sent, status: status, attempts: attempt)
                finishOne { $0.sent += 1 }
                logger.trace(
                    "beacon sent", metadata: ["context": "\(job.context)", "url": "\(BeaconDispatcher.redacted(url))"])
                return
            case .blocked(let reason):
                count(job.event, "blocked")
                job.reportAnswer(
                    url, .blocked, attempts: attempt,
                    reason: "not in upstream.allowedHosts: add the tracker's host to send its beacons")
                let blocked = finishOne {
                    $0.failed += 1
                    $0.blocked += 1
                }.blocked
                // The first and every 1,000th: a list that blocks a tracker blocks each of its
                // beacons, and the metric counts them all.
                guard blocked == 1 || blocked % 1000 == 0 else { return }
                logger.warning(
                    "beacon blocked by upstream.allowedHosts; add the tracker's host to send its beacons",
                    metadata: [
                        "context": "\(job.context)", "url": "\(BeaconDispatcher.redacted(url))",
                        "reason": "\(reason)", "blockedTotal": "\(blocked)",
                    ])
                return
            case .permanent(let reason):
                count(job.event, "failed")
                job.reportAnswer(
                    url, .failed, status: status, attempts: attempt, reason: SafeUpstreamClient.redacted(reason))
                finishOne { $0.failed += 1 }
                logger.warning(
                    "beacon failed",
                    metadata: [
                        "context": "\(job.context)", "url": "\(BeaconDispatcher.redacted(url))",
                        "reason": "\(reason)", "attempts": "\(attempt)",
                    ])
                return
            case .transient(let reason):
                lastReason = reason
                lastStatus = status
            }
        }
        count(job.event, "failed")
        job.reportAnswer(
            url, .failed, status: lastStatus, attempts: maxAttempts, reason: SafeUpstreamClient.redacted(lastReason))
        finishOne { $0.failed += 1 }
        logger.warning(
            "beacon given up",
            metadata: [
                "context": "\(job.context)", "url": "\(BeaconDispatcher.redacted(url))",
                "reason": "\(lastReason)", "attempts": "\(maxAttempts)",
            ])
    }

    /// One URL's outcome in `seam_beacons_total`.
    private func count(_ event: String, _ outcome: String) {
        Counter(label: Self.beaconsName, dimensions: [("event", event), ("outcome", outcome)], factory: metricsFactory)
            .increment()
    }

    package static let beaconsName = "seam_beacons_total"

    /// One request: how it ended, and the tracker's status when it answered.
    private func send(
        _ url: String, headers: [(name: String, value: String)], timeout: Duration
    ) async -> (BeaconAttempt, status: Int?) {
        do {
            let response = try await upstream.fetch(
                UpstreamRequest(url: url, headers: headers, purpose: .beacon, timeout: timeout))
            return (BeaconAttempt.classify(status: response.status), response.status)
        } catch {
            if case .status(_, let code) = error { return (BeaconAttempt.classify(error), code) }
            return (BeaconAttempt.classify(error), nil)
        }
    }

    /// Marks one accepted URL done, updating counters with `update`; wakes `drain()` callers when
    /// nothing is pending. Returns the counters after the update.
    @discardableResult
    private func finishOne(_ update: (inout BeaconCounters) -> Void) -> BeaconCounters {
        let (counters, waiters) = state.withLockedValue {
            state -> (BeaconCounters, [CheckedContinuation<Void, Never>]) in
            update(&state.counters)
            state.counters.pending -= 1
            guard state.counters.pending <= 0 else { return (state.counters, []) }
            state.counters.pending = 0
            defer { state.drainWaiters = [] }
            return (state.counters, state.drainWaiters)
        }
        waiters.forEach { $0.resume() }
        return counters
    }

    /// A URL without its query, for logs: queries carry device IPs, user agents and consent strings.
    static func redacted(_ url: String) -> Substring {
        url.prefix { $0 != "?" }
    }
}
