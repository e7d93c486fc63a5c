import VAST

extension AdDecisionClient {
    /// The ads of one VMAP break from its `AdSource`.
    ///
    /// - `AdTagURI`: the URI's IAB macros and Seam placeholders are filled (no ad parameters or
    ///   consent parameters are appended: the ADS that wrote the VMAP built the URI), it is fetched
    ///   like an ad tag, and the VAST answer goes through ``decide(_:documentURL:context:deadline:)``.
    ///   A VMAP answer (VMAP inside VMAP) is `ADS_ERROR`.
    /// - `VASTAdData`: decided directly; unreadable embedded VAST is `INVALID_VAST`.
    /// - `CustomAdData` and an empty `AdSource`: `NO_FILL` (Seam reads no other ad formats).
    ///
    /// `followRedirects="false"` stops at the first wrapper (`WRAPPER_LIMIT`);
    /// `allowMultipleAds="false"` keeps only the first usable ad.
    ///
    /// - Parameter vmapURL: the URL the VMAP came from, to resolve a relative `AdTagURI`.
    package func decideBreak(
        source: VMAPAdSource, vmapURL: String?, context: AdRequestContext,
        deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision {
        let followWrappers = source.followRedirects ?? true
        let singleAd = source.allowMultipleAds == false
        switch source.content {
        case .adTagURI(let uri, _):
            let url = wrapperURL(
                AdTagURLBuilder.fillPlaceholders(in: uri, context: context), documentURL: vmapURL, context: context)
            switch await fetchAnswer(url: url, context: context, deadline: deadline) {
            case .vast(let document, let documentURL):
                return await decide(
                    document, documentURL: documentURL, context: context, deadline: deadline,
                    followWrappers: followWrappers, singleAd: singleAd)
            case .vmap:
                return AdBreakDecision(
                    ads: [], skipReason: .adsError,
                    detail: "the AdTagURI \(url) of a VMAP break answered VMAP, not VAST")
            case .failed(let reason, let detail):
                return AdBreakDecision(ads: [], skipReason: reason, detail: detail)
            }
        case .vastAdData(let document):
            return await decide(
                document, documentURL: vmapURL, context: context, deadline: deadline,
                followWrappers: followWrappers, singleAd: singleAd)
        case .invalidVASTAdData(let error):
            return AdBreakDecision(
                ads: [], skipReason: .invalidVAST, detail: "the break's embedded VAST is not readable: \(error)")
        case .customAdData(let templateType, _):
            return AdBreakDecision(
                ads: [], skipReason: .noFill,
                detail: "CustomAdData (\(templateType ?? "no templateType")) is not an ad format Seam reads")
        case .none:
            return AdBreakDecision(ads: [], skipReason: .noFill, detail: "the break's AdSource holds no ads")
        }
    }

    /// The ads of one VMAP `AdBreak`; see ``decideBreak(source:vmapURL:context:deadline:)``.
    ///
    /// Also calls the break's VMAP `error` tracking URLs when its ad response could not be had,
    /// with the VMAP 1.0 code in `[ERRORCODE]`: 1007 (retrieval time-out), 1008 (retrieval
    /// error), 1006 (response not readable), 1005 (template type not supported: `CustomAdData`).
    /// A break that is not linear, or has no `AdSource`, is `NO_FILL` without a call.
    package func decideBreak(
        _ adBreak: VMAPAdBreak, vmapURL: String?, context: AdRequestContext,
        deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision {
        guard adBreak.isLinear else {
            return AdBreakDecision(
                ads: [], skipReason: .noFill, detail: "the break is not linear; Seam inserts linear ads only")
        }
        guard let source = adBreak.adSource else {
            return AdBreakDecision(ads: [], skipReason: .noFill, detail: "the break has no AdSource")
        }
        let decision = await decideBreak(source: source, vmapURL: vmapURL, context: context, deadline: deadline)
        let vmapCode: Int?
        switch (decision.skipReason, source.content) {
        case (.adsTimeout?, .adTagURI), (.budgetExhausted?, .adTagURI): vmapCode = 1007
        case (.adsError?, .adTagURI): vmapCode = 1008
        case (.invalidVAST?, .adTagURI), (.invalidVAST?, .invalidVASTAdData): vmapCode = 1006
        case (.noFill?, .customAdData): vmapCode = 1005
        default: vmapCode = nil
        }
        if let vmapCode {
            let urls = adBreak.trackingURLs(for: .error)
            if !urls.isEmpty {
                var macros = context.vastMacros(cacheBuster: nil, timestamp: nil)
                macros.custom["ERRORCODE"] = String(vmapCode)
                beacons.fire(
                    urls, event: "error",
                    viewer: BeaconViewer(deviceIP: context.deviceIP, userAgent: context.userAgent),
                    context: "VMAP error \(vmapCode), break \(adBreak.breakId ?? "?"), session \(context.sessionID)",
                    macros: macros)
            }
        }
        return decision
    }
}
