import Foundation
import Stitching

/// Builds the session machinery once, at startup, from the shared services: the origin client,
/// the creative loader, the ad planner, and the VOD and live session factories behind the
/// starter. Every part is handed what it uses here, so no request builds machinery and no part
/// reaches into another.
struct SessionComposition: Sendable {
    let origin: OriginClient
    let creatives: CreativeLoader
    let planner: AdPlanner
    let live: LiveSessionFactory
    let starter: SessionStarter
    /// Each session's story, for the debug route (`debug.token`) and the sampled log.
    let story: SessionStoryRecorder
    /// Breaks announced on live channels (the break API).
    let announcements = BreakAnnouncements()

    init(services: SeamServices, ads: any AdDecisionProviding, story: SessionStoryRecorder) {
        self.story = story
        let configuration = services.configuration
        origin = OriginClient(upstream: services.upstream)
        creatives = CreativeLoader(
            upstream: services.upstream,
            fetchTimeout: UpstreamPolicy.duration(seconds: configuration.upstream.adMediaTimeoutSeconds))
        // Ad budgets are real time: the upstream client enforces them against the continuous
        // clock. `services.clock` (which tests may move) times everything else.
        let realTime: @Sendable () -> ContinuousClock.Instant = { .now }
        var planner = AdPlanner(
            configuration: configuration.ads, ads: ads, creatives: creatives, now: realTime, tracer: services.tracer)
        if story.isOn { planner.story = story }
        planner.deliveryMetrics = AdDeliveryMetrics(factory: services.metrics.factory)
        let conditioning = configuration.conditioning
        if !conditioning.directory.isEmpty {
            let settings = CreativeConditioner.Settings(
                directory: conditioning.directory, maxBytes: conditioning.maxBytes,
                concurrency: conditioning.concurrency,
                queueLimit: conditioning.queueLimit, niceness: conditioning.niceness,
                idlePriority: conditioning.idlePriority,
                threads: conditioning.threads > 0
                    ? conditioning.threads : max(1, ProcessInfo.processInfo.activeProcessorCount / 2),
                jobTimeoutSeconds: conditioning.jobTimeoutSeconds,
                maxInputSeconds: conditioning.maxInputSeconds, maxInputBytes: conditioning.maxInputBytes,
                retryAfterSeconds: conditioning.retryAfterSeconds)
            // Probes are short and on a session start's path: nice, but not the idle policy; a
            // probe's download and its ffprobe run each get 30 s (less when jobs get less).
            let probeSeconds = min(30, conditioning.jobTimeoutSeconds)
            let process = ConditioningProcess(
                niceness: conditioning.niceness, idlePriority: false,
                timeoutSeconds: probeSeconds,
                memoryLimitBytes: settings.memoryLimitBytes, cpuLimitSeconds: 0)
            planner.conditioning = AdConditioning(
                conditioner: CreativeConditioner(
                    settings: settings, upstream: services.upstream, logger: services.logger,
                    metricsFactory: services.metrics.factory),
                prober: ContentProber(
                    upstream: services.upstream, process: process, workDirectory: conditioning.directory,
                    timeLimit: .milliseconds(Int64(probeSeconds * 1000))),
                logger: services.logger,
                publicBaseURL: conditioning.publicBaseURL.hasSuffix("/")
                    ? String(conditioning.publicBaseURL.dropLast()) : conditioning.publicBaseURL)
        }
        self.planner = planner
        let liveServices = LiveServices(
            configuration: configuration, upstream: services.upstream, planner: planner,
            logger: services.logger, background: services.background, clock: services.clock,
            announcements: announcements)
        live = LiveSessionFactory(
            services: liveServices, creatives: creatives, configuration: configuration, logger: services.logger)
        let vod = VODSessionFactory(
            planner: planner,
            adBudget: .milliseconds(Int64(configuration.ads.totalBudgetSeconds * 1000)),
            defaultTrackingMode: configuration.ads.trackingMode, gzip: configuration.server.gzip,
            logger: services.logger, now: realTime, date: { [clock = services.clock] in clock.date },
            removeOriginCues: configuration.sessions.removeOriginCues)
        starter = SessionStarter(
            content: ContentLoader(origin: origin, limits: SessionCostLimits(configuration.sessions)),
            vod: vod, live: live, sessionIDs: services.sessionIDs, now: realTime,
            defaultMode: SessionMode(rawValue: configuration.sessions.defaultMode) ?? .stitched,
            // Checked when the configuration loads.
            modeRules: configuration.sessions.modeRules.compactMap { try? SessionModeRule(parsing: $0) },
            tracer: services.tracer)
    }
}
