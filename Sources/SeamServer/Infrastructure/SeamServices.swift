import Foundation
import Logging

/// What `runSeam` builds once and hands to the route providers: configuration, the logger, the
/// upstream client every fetch must go through, the domain matcher and the metrics registry.
public struct SeamServices: Sendable {
    public let configuration: SeamConfiguration
    public let logger: Logger
    /// The SSRF-safe client (`SafeUpstreamClient`) in production.
    public let upstream: any UpstreamFetching
    public let domainMatcher: DomainMatcher
    public let metrics: SeamMetrics
    /// Low-priority threads for ad decisions and beacons, off the threads that answer players.
    public let background: BackgroundExecutor
    /// Signs and recognises session ids, so ids issued before a restart answer 410, not 404.
    public let sessionIDs: SessionIDKey
    /// The clock live origin windows are timed with; tests move it instead of sleeping.
    public let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter sessionIDs: the deployment's key (`SessionIDSecret.resolve`, as `runSeam` does).
    ///   Default: from `sessions.idSecret` when set, else random for this process.
    public init(configuration: SeamConfiguration, logger: Logger, upstream: any UpstreamFetching,
                domainMatcher: DomainMatcher, metrics: SeamMetrics,
                background: BackgroundExecutor = BackgroundExecutor(name: "seam-background",
                                                                    maxThreads: ProcessInfo.processInfo.activeProcessorCount),
                sessionIDs: SessionIDKey? = nil,
                now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.background = background
        self.sessionIDs = sessionIDs ?? (configuration.sessions.idSecret.isEmpty
            ? .random() : SessionIDKey(secret: configuration.sessions.idSecret))
        self.now = now
        self.configuration = configuration
        self.logger = logger
        self.upstream = upstream
        self.domainMatcher = domainMatcher
        self.metrics = metrics
    }
}
