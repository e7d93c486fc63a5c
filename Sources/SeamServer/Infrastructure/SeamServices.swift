import Foundation
import Logging

/// What `runSeam` builds once and hands to the route providers: configuration, the logger, the
/// upstream client every fetch must go through, the domain matcher and the metrics registry.
package struct SeamServices: Sendable {
    package let configuration: SeamConfiguration
    package let logger: Logger
    /// The SSRF-safe client (`SafeUpstreamClient`) in production.
    package let upstream: any UpstreamFetching
    package let domainMatcher: DomainMatcher
    package let metrics: SeamMetrics
    /// Low-priority threads for ad decisions and beacons, off the threads that answer players.
    package let background: BackgroundExecutor
    /// Signs and recognises session ids, so ids issued before a restart answer 410, not 404.
    package let sessionIDs: SessionIDKey
    /// The one clock: live origin windows, decision budgets, coalescers and session lifetimes
    /// are timed with it; tests move it instead of sleeping. (Ad request budgets are the
    /// exception: the upstream client enforces them in real time, see `SessionComposition`.)
    package let clock: SeamClock
    /// The spans Seam records (`tracing.*`); `.off` unless `tracing.otlpEndpoint` is set. When
    /// on, `upstream` is wrapped in a `TracingUpstream`.
    package let tracer: SeamTracer
    /// The replicas sharing this one's PostgreSQL store (`ReplicaCensus`): the caps meant for the
    /// whole deployment are divided among them. One alone without a store.
    package let replicas = ReplicaCensus()
    /// Whose forwarded headers name the viewer (`server.trustedProxies`).
    let trustedProxies: TrustedProxies
    /// `clock.now`, for the parts that only read the instant.
    package var now: @Sendable () -> ContinuousClock.Instant { { [clock] in clock.now } }

    /// - Parameter sessionIDs: the deployment's key (`SessionIDSecret.resolve`, as `runSeam` does).
    ///   Default: from `sessions.idSecret` when set, else random for this process.
    package init(
        configuration: SeamConfiguration, logger: Logger, upstream: any UpstreamFetching,
        domainMatcher: DomainMatcher, metrics: SeamMetrics,
        background: BackgroundExecutor = BackgroundExecutor(
            name: "seam-background",
            maxThreads: ProcessInfo.processInfo.activeProcessorCount),
        sessionIDs: SessionIDKey? = nil,
        now: (@Sendable () -> ContinuousClock.Instant)? = nil, clock: SeamClock? = nil,
        tracer: SeamTracer = .off
    ) {
        self.background = background
        self.sessionIDs =
            sessionIDs
            ?? (configuration.sessions.idSecret.isEmpty
                ? .random() : SessionIDKey(secret: configuration.sessions.idSecret))
        self.clock = clock ?? now.map { SeamClock(now: $0) } ?? .continuous
        self.configuration = configuration
        self.logger = logger
        self.tracer = tracer
        // Every fetch, by whichever part, is then one client span: origin, ads, creatives, beacons.
        self.upstream = tracer.isOn ? TracingUpstream(upstream, tracer: tracer) : upstream
        self.domainMatcher = domainMatcher
        self.metrics = metrics
        trustedProxies = TrustedProxies(configuration.server.trustedProxies)
    }
}
