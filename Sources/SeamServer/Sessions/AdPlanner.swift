import HLS
import Stitching
import VAST

/// Decides what plays in a session's breaks: asks the ad tag (VAST or VMAP), caps each pod, fetches
/// the creatives and keeps those that can play, recording why each left-out ad or empty break
/// plays no ads. VOD sessions plan all their breaks at start; a live session asks for one cue at
/// a time (`LiveBreakDecider`). Never fails: trouble is a skip reason. The answer is in the engine's
/// terms (`PlannedAd`, `BreakPlan`): VAST stops here.
struct AdPlanner: Sendable {
    var configuration: SeamConfiguration.Ads
    let ads: any AdDecisionProviding
    let creatives: CreativeLoader
    /// The clock deadlines are measured against.
    let now: @Sendable () -> ContinuousClock.Instant
    /// Records each decision as an `ad.decision` span (`AdPlanner+Tracing.swift`).
    var tracer: SeamTracer = .off
    /// Conditions MP4-only creatives (`conditioning.directory`); nil: off.
    var conditioning: AdConditioning?
    /// Where each session's decisions are told (`debug.*`); nil: off.
    var story: SessionStoryRecorder?
    /// Counts bumpers left out (`seam_bumpers_missed_total`); nil: not counted.
    var deliveryMetrics: AdDeliveryMetrics?

    /// The bumpers configured (`ads.bumpers.*`) for sessions of `format`.
    func bumperSource(_ format: StreamFormat = .hls) -> BumperSource {
        BumperSource(configuration.bumpers, format: format)
    }

    /// The ad request values of a session (`contentDuration` nil for live streams).
    static func context(
        _ inputs: SessionInputs, id: SessionID, contentDuration: Double?, position: BreakPosition, index: Int
    ) -> AdRequestContext {
        var context = AdRequestContext(
            sessionID: id.value, contentURL: inputs.request.url, breakPosition: position, breakIndex: index)
        context.contentID = inputs.request.contentId
        context.contentDurationSeconds = inputs.request.durationMs.map { Double($0) / 1000 } ?? contentDuration
        context.deviceIP = inputs.deviceIP
        context.userAgent = inputs.userAgent
        context.adParameters = inputs.request.adParams ?? [:]
        context.customParameters = inputs.request.customParams ?? [:]
        context.adTagHeaders = inputs.request.adTagHeaders ?? [:]
        context.gdpr = inputs.request.consent?.gdpr
        context.gdprConsent = inputs.request.consent?.gdprConsent
        context.allowStorage = inputs.request.consent?.allowStorage
        context.palNonce = inputs.request.palNonce
        return context
    }

    var podLimits: PodLimits { PodLimits(maxAds: configuration.maxAdsPerPod, maxSeconds: configuration.maxPodSeconds) }

    // MARK: VOD

    /// One break as the ad server decided it, before creatives are fetched.
    struct Decided: Sendable {
        var position: BreakPosition
        var plannedSeconds: Double?
        var ads: [PlannedAd] = []
        var skippedAds: [BreakPlan.SkippedAd] = []
        var skipReason: AvailSkipReason?
        var detail: String?
        var breakStartURLs: [String] = []
        var breakEndURLs: [String] = []
        /// The ads to condition: their MP4 URL (`creativeURL`) → the creative's identity.
        var progressive: [String: String] = [:]

        init(
            position: BreakPosition, plannedSeconds: Double? = nil, decision: AdBreakDecision,
            breakStartURLs: [String] = [], breakEndURLs: [String] = []
        ) {
            self.position = position
            self.plannedSeconds = plannedSeconds
            ads = decision.ads.map(\.planned)
            for ad in decision.ads {
                if let identity = ad.progressive { progressive[ad.hlsURL] = identity }
            }
            skippedAds = decision.skippedAds
            skipReason = decision.skipReason
            detail = decision.detail
            self.breakStartURLs = breakStartURLs
            self.breakEndURLs = breakEndURLs
        }

        /// The break as planned once its ads' creatives are in (`outcome`): the ads that play,
        /// each naming the creative it plays, the others with why, and the one skip rule.
        func planned(_ outcome: BreakOutcome<AdCreative>) -> BreakPlan.Break {
            BreakPlan.Break(
                position: position, plannedSeconds: plannedSeconds,
                ads: outcome.usable.map { ad, creative in
                    var played = ad
                    played.creativeURL = creative.url
                    return BreakPlan.Ad(ad: played, creative: creative)
                },
                skippedAds: skippedAds + outcome.skipped.map { $0.skip.skipped($0.adID) },
                skipReason: AvailSkipReason.forBreak(
                    decided: ads.count, adServerReason: skipReason, usable: outcome.usable.count,
                    played: outcome.usable.count, skipped: outcome.skipped.map(\.skip)),
                skipDetail: detail, breakStartURLs: breakStartURLs, breakEndURLs: breakEndURLs)
        }
    }

    /// Every break of a VOD title, with its creatives, all by `deadline` (the end of the ad
    /// budget: decisions and creatives share it). `planVOD` runs it inside its span.
    func plan(
        _ inputs: SessionInputs, id: SessionID, content: ContentSet, deadline: ContinuousClock.Instant
    ) async -> BreakPlan {
        let trace = story?.newTrace()
        let decided = capPods(await decideBreaks(inputs, id: id, content: content, deadline: deadline, trace: trace))
        let plan = BreakPlan(
            breaks: await loadCreatives(decided, content: content, baseURL: inputs.baseURL, deadline: deadline))
        if let story, let trace {
            let now = story.now
            story.record(
                id,
                SessionStoryEntries.decisions(trace, at: now)
                    + SessionStoryEntries.plan(plan, content: content, at: now))
        }
        return plan
    }

    /// - Parameter trace: where the decisions' steps are recorded (a session's story); nil: not traced.
    func decideBreaks(
        _ inputs: SessionInputs, id: SessionID, content: ContentSet, deadline: ContinuousClock.Instant,
        trace: AdDecisionTrace? = nil
    ) async -> [Decided] {
        await decideBreaks(
            inputs, id: id, duration: content.reference.duration,
            markerBreaks: Array(VODMarkers.breaks(in: content.reference).prefix(VODMarkers.maxBreaks)),
            deadline: deadline, trace: trace)
    }

    /// Every break of a VOD title of `duration` seconds: at its markers (`markerBreaks`), else at
    /// the VMAP's breaks or the configured cue points.
    /// - Parameter format: which VAST media files can play in the session (`AdCreativeSelector`).
    func decideBreaks(
        _ inputs: SessionInputs, id: SessionID, duration: Double, markerBreaks: [VODMarkers.Marker],
        format: StreamFormat = .hls, deadline: ContinuousClock.Instant, trace: AdDecisionTrace? = nil
    ) async -> [Decided] {
        let template = configuration.adTagURL
        guard !template.isEmpty else { return [] }
        let markers = markerBreaks.map(\.position)
        let cuePoints = configuration.cuePoints.map(BreakPosition.init(cuePoint:))
        let firstPosition = markers.first ?? cuePoints.first ?? .preroll
        let ads = self.ads
        func context(_ position: BreakPosition, _ index: Int) -> AdRequestContext {
            var context = Self.context(inputs, id: id, contentDuration: duration, position: position, index: index)
            context.trace = trace
            context.streamFormat = format
            return context
        }
        let first = await ads.requestAdTag(context: context(firstPosition, 0), template: template, deadline: deadline)
        switch first {
        case .failed(let reason, let detail):
            let positions = markers.isEmpty ? cuePoints : markers
            return positions.map {
                Decided(position: $0, decision: AdBreakDecision(ads: [], skipReason: reason, detail: detail))
            }
        case .vmap(let vmap, let url):
            return await withTaskGroup(of: (Int, Decided?).self) { group in
                for (index, adBreak) in vmap.adBreaks.prefix(VODMarkers.maxBreaks).enumerated() {
                    guard adBreak.breakTypes.isEmpty || adBreak.isLinear else { continue }
                    let position: BreakPosition
                    switch adBreak.timeOffset {
                    case .start: position = .preroll
                    case .end: position = .postroll
                    default:
                        guard let seconds = adBreak.timeOffset.seconds(contentDuration: duration) else { continue }
                        position =
                            seconds <= 0 ? .preroll : (seconds >= duration ? .postroll : .midroll(seconds: seconds))
                    }
                    let context = context(position, index)
                    let starts = adBreak.trackingEvents.filter { $0.event == .breakStart }.map(\.url)
                    let ends = adBreak.trackingEvents.filter { $0.event == .breakEnd }.map(\.url)
                    group.addTask {
                        let decision = await ads.decideBreak(
                            adBreak, vmapURL: url, context: context, deadline: deadline)
                        return (
                            index,
                            Decided(position: position, decision: decision, breakStartURLs: starts, breakEndURLs: ends)
                        )
                    }
                }
                var planned: [(Int, Decided)] = []
                for await (index, item) in group { if let item { planned.append((index, item)) } }
                return planned.sorted { $0.0 < $1.0 }.map(\.1)
            }
        case .vast(let document, let url):
            let positions = markers.isEmpty ? cuePoints : markers
            return await withTaskGroup(of: (Int, Decided).self) { group in
                for (index, position) in positions.enumerated() {
                    let context = context(position, index)
                    let seconds = markers.isEmpty ? nil : markerBreaks[index].seconds
                    group.addTask {
                        // The first cue point uses the answer in hand; each further one asks the ad
                        // server again with its own [BREAKPOSITION].
                        let answer =
                            index == 0
                            ? AdTagAnswer.vast(document, url: url)
                            : await ads.requestAdTag(context: context, template: template, deadline: deadline)
                        let decision: AdBreakDecision
                        switch answer {
                        case .vast(let vast, let vastURL):
                            let decided = await ads.decide(
                                vast, documentURL: vastURL, context: context, deadline: deadline)
                            return (index, Decided(position: position, plannedSeconds: seconds, decision: decided))
                        case .vmap:
                            decision = AdBreakDecision(
                                ads: [], skipReason: .invalidVAST, detail: "the ad tag switched from VAST to VMAP")
                        case .failed(let reason, let detail):
                            decision = AdBreakDecision(ads: [], skipReason: reason, detail: detail)
                        }
                        return (index, Decided(position: position, decision: decision))
                    }
                }
                var planned: [(Int, Decided)] = []
                for await item in group { planned.append(item) }
                return planned.sorted { $0.0 < $1.0 }.map(\.1)
            }
        }
    }

    /// Applies `ads.maxAdsPerPod` and the pod's length cap (`ads.maxPodSeconds`, the break's own
    /// duration) to every decided break, before any creative is fetched.
    func capPods(_ breaks: [Decided]) -> [Decided] {
        let limits = podLimits
        return breaks.map { planned in
            var planned = planned
            let (kept, skipped) = limits.apply(to: planned.ads, breakSeconds: planned.plannedSeconds)
            planned.ads = kept
            planned.skippedAds += skipped.map { BreakPlan.SkippedAd(adID: $0.adID, reason: $0.reason, code: .podLimit) }
            return planned
        }
    }

    /// Fetches the decided ads' creatives, all breaks together, a few at a time
    /// (`CreativeLoader.concurrencyPerPod`), all by `deadline`, and resolves each break
    /// (`BreakOutcome`): ads whose creative cannot be used, or did not arrive in time, are skipped
    /// with the reason; a break left with none gets the one skip-reason rule's reason.
    func loadCreatives(
        _ breaks: [Decided], content: ContentSet, baseURL: String,
        deadline: ContinuousClock.Instant
    ) async -> [BreakPlan.Break] {
        var progressive = breaks.reduce(into: [String: String]()) { $0.merge($1.progressive) { first, _ in first } }
        // Bumpers load with the ads, in the same budget, only when some break has ads to frame.
        let bumpers = bumperSource()
        let wantsBumpers = !bumpers.isEmpty && breaks.contains { !$0.ads.isEmpty }
        if wantsBumpers { progressive.merge(bumpers.progressive) { first, _ in first } }
        let available = await availability(
            of: breaks.flatMap(\.ads) + (wantsBumpers ? bumpers.loads : []), progressive: progressive,
            content: content, baseURL: baseURL, deadline: deadline)
        let fits: (AdCreative) -> Bool = { CreativeFit.incompatibility(of: $0, with: content) == nil }
        return breaks.map { decided in
            let outcome = BreakOutcome.resolve(decided.ads, availability: { available[$0.creativeURL] ?? .late }) {
                creative in
                CreativeFit.incompatibility(of: creative, with: content).map { .failure(.unusable($0)) }
                    ?? .success(creative)
            }
            var planned = decided.planned(outcome)
            if planned.isFilled {
                for (position, url) in bumpers.wanted(at: decided.position) {
                    switch BumperSource.resolve(available[url], fits: fits) {
                    case .success(let creative):
                        planned.bumpers.append(Bumper(position: position, creative: creative, configuredURL: url))
                    case .failure(let miss):
                        deliveryMetrics?.bumperMissed(kind: "vod", position: position, reason: miss)
                    }
                }
            }
            return planned
        }
    }

    /// Where each of `ads`' creatives stands by `deadline`, by creative URL: ads whose only
    /// creative is an MP4 (`progressive`: its URL → the creative's identity) are conditioned for
    /// `content`'s ladder (`AdConditioning`: from the disk cache, or a job that ends in time, else
    /// still conditioning), their creatives served under `baseURL`; the others are fetched
    /// concurrently. VOD asks for all its breaks at once, live for one cue.
    func availability(
        of ads: [PlannedAd], progressive: [String: String], content: ContentSet, baseURL: String,
        deadline: ContinuousClock.Instant, format: StreamFormat = .hls
    ) async -> [String: CreativeAvailability] {
        let wanted = progressive.filter { url, _ in ads.contains { $0.creativeURL == url } }
        var streamed: [String] = []
        for ad in ads where progressive[ad.creativeURL] == nil && !streamed.contains(ad.creativeURL) {
            streamed.append(ad.creativeURL)
        }
        async let conditionedCreatives =
            conditioning?.creatives(for: wanted, content: content, baseURL: baseURL, deadline: deadline) ?? [:]
        // A DASH channel's ads are their MPDs; MP4-only ones conditioned, then read as one.
        let fetched =
            format == .dash
            ? await creatives.loadAllDASH(streamed, deadline: deadline)
            : await creatives.loadAll(streamed, deadline: deadline)
        var available: [String: CreativeAvailability] = [:]
        for (url, result) in zip(streamed, fetched) {
            switch result {
            case .success(let creative)?: available[url] = .loaded(creative)
            case .failure(let error)?: available[url] = .failed(error.description)
            case nil: available[url] = .late
            }
        }
        for (url, outcome) in await conditionedCreatives {
            switch outcome {
            case .conditioned(let creative) where format == .dash:
                switch DASHConditioning.creativeMPD(creative) {
                case .success(let mpd): available[url] = .loaded(AdCreative(url: creative.url, dash: mpd))
                case .failure(let skip): available[url] = .failed(skip.reason)
                }
            case .conditioned(let creative): available[url] = .loaded(creative)
            case .inProgress: available[url] = .conditioning
            case .failed(let reason):
                available[url] = .failed("the MP4 creative \(url) could not be conditioned: \(reason)")
            }
        }
        return available
    }
}
