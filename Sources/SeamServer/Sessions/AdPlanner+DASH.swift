import DASH
import Stitching

extension AdPlanner {
    /// Every break of a DASH VOD title, with its creatives, all by `deadline`: the same decisions
    /// as an HLS title's (`decideBreaks`, asking for MPD media files), the same pod caps and the
    /// same skip rule; each ad's MPD is fetched (`CreativeLoader.loadDASH`) and fitted to the
    /// title (`DASHCreativeFit`). An MP4-only ad is conditioned for the title's ladder when
    /// conditioning is on (`DASHConditioning`: the title's first period read as HLS for its
    /// ladder, the conditioned creative read back as an MPD), else skipped (`no MPEG-DASH
    /// MediaFile`). Bumpers load and fit as ads do (`BumperSource` for DASH: MPDs, or MP4s
    /// conditioned for the title).
    func planDASH(
        _ inputs: SessionInputs, id: SessionID, title: DASHTitle, deadline: ContinuousClock.Instant
    ) async -> BreakPlan {
        await traced(id) {
            let trace = story?.newTrace()
            let decided = capPods(
                await decideBreaks(
                    inputs, id: id, duration: title.duration, markerBreaks: DASHMarkers.breaks(in: title.mpd),
                    format: .dash,
                    deadline: deadline,
                    trace: trace))
            var progressive = decided.reduce(into: [String: String]()) {
                $0.merge($1.progressive) { first, _ in first }
            }
            // Bumpers load with the ads, in the same budget, only when some break has ads to frame.
            let bumpers = bumperSource(.dash)
            let wantsBumpers = !bumpers.isEmpty && decided.contains { !$0.ads.isEmpty }
            if wantsBumpers { progressive.merge(bumpers.progressive) { first, _ in first } }
            var urls: [String] = []
            for ad in decided.flatMap(\.ads) + (wantsBumpers ? bumpers.loads : [])
            where !urls.contains(ad.creativeURL) && progressive[ad.creativeURL] == nil {
                urls.append(ad.creativeURL)
            }
            async let conditioned = conditionedForDASH(
                progressive, title: title, baseURL: inputs.baseURL, deadline: deadline)
            var available: [String: CreativeAvailability] = [:]
            for (url, result) in zip(urls, await creatives.loadAllDASH(urls, deadline: deadline)) {
                switch result {
                case .success(let creative)?: available[url] = .loaded(creative)
                case .failure(let error)?: available[url] = .failed(error.description)
                case nil: available[url] = .late
                }
            }
            available.merge(await conditioned) { _, conditioned in conditioned }
            // A creative (ad or bumper) as it plays in a break at `cuePoint`: within the session's
            // rendition filter, as the content does, and fitted to the title.
            let filter = inputs.request.renditions
            func fitted(_ creative: AdCreative, cuePoint: Double) -> Result<AdCreative, AdSkip> {
                guard var mpd = creative.dash else {
                    return .failure(.unusable("creative \(creative.url) is not an MPD"))
                }
                if let filter { mpd = filter.filtered(mpd) }
                var played = creative
                played.dash = mpd
                return DASHCreativeFit.fit(mpd, url: creative.url, content: title.mpd, cuePoint: cuePoint)
                    .map { _ in played }
                    .mapError { skip in
                        guard filter != nil, case .unusable(let why) = skip else { return skip }
                        return .unusable(why + " (once the session's renditions filter is applied)")
                    }
            }
            let breaks = decided.map { decided in
                let outcome = BreakOutcome<AdCreative>.resolve(
                    decided.ads, availability: { available[$0.creativeURL] ?? .late }
                ) { fitted($0, cuePoint: decided.position.cuePoint) }
                var planned = decided.planned(outcome)
                guard planned.isFilled else { return planned }
                for (position, url) in bumpers.wanted(at: decided.position) {
                    var played: AdCreative?
                    switch BumperSource.resolve(
                        available[url],
                        fits: { creative in
                            played = try? fitted(creative, cuePoint: decided.position.cuePoint).get()
                            return played != nil
                        })
                    {
                    case .success:
                        if let played {
                            planned.bumpers.append(Bumper(position: position, creative: played, configuredURL: url))
                        }
                    case .failure(let miss):
                        deliveryMetrics?.bumperMissed(kind: "vod", position: position, reason: miss)
                    }
                }
                // A bumper configured as HLS only: a DASH break goes without it, and operators see it.
                for position in bumpers.unplayable(at: decided.position) {
                    deliveryMetrics?.bumperMissed(kind: "vod", position: position, reason: .dashSession)
                }
                return planned
            }
            let plan = BreakPlan(breaks: breaks)
            if let story, let trace {
                let now = story.now
                story.record(
                    id,
                    SessionStoryEntries.decisions(trace, at: now)
                        + SessionStoryEntries.plan(plan, content: nil, at: now))
            }
            return plan
        }
    }

    /// The MP4-only ads of `progressive` (their MP4 URL → the creative's identity) conditioned
    /// for `title` and read back as MPDs, by `deadline`; empty when conditioning is off (they are
    /// then skipped as having no DASH media file).
    func conditionedForDASH(
        _ progressive: [String: String], title: DASHTitle, baseURL: String, deadline: ContinuousClock.Instant
    ) async -> [String: CreativeAvailability] {
        guard let conditioning, !progressive.isEmpty else { return [:] }
        guard let content = DASHConditioning.contentSet(title.mpd, url: title.url) else {
            return progressive.mapValues { _ in
                .failed(
                    "the title cannot be conditioned for: its MPD has no video representation whose segments a SegmentTemplate names"
                )
            }
        }
        var available: [String: CreativeAvailability] = [:]
        for (url, outcome) in await conditioning.creatives(
            for: progressive, content: content, baseURL: baseURL, deadline: deadline)
        {
            switch outcome {
            case .conditioned(let creative):
                switch DASHConditioning.creativeMPD(creative) {
                case .success(let mpd): available[url] = .loaded(AdCreative(url: creative.url, dash: mpd))
                case .failure(let skip): available[url] = .failed(skip.reason)
                }
            case .inProgress: available[url] = .conditioning
            case .failed(let reason):
                available[url] = .failed("the MP4 creative \(url) could not be conditioned: \(reason)")
            }
        }
        return available
    }
}
