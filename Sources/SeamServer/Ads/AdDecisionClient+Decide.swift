import CoreMetrics
import Logging
import Stitching
import VAST

extension AdDecisionClient {
    /// The ads of one break from a VAST response: wrappers followed, creatives checked, failures
    /// reported to the ad servers. Never throws and returns by `deadline`.
    ///
    /// **Which ads.** Wrapper chains are resolved with `VAST.WrapperChain` (at most
    /// `maxWrapperDepth` wrappers, sibling chains in parallel, each fetch within the budget). Then:
    /// - a pod (ads with `sequence`) plays in sequence order, every usable ad of it;
    /// - otherwise the response is a buffet of stand-alone ads, alternatives to each other (IAB):
    ///   Seam plays the first usable one. Buffet ads are not used to replace failed pod ads.
    ///
    /// An ad is usable when one of its `Linear` creatives has an HLS streaming MediaFile
    /// (see ``AdCreativeSelector``).
    ///
    /// **Skip reasons and error codes** (`[ERRORCODE]` of the `Error` URLs called):
    ///
    /// | Situation | Skip reason | Error URLs called, code |
    /// |---|---|---|
    /// | Response has no `Ad` | `NO_FILL` | the document's, 303 (IAB "no ads"; the demo ad server expects it) |
    /// | Wrapper chain deeper than `maxWrapperDepth` | `WRAPPER_LIMIT` | every wrapper's on the chain, 302 |
    /// | Wrapper loop (same tag URI twice) | `WRAPPER_LOOP` | chain's, 302 (IAB has no loop code) |
    /// | Wrapper fetch timed out, or the budget ran out | `ADS_TIMEOUT` | chain's, 301 |
    /// | Wrapper fetch failed (HTTP error, unreachable, refused) | `ADS_ERROR` | chain's, 301 |
    /// | Wrapper target not VAST | `INVALID_VAST` | chain's, 100/101/102 |
    /// | Wrapper without `VASTAdTagURI` | `INVALID_VAST` | chain's, 300 |
    /// | Wrapper target had no ad | `NO_FILL` | chain's and that document's, 303 |
    /// | Linear ad without an HLS MediaFile | `NO_VARIANT_MATCH` when no ad is left | the ad's (wrappers merged), 403 |
    /// | Ad without any Linear creative | `NO_FILL` when no ad is left | the ad's, 201 |
    ///
    /// Error URLs are called for every failed chain and every skipped ad, also when other ads of
    /// the break play. When no ad is left, the skip reason is that of the first failed chain in
    /// document order (a chain failure says more than a creative problem); otherwise
    /// `NO_VARIANT_MATCH` if an ad was skipped for its media (ads came back, but none Seam can
    /// splice — an ad trafficking problem, not a demand one), else `NO_FILL`. Every skipped ad and
    /// failed chain is listed in `skippedAds` with its reason. A missing `Duration` is kept as 0:
    /// the creative playlist gives the real length.
    package func decide(
        _ document: VASTDocument, documentURL: String?, context: AdRequestContext,
        deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision {
        await decide(
            document, documentURL: documentURL, context: context, deadline: deadline, followWrappers: true,
            singleAd: false)
    }

    /// - Parameters:
    ///   - followWrappers: false for a VMAP `AdSource followRedirects="false"`: wrappers then end
    ///     as `WRAPPER_LIMIT`.
    ///   - singleAd: true for a VMAP `AdSource allowMultipleAds="false"`: only the first usable ad.
    func decide(
        _ document: VASTDocument, documentURL: String?, context: AdRequestContext, deadline: ContinuousClock.Instant,
        followWrappers: Bool, singleAd: Bool
    ) async -> AdBreakDecision {
        if document.ads.isEmpty {
            fireErrors(document.errorURLs, code: .noAdsAfterWrapper, context: context, what: "empty VAST response")
            return finish(
                AdBreakDecision(ads: [], skipReason: .noFill, detail: "the ad server returned no ad"), context: context)
        }
        let maxDepth = followWrappers ? max(0, configuration.maxWrapperDepth) : 0
        let resolution: VASTResolution
        let fetchLog = WrapperFetchLog()
        if document.ads.contains(where: \.isWrapper) {
            let chain = WrapperChain(maxDepth: maxDepth)
            let budget = AdTimeBudget(deadline: deadline, perRequestSeconds: configuration.requestTimeoutSeconds)
            let client = self
            let fetch: WrapperChain.Fetch = { uri in
                let url = client.wrapperURL(uri, documentURL: documentURL, context: context)
                switch await client.fetch(url, context: context, budget: budget, wrapper: true) {
                case .success(let body):
                    return body
                case .failure(var failure):
                    // Out of budget in the middle of a chain: the chain as a whole timed out.
                    if failure.reason == .budgetExhausted { failure.reason = .adsTimeout }
                    await fetchLog.record(uri, failure.reason)
                    throw failure
                }
            }
            let raced = await AdTimeBudget.race(until: deadline) {
                await chain.resolve(document: document, initialURI: documentURL, fetch: fetch)
            }
            guard let raced else {
                let wrapperErrors = document.ads.compactMap(\.wrapper).flatMap(\.errorURLs)
                fireErrors(wrapperErrors, code: .wrapperTimeout, context: context, what: "wrapper chain out of time")
                return finish(
                    AdBreakDecision(
                        ads: [], skipReason: .adsTimeout,
                        detail: "wrapper chain not resolved within the ADS time budget"),
                    context: context)
            }
            resolution = raced
        } else {
            resolution = VASTResolution(document: document, failures: [])
        }

        var skipped: [BreakPlan.SkippedAd] = []
        var firstChainFailure: (reason: AvailSkipReason, detail: String)?
        for failure in resolution.failures {
            var fetchReason: AvailSkipReason?
            if case .fetchFailed(let uri, _, _) = failure.outcome { fetchReason = await fetchLog.reason(for: uri) }
            let reason = WrapperFailureMapping.skipReason(for: failure.outcome, fetchReason: fetchReason)
            let detail = WrapperFailureMapping.detail(for: failure.outcome, adID: failure.adId, maxDepth: maxDepth)
            if let code = failure.outcome.errorCode {
                fireErrors(failure.outcome.errorURLs, code: code, context: context, what: detail)
            }
            skipped.append(
                BreakPlan.SkippedAd(
                    adID: failure.adId ?? "wrapper", reason: "\(reason.rawValue): \(detail)", code: .wrapperFailed))
            if firstChainFailure == nil { firstChainFailure = (reason, detail) }
        }

        let resolved = resolution.document
        let candidates = resolved.isPod ? resolved.podAds : resolved.standaloneAds
        let takeAll = resolved.isPod && !singleAd
        var ads: [ResolvedAd] = []
        var skippedForMedia = false
        for (offset, ad) in candidates.enumerated() {
            let fallbackID = "break\(context.breakIndex)-ad\(offset + 1)"
            switch AdCreativeSelector.select(
                ad, fallbackID: fallbackID, conditions: conditionsProgressive,
                format: context.streamFormat)
            {
            case .usable(let usable):
                ads.append(usable)
                Recorder(label: Self.wrapperDepthName, factory: metricsFactory).record(ad.wrapperDepth)
                context.trace?.record(
                    .usableAd(adID: usable.adID, seconds: usable.duration, media: usable.progressive ?? usable.hlsURL),
                    breakIndex: context.breakIndex)
            case .unusable(let reason, let code):
                let adID = ad.id ?? fallbackID
                context.trace?.record(.skippedAd(adID: adID, reason: reason), breakIndex: context.breakIndex)
                fireErrors(ad.errorURLs, code: code, context: context, what: "ad \(adID): \(reason)")
                skipped.append(
                    BreakPlan.SkippedAd(
                        adID: adID, reason: reason, code: code == .noSupportedMediaFile ? .noPlayableMedia : .invalidAd)
                )
                if code == .noSupportedMediaFile { skippedForMedia = true }
            }
            if !ads.isEmpty && !takeAll { break }
        }

        guard ads.isEmpty else {
            let detail = skipped.isEmpty ? nil : "\(skipped.count) ad(s) skipped"
            return finish(AdBreakDecision(ads: ads, skippedAds: skipped, detail: detail), context: context)
        }
        if let firstChainFailure {
            return finish(
                AdBreakDecision(
                    ads: [], skipReason: firstChainFailure.reason, skippedAds: skipped, detail: firstChainFailure.detail
                ),
                context: context)
        }
        if skippedForMedia {
            return finish(
                AdBreakDecision(
                    ads: [], skipReason: .noVariantMatch, skippedAds: skipped,
                    detail: "no ad has an HLS MediaFile (delivery=\"streaming\", type application/x-mpegURL)"),
                context: context)
        }
        return finish(
            AdBreakDecision(
                ads: [], skipReason: .noFill, skippedAds: skipped, detail: "no playable linear ad in the response"),
            context: context)
    }

    /// Logs the decision and hands it back.
    private func finish(_ decision: AdBreakDecision, context: AdRequestContext) -> AdBreakDecision {
        context.trace?.record(
            .decision(
                breakIndex: context.breakIndex, ads: decision.ads.map(\.adID),
                skipReason: decision.skipReason?.rawValue,
                detail: decision.detail), breakIndex: context.breakIndex)
        // A filled break is logged at debug: its line is not made unless written (every viewer
        // of a break comes here).
        guard decision.skipReason != nil || logger.logLevel <= .debug else { return decision }
        var metadata: Logger.Metadata = [
            "session": "\(context.sessionID)", "break": "\(context.breakIndex)", "ads": "\(decision.ads.count)",
        ]
        if !decision.skippedAds.isEmpty {
            metadata["skipped"] = "\(decision.skippedAds.map { "\($0.adID): \($0.reason)" })"
        }
        if let reason = decision.skipReason {
            metadata["reason"] = "\(reason.rawValue)"
            if let detail = decision.detail { metadata["detail"] = "\(detail)" }
            logger.info("ad break not filled", metadata: metadata)
        } else {
            logger.debug("ad break decided", metadata: metadata)
        }
        return decision
    }
}
