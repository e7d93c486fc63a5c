import CoreMetrics

import NIOConcurrencyHelpers
import Prometheus

/// Seam's metrics: one Prometheus registry, exposed at `GET /metrics`, fed through swift-metrics.
///
/// The request metrics are created against this instance's factory explicitly rather than through
/// the global `MetricsSystem`, so each application (and each test) has its own registry and nothing
/// depends on bootstrap order. `bootstrapMetricsSystem()` additionally points the process-wide
/// `MetricsSystem` at the same registry, so metrics other code records with plain
/// `Counter(label:)` appear on the same page; call it once, from the serve command.
package final class SeamMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    package let factory: SeamMetricsFactory

    struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    struct RequestMetrics {
        let counter: CoreMetrics.Counter
        let timer: CoreMetrics.Timer
    }

    private let requestMetrics = NIOLockedValueBox<[RequestKey: RequestMetrics]>([:])

    package static let requestCounterName = "seam_http_requests_total"
    package static let requestDurationName = "seam_http_request_duration_seconds"
    package static let answeredEarlyName = "seam_http_playlists_answered_early_total"
    /// Upstream requests for origin media playlists made by `OriginPlaylistCache` (one per URL per refresh).
    package static let originPlaylistFetchesName = "seam_origin_playlist_fetches_total"
    /// Origin media playlists answered from `OriginPlaylistCache` without a fetch.
    package static let originPlaylistCacheHitsName = "seam_origin_playlist_cache_hits_total"
    /// Last good origin windows served because the origin failed.
    package static let originPlaylistStaleServedName = "seam_origin_playlist_stale_served_total"
    /// Live break decisions (ADS requests) waiting in `BreakDecisionQueue` for a free slot.
    package static let adsRequestsWaitingName = "seam_ads_requests_waiting"
    /// Upstream requests' wait for one of Seam's own connections to the host (histogram, label
    /// `purpose`: origin, adDecision, adMedia, beacon). Not part of the upstream's time-out.
    package static let upstreamConnectionWaitName = "seam_upstream_connection_wait_seconds"
    /// Upstream answer time once a connection was free, per redirect hop (histogram, label `purpose`).
    package static let upstreamResponseName = "seam_upstream_response_seconds"
    /// Upstream requests never sent because every connection to the host stayed busy (label `purpose`).
    package static let upstreamNoConnectionName = "seam_upstream_no_connection_total"
    /// Heap bytes in use (allocated, not freed), read at each scrape; see `HeapUsage`.
    package static let heapInUseName = "seam_heap_in_use_bytes"
    /// Client connections open right now (see `ConnectionRegistry`).
    package static let connectionsOpenName = "seam_http_connections_open"
    /// Client connections Seam closed itself, by `reason`: `header_timeout`, `idle_timeout`, `evicted`, `refused`.
    package static let connectionsClosedName = "seam_http_connections_closed_total"
    /// Analytics events by `outcome`: `queued`, or `dropped` (the queue was full; see `AnalyticsSender`).
    package static let analyticsEventsName = "seam_analytics_events_total"
    /// Analytics batches per collector by `outcome`: `sent`, or `failed` (every attempt failed).
    package static let analyticsBatchesName = "seam_analytics_batches_total"
    /// User and system CPU time of the whole process (getrusage), read at each scrape.
    package static let processCPUName = "process_cpu_seconds_total"
    /// Always 1, labelled with the release (`SeamRelease.version`).
    package static let buildInfoName = "seam_build_info"

    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        factory = SeamMetricsFactory(
            registry: registry,
            durationBuckets: [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                .seconds(1), .seconds(2), .seconds(5), .seconds(10),
            ],
            valueBuckets: [0, 1, 2, 3, 4, 5, 10, 25, 100, 1000])
        registry.makeGauge(
            descriptor: factory.descriptor(Self.buildInfoName), labels: [("version", SeamRelease.version)]
        )
        .set(to: 1.0)
    }

    /// Records one answered request. `route` is the route pattern (`/v1/sessions/{id}/master.m3u8`),
    /// never the concrete path, so the number of series stays bounded.
    package func recordRequest(route: String, method: String, status: Int, nanoseconds: Int64) {
        let metrics = requestRecorder(route: route, method: method, status: status)
        metrics.counter.increment()
        metrics.timer.recordNanoseconds(nanoseconds)
    }

    /// The series of one route, method and status, to record into without looking them up on
    /// each request (`CachedPlaylistHandler`).
    func requestRecorder(route: String, method: String, status: Int) -> RequestMetrics {
        let key = RequestKey(route: route, method: method, status: status)
        return requestMetrics.withLockedValue { cache in
            if let existing = cache[key] { return existing }
            let dimensions = [("route", route), ("method", method), ("status", String(status))]
            let created = RequestMetrics(
                counter: CoreMetrics.Counter(label: Self.requestCounterName, dimensions: dimensions, factory: factory),
                timer: CoreMetrics.Timer(label: Self.requestDurationName, dimensions: dimensions, factory: factory)
            )
            cache[key] = created
            return created
        }
    }

    /// What reads a gauge at each scrape (the sessions held), registered by its owner.
    private let scrapeHooks = NIOLockedValueBox<[@Sendable () -> Void]>([])

    /// Runs `hook` before each exposition, to set gauges read from state rather than events.
    package func onScrape(_ hook: @escaping @Sendable () -> Void) {
        scrapeHooks.withLockedValue { $0.append(hook) }
    }

    /// The Prometheus text exposition of everything in the registry.
    package func exposition() -> [UInt8] {
        for hook in scrapeHooks.withLockedValue({ $0 }) { hook() }
        if let bytes = HeapUsage.bytesInUse() {
            registry.makeGauge(descriptor: factory.descriptor(Self.heapInUseName)).set(Int64(bytes))
        }
        recordProcessCPU()
        return registry.emitToBuffer()
    }

    /// CPU seconds already added to `process_cpu_seconds_total`: the counter grows by what
    /// getrusage says was used since, so it stays a counter and equals the process's CPU time.
    private let reportedCPUSeconds = NIOLockedValueBox(0.0)

    private func recordProcessCPU() {
        let counter = registry.makeCounter(descriptor: factory.descriptor(Self.processCPUName))
        reportedCPUSeconds.withLockedValue { reported in
            let used = ProcessCPUTime.seconds()
            guard used > reported else { return }
            counter.increment(by: used - reported)
            reported = used
        }
    }

    private static let bootstrapped = NIOLockedValueBox(false)

    /// Points the process-wide `MetricsSystem` at this registry. Only the first call in a process
    /// does anything (swift-metrics allows one bootstrap per process); returns whether it did.
    @discardableResult
    package func bootstrapMetricsSystem() -> Bool {
        Self.bootstrapped.withLockedValue { done in
            guard !done else { return false }
            MetricsSystem.bootstrap(factory)
            done = true
            return true
        }
    }
}
