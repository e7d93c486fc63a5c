import Logging
import Stitching

/// What live sessions share across the whole server: the origin playlist cache, the channel
/// catalog, and the break decider with its limit on concurrent ad requests.
struct LiveServices: Sendable {
    let cache: OriginPlaylistCache
    let catalog: LiveChannelCatalog
    let decider: LiveBreakDecider
    /// Reads conditioned creatives back from disk when a session is taken up (nil: conditioning off).
    let conditioning: AdConditioning?
    /// Breaks announced on channels at run time (the break API).
    let announcements: BreakAnnouncements

    /// - Parameter clock: the clock of the live machinery (freshness, `live.maxStaleSeconds`, decision deadlines).
    init(
        configuration: SeamConfiguration, upstream: any UpstreamFetching, planner: AdPlanner, logger: Logger,
        background: BackgroundExecutor, clock: SeamClock = .continuous,
        announcements: BreakAnnouncements = BreakAnnouncements()
    ) {
        self.announcements = announcements
        let live = configuration.live
        // The one clock of the live machinery: freshness, channel lifetime, decision deadlines.
        // A busy channel is answered from its last window while it refreshes (up to 6 s old, or
        // less if maxStale says so), so the origin's latency, and any slowness while thousands of
        // ad decisions run, is paid by one request per refresh, not by every viewer. A quiet
        // channel waits for the fresh window.
        cache = OriginPlaylistCache(
            upstream: upstream, freshFor: .milliseconds(Int64(live.originCacheSeconds * 1000)),
            serveWhileRefreshing: .milliseconds(Int64(max(live.originCacheSeconds * 2, 6) * 1000)),
            maxStale: .milliseconds(Int64(live.maxStaleSeconds * 1000)),
            maxSegments: configuration.sessions.maxSegmentsPerPlaylist,
            maxRenditions: configuration.sessions.maxRenditions,
            maxContentBytes: configuration.sessions.maxContentBytes, clock: clock)
        catalog = LiveChannelCatalog(clock: clock)
        conditioning = planner.conditioning
        decider = LiveBreakDecider(
            planner: planner, announcements: announcements,
            queue: BreakDecisionQueue(maxConcurrent: live.adRequestConcurrency, executor: background, clock: clock),
            logger: logger, personalizationThreshold: configuration.ads.personalizationThreshold)
    }
}
