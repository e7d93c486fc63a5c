import Logging
import Stitching

/// What live sessions share across the whole server: the origin playlist cache, the channel
/// catalog, and the break decider with its limit on concurrent ad requests.
struct LiveServices: Sendable {
    let cache: OriginPlaylistCache
    let catalog: LiveChannelCatalog
    let decider: LiveBreakDecider

    init(configuration: SeamConfiguration, upstream: any UpstreamFetching, ads: any AdDecisionProviding,
         creatives: CreativeLoader, logger: Logger) {
        let live = configuration.live
        // A busy channel (reloads every cache period or more often) is answered from its last
        // window while it refreshes, so the origin's latency is paid by one request, not by every
        // viewer; a quiet one (a window older than two periods) waits for the fresh window.
        cache = OriginPlaylistCache(upstream: upstream, freshFor: .milliseconds(Int64(live.originCacheSeconds * 1000)),
                                    serveWhileRefreshing: .milliseconds(Int64(live.originCacheSeconds * 2000)),
                                    maxStale: .milliseconds(Int64(live.maxStaleSeconds * 1000)))
        catalog = LiveChannelCatalog()
        decider = LiveBreakDecider(configuration: configuration, ads: ads, creatives: creatives,
                                   limiter: AdRequestLimiter(maxConcurrent: live.adRequestConcurrency), logger: logger)
    }
}
