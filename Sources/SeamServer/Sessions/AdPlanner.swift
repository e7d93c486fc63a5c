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

    /// The ad request values of a session (`contentDuration` nil for live streams).
    static func context(_ inputs: SessionInputs, id: SessionID, contentDuration: Double?, position: BreakPosition, index: Int) -> AdRequestContext {
        var context = AdRequestContext(sessionID: id.value, contentURL: inputs.request.url, breakPosition: position, breakIndex: index)
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

        init(position: BreakPosition, plannedSeconds: Double? = nil, decision: AdBreakDecision,
             breakStartURLs: [String] = [], breakEndURLs: [String] = []) {
            self.position = position
            self.plannedSeconds = plannedSeconds
            ads = decision.ads.map(\.planned)
            for ad in decision.ads {
                if let identity = ad.progressive { progressive[ad.hlsURL] = identity }
            }
            skippedAds = decision.skippedAds.map { BreakPlan.SkippedAd(adID: $0.adID, reason: $0.reason) }
            skipReason = decision.skipReason
            detail = decision.detail
            self.breakStartURLs = breakStartURLs
            self.breakEndURLs = breakEndURLs
        }
    }

    /// Every break of a VOD title, with its creatives, all by `deadline` (the end of the ad
    /// budget: decisions and creatives share it). `planVOD` runs it inside its span.
    func plan(_ inputs: SessionInputs, id: SessionID, content: ContentSet, deadline: ContinuousClock.Instant) async -> BreakPlan {
        let decided = capPods(await decideBreaks(inputs, id: id, content: content, deadline: deadline))
        return BreakPlan(breaks: await loadCreatives(decided, content: content, baseURL: inputs.baseURL, deadline: deadline))
    }

    func decideBreaks(_ inputs: SessionInputs, id: SessionID, content: ContentSet, deadline: ContinuousClock.Instant) async -> [Decided] {
        let template = configuration.adTagURL
        guard !template.isEmpty else { return [] }
        let duration = content.reference.duration
        let markerBreaks = Array(VODMarkers.breaks(in: content.reference).prefix(VODMarkers.maxBreaks))
        let markers = markerBreaks.map(\.position)
        let cuePoints = configuration.cuePoints.map(BreakPosition.init(cuePoint:))
        let firstPosition = markers.first ?? cuePoints.first ?? .preroll
        let ads = self.ads
        func context(_ position: BreakPosition, _ index: Int) -> AdRequestContext {
            Self.context(inputs, id: id, contentDuration: duration, position: position, index: index)
        }
        let first = await ads.requestAdTag(context: context(firstPosition, 0), template: template, deadline: deadline)
        switch first {
        case .failed(let reason, let detail):
            let positions = markers.isEmpty ? cuePoints : markers
            return positions.map { Decided(position: $0, decision: AdBreakDecision(ads: [], skipReason: reason, detail: detail)) }
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
                        position = seconds <= 0 ? .preroll : (seconds >= duration ? .postroll : .midroll(seconds: seconds))
                    }
                    let context = context(position, index)
                    let starts = adBreak.trackingEvents.filter { $0.event == .breakStart }.map(\.url)
                    let ends = adBreak.trackingEvents.filter { $0.event == .breakEnd }.map(\.url)
                    group.addTask {
                        let decision = await ads.decideBreak(adBreak, vmapURL: url, context: context, deadline: deadline)
                        return (index, Decided(position: position, decision: decision, breakStartURLs: starts, breakEndURLs: ends))
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
                        if index == 0 {
                            return (index, Decided(position: position, plannedSeconds: seconds,
                                                   decision: await ads.decide(document, documentURL: url, context: context, deadline: deadline)))
                        }
                        // Each further cue point asks the ad server again with its own [BREAKPOSITION].
                        switch await ads.requestAdTag(context: context, template: template, deadline: deadline) {
                        case .vast(let more, let moreURL):
                            return (index, Decided(position: position, plannedSeconds: seconds,
                                                   decision: await ads.decide(more, documentURL: moreURL, context: context, deadline: deadline)))
                        case .vmap:
                            return (index, Decided(position: position, decision: AdBreakDecision(ads: [], skipReason: .invalidVAST, detail: "the ad tag switched from VAST to VMAP")))
                        case .failed(let reason, let detail):
                            return (index, Decided(position: position, decision: AdBreakDecision(ads: [], skipReason: reason, detail: detail)))
                        }
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
            planned.skippedAds += skipped.map { BreakPlan.SkippedAd(adID: $0.adID, reason: $0.reason) }
            return planned
        }
    }

    /// Fetches the decided ads' creatives, all breaks together, a few at a time
    /// (`CreativeLoader.concurrencyPerPod`), all by `deadline`. Ads whose creative cannot be used,
    /// or did not arrive in time, are skipped with the reason; a break left with none gets a skip reason.
    ///
    /// Ads whose only creative is an MP4 (`Decided.progressive`) are conditioned for this title's
    /// ladder instead (`AdConditioning`), within the same deadline: from the disk cache, or from a
    /// job that ends in time; otherwise skipped, `TRANSCODE_IN_PROGRESS` when the job goes on.
    func loadCreatives(_ breaks: [Decided], content: ContentSet, baseURL: String,
                       deadline: ContinuousClock.Instant) async -> [BreakPlan.Break] {
        let progressive = breaks.reduce(into: [String: String]()) { $0.merge($1.progressive) { first, _ in first } }
        let streamed = breaks.flatMap { $0.ads.map(\.creativeURL) }.filter { progressive[$0] == nil }
        async let conditionedCreatives = conditioning?.creatives(for: progressive, content: content, baseURL: baseURL, deadline: deadline) ?? [:]
        let fetched = await creatives.loadAll(streamed, deadline: deadline)
        let conditioned = await conditionedCreatives
        var loadedByURL: [String: Result<AdCreative, CreativeLoader.CreativeError>] = [:]
        for (url, result) in zip(streamed, fetched) { if let result { loadedByURL[url] = result } }
        return breaks.map { decided in
            var planned = BreakPlan.Break(position: decided.position, plannedSeconds: decided.plannedSeconds,
                                          skippedAds: decided.skippedAds, skipReason: decided.skipReason, skipDetail: decided.detail,
                                          breakStartURLs: decided.breakStartURLs, breakEndURLs: decided.breakEndURLs)
            var waitingForConditioning = false
            for ad in decided.ads {
                let result: Result<AdCreative, CreativeLoader.CreativeError>?
                if progressive[ad.creativeURL] != nil {
                    switch conditioned[ad.creativeURL] {
                    case .conditioned(let creative)?: result = .success(creative)
                    case .inProgress?:
                        result = .failure(.init(description: "\(AvailSkipReason.transcodeInProgress.rawValue): the MP4 creative \(ad.creativeURL) is being conditioned for this title; later sessions get it"))
                        waitingForConditioning = true
                    case .failed(let reason)?: result = .failure(.init(description: "the MP4 creative \(ad.creativeURL) could not be conditioned: \(reason)"))
                    case nil: result = nil
                    }
                } else {
                    result = loadedByURL[ad.creativeURL]
                }
                let outcome = Self.outcome(ad, result) { creative -> CreativeOutcome<AdCreative> in
                    CreativeFit.incompatibility(of: creative, with: content).map { .skipped($0) } ?? .usable(creative)
                }
                switch outcome {
                case .usable(let creative):
                    var played = ad
                    played.creativeURL = creative.url
                    planned.ads.append(BreakPlan.Ad(ad: played, creative: creative))
                case .skipped(let reason): planned.skippedAds.append(BreakPlan.SkippedAd(adID: ad.id, reason: reason))
                }
            }
            if planned.ads.isEmpty && planned.skipReason == nil {
                planned.skipReason = decided.ads.isEmpty ? .noFill : waitingForConditioning ? .transcodeInProgress : .noVariantMatch
            }
            return planned
        }
    }

    /// What became of one decided ad's creative.
    enum CreativeOutcome<Fitted: Sendable>: Sendable {
        case usable(Fitted)
        /// Why the ad does not play.
        case skipped(String)
    }

    /// A loaded creative the ad can play with (as `fit` shapes it), or why the ad is skipped.
    static func outcome<Fitted>(_ ad: PlannedAd, _ loaded: Result<AdCreative, CreativeLoader.CreativeError>?,
                                fit: (AdCreative) -> CreativeOutcome<Fitted>) -> CreativeOutcome<Fitted> {
        switch loaded {
        case .success(let creative)?:
            return fit(creative)
        case .failure(let error)?:
            return .skipped(error.description)
        case nil:
            return .skipped("creative \(ad.creativeURL) not loaded within the ad budget (ads.totalBudgetSeconds)")
        }
    }

    // MARK: Live

    /// What the ad server and the creatives gave for one live cue.
    enum LiveAnswer: Sendable {
        /// Nothing to play, and why.
        case unfilled(AvailSkipReason, detail: String?)
        /// The ads after the pod caps (`decided`), those whose creative plays in every rendition
        /// (`usable`, in pod order), and those left out.
        /// `conditioning`: an MP4-only ad was left out because its conditioning goes on (the break
        /// is `TRANSCODE_IN_PROGRESS` when nothing else plays).
        case decided(decided: [PlannedAd], usable: [(ad: PlannedAd, url: String, playlists: [RenditionKey: MediaPlaylist])],
                     skipped: [(adID: String, reason: String)], detail: String?, breakStartURLs: [String], breakEndURLs: [String],
                     conditioning: Bool)
    }

    /// Asks for one live break of `breakSeconds`, and fits each creative with `fit` (the channel's).
    /// MP4-only ads are conditioned for `content` (the channel's ladder) as for VOD, their
    /// creatives served under `baseURL`.
    func decideLive(context: AdRequestContext, breakSeconds: Double, deadline: ContinuousClock.Instant,
                    content: ContentSet, baseURL: String,
                    fit: @Sendable (AdCreative) -> CreativeFit.Verdict) async -> LiveAnswer {
        let template = configuration.adTagURL
        guard !template.isEmpty else { return .unfilled(.noFill, detail: "no ad tag is configured (ads.adTagURL)") }
        let answer = await ads.requestAdTag(context: context, template: template, deadline: deadline)
        var decision: AdBreakDecision
        var breakStarts: [String] = []
        var breakEnds: [String] = []
        switch answer {
        case .failed(let reason, let detail):
            return .unfilled(reason, detail: detail)
        case .vast(let document, let url):
            decision = await ads.decide(document, documentURL: url, context: context, deadline: deadline)
        case .vmap(let vmap, let url):
            // Live has no pre- or post-roll: the first mid-roll break (else the first linear one) fills the cue.
            let linear = vmap.adBreaks.filter { $0.breakTypes.isEmpty || $0.isLinear }
            let chosen = linear.first { if case .start = $0.timeOffset { return false }; if case .end = $0.timeOffset { return false }; return true } ?? linear.first
            guard let chosen else { return .unfilled(.noFill, detail: "the VMAP has no linear break") }
            breakStarts = chosen.trackingEvents.filter { $0.event == .breakStart }.map(\.url)
            breakEnds = chosen.trackingEvents.filter { $0.event == .breakEnd }.map(\.url)
            decision = await ads.decideBreak(chosen, vmapURL: url, context: context, deadline: deadline)
        }
        if let reason = decision.skipReason, decision.ads.isEmpty {
            return .unfilled(reason, detail: decision.detail)
        }
        // At most ads.maxAdsPerPod, and no longer than the break (or ads.maxPodSeconds), before any fetch.
        let (capped, overCap) = podLimits.apply(to: decision.ads.map(\.planned), breakSeconds: breakSeconds)
        var skipped = decision.skippedAds + overCap
        // MP4-only ads: conditioned for the channel's ladder within the same budget (docs/conditioning.md).
        var progressive: [String: String] = [:]
        for ad in decision.ads { if let identity = ad.progressive { progressive[ad.hlsURL] = identity } }
        let wanted = progressive.filter { url, _ in capped.contains { $0.creativeURL == url } }
        let streamed = capped.filter { progressive[$0.creativeURL] == nil }
        async let conditionedCreatives = conditioning?.creatives(for: wanted, content: content, baseURL: baseURL, deadline: deadline) ?? [:]
        let fetched = await creatives.loadAll(streamed.map(\.creativeURL), deadline: deadline)
        let conditioned = await conditionedCreatives
        var loadedByURL: [String: Result<AdCreative, CreativeLoader.CreativeError>] = [:]
        for (ad, result) in zip(streamed, fetched) { if let result { loadedByURL[ad.creativeURL] = result } }
        var waitingForConditioning = false
        for ad in capped where progressive[ad.creativeURL] != nil {
            switch conditioned[ad.creativeURL] {
            case .conditioned(let creative)?: loadedByURL[ad.creativeURL] = .success(creative)
            case .inProgress?:
                loadedByURL[ad.creativeURL] = .failure(.init(description: "\(AvailSkipReason.transcodeInProgress.rawValue): the MP4 creative \(ad.creativeURL) is being conditioned for this channel; later breaks get it"))
                waitingForConditioning = true
            case .failed(let reason)?: loadedByURL[ad.creativeURL] = .failure(.init(description: "the MP4 creative \(ad.creativeURL) could not be conditioned: \(reason)"))
            case nil: break
            }
        }

        // Creatives that can play in every rendition of this channel, fetched concurrently within the same budget.
        var usable: [(ad: PlannedAd, url: String, playlists: [RenditionKey: MediaPlaylist])] = []
        for ad in capped {
            let outcome = Self.outcome(ad, loadedByURL[ad.creativeURL]) { creative -> CreativeOutcome<(url: String, playlists: [RenditionKey: MediaPlaylist])> in
                switch fit(creative) {
                case .unusable(let reason): return .skipped(reason)
                case .usable(let playlists): return .usable((creative.url, playlists))
                }
            }
            switch outcome {
            case .usable(let fitted): usable.append((ad, fitted.url, fitted.playlists))
            case .skipped(let reason): skipped.append((ad.id, reason))
            }
        }
        return .decided(decided: capped, usable: usable, skipped: skipped, detail: decision.detail,
                        breakStartURLs: breakStarts, breakEndURLs: breakEnds, conditioning: waitingForConditioning)
    }
}
