import DASH
import Stitching

extension AdPlanner {
    /// Every break of a DASH VOD title, with its creatives, all by `deadline`: the same decisions
    /// as an HLS title's (`decideBreaks`, asking for MPD media files), the same pod caps and the
    /// same skip rule; each ad's MPD is fetched (`CreativeLoader.loadDASH`) and fitted to the
    /// title (`DASHCreativeFit`). Bumpers and MP4 conditioning are HLS only: a DASH break plays
    /// its ads alone, and an MP4-only ad is skipped (`no MPEG-DASH MediaFile`).
    func planDASH(
        _ inputs: SessionInputs, id: SessionID, title: DASHTitle, deadline: ContinuousClock.Instant
    ) async -> BreakPlan {
        await tracer.span("ad.decision") { span in
            span.set("seam.session.id", id.value)
            let trace = story?.newTrace()
            let decided = capPods(
                await decideBreaks(
                    inputs, id: id, duration: title.duration, markerBreaks: [], format: .dash, deadline: deadline,
                    trace: trace))
            var urls: [String] = []
            for ad in decided.flatMap(\.ads) where !urls.contains(ad.creativeURL) { urls.append(ad.creativeURL) }
            var available: [String: CreativeAvailability] = [:]
            for (url, result) in zip(urls, await creatives.loadAllDASH(urls, deadline: deadline)) {
                switch result {
                case .success(let creative)?: available[url] = .loaded(creative)
                case .failure(let error)?: available[url] = .failed(error.description)
                case nil: available[url] = .late
                }
            }
            let breaks = decided.map { decided in
                let outcome = BreakOutcome<AdCreative>.resolve(
                    decided.ads, availability: { available[$0.creativeURL] ?? .late }
                ) {
                    creative in
                    guard let mpd = creative.dash else {
                        return .failure(.unusable("creative \(creative.url) is not an MPD"))
                    }
                    return DASHCreativeFit.fit(mpd, url: creative.url, content: title.mpd).map { _ in creative }
                }
                return BreakPlan.Break(
                    position: decided.position, plannedSeconds: decided.plannedSeconds,
                    ads: outcome.usable.map { BreakPlan.Ad(ad: $0.ad, creative: $0.fitted) },
                    skippedAds: decided.skippedAds + outcome.skipped.map { $0.skip.skipped($0.adID) },
                    skipReason: AvailSkipReason.forBreak(
                        decided: decided.ads.count, adServerReason: decided.skipReason,
                        usable: outcome.usable.count, played: outcome.usable.count,
                        skipped: outcome.skipped.map(\.skip)),
                    skipDetail: decided.detail, breakStartURLs: decided.breakStartURLs,
                    breakEndURLs: decided.breakEndURLs)
            }
            let plan = BreakPlan(breaks: breaks)
            if let story, let trace {
                let now = story.now
                story.record(
                    id,
                    SessionStoryEntries.decisions(trace, at: now)
                        + SessionStoryEntries.plan(plan, content: nil, at: now))
            }
            span.set("seam.ad.breaks", plan.breaks.count)
            span.set("seam.ad.ads", plan.breaks.reduce(0) { $0 + $1.ads.count })
            return plan
        }
    }
}
