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

    public init(configuration: SeamConfiguration, logger: Logger, upstream: any UpstreamFetching,
                domainMatcher: DomainMatcher, metrics: SeamMetrics,
                background: BackgroundExecutor = BackgroundExecutor(name: "seam-background",
                                                                    maxThreads: ProcessInfo.processInfo.activeProcessorCount)) {
        self.background = background
        self.configuration = configuration
        self.logger = logger
        self.upstream = upstream
        self.domainMatcher = domainMatcher
        self.metrics = metrics
    }
}
