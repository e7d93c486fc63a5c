import HLS
import Logging
import Stitching
import VAST

/// Decides what one session plays in one live break: asks the ad server, fetches the creatives,
/// keeps those that can play in every rendition, and lays them out with slate over the break.
/// Never fails: trouble gives an unfilled break with the reason. Decisions run through `queue`
/// (a bound on those in flight, on background threads).
struct LiveBreakDecider: Sendable {
    let configuration: SeamConfiguration
    let ads: any AdDecisionProviding
    let creatives: CreativeLoader
    let queue: BreakDecisionQueue
    let logger: Logger

    /// - Parameter budgetEnd: when the session stops waiting for this decision; the ad server's
    ///   own budget (`ads.totalBudgetSeconds` from now) ends earlier when it would end later.
    ///   Decisions and creatives share it.
    func decide(_ item: LiveBreak, for session: LiveSession, budgetEnd: ContinuousClock.Instant) async -> LiveBreakDecision {
        let number = item.number
        let template = configuration.ads.adTagURL
        guard !template.isEmpty else { return .unfilled(number, reason: .noFill, detail: "no ad tag is configured (ads.adTagURL)") }
        let deadline = min(ContinuousClock.now + .milliseconds(Int64(configuration.ads.totalBudgetSeconds * 1000)), budgetEnd)
        let channel = session.channel
        var context = SessionBuilder.adContext(session.inputs, id: session.id, contentDuration: nil,
                                               position: .midroll(seconds: max(1, item.sessionTime)), index: number)
        context.adParameters["breakDuration"] = context.adParameters["breakDuration"] ?? String(PlaylistLimits.wholeSeconds(item.duration))

        let answer = await ads.requestAdTag(context: context, template: template, deadline: deadline)
        var decision: AdBreakDecision
        var breakStarts: [String] = []
        var breakEnds: [String] = []
        switch answer {
        case .failed(let reason, let detail):
            return .unfilled(number, reason: reason, detail: detail)
        case .vast(let document, let url):
            decision = await ads.decide(document, documentURL: url, context: context, deadline: deadline)
        case .vmap(let vmap, let url):
            // Live has no pre- or post-roll: the first mid-roll break (else the first linear one) fills the cue.
            let linear = vmap.adBreaks.filter { $0.breakTypes.isEmpty || $0.isLinear }
            let chosen = linear.first { if case .start = $0.timeOffset { return false }; if case .end = $0.timeOffset { return false }; return true } ?? linear.first
            guard let chosen else { return .unfilled(number, reason: .noFill, detail: "the VMAP has no linear break") }
            breakStarts = chosen.trackingEvents.filter { $0.event == .breakStart }.map(\.url)
            breakEnds = chosen.trackingEvents.filter { $0.event == .breakEnd }.map(\.url)
            decision = await ads.decideBreak(chosen, vmapURL: url, context: context, deadline: deadline)
        }
        if let reason = decision.skipReason, decision.ads.isEmpty {
            return .unfilled(number, reason: reason, detail: decision.detail)
        }
        // At most ads.maxAdsPerPod, and no longer than the break (or ads.maxPodSeconds), before any fetch.
        let (capped, overCap) = PodLimits(configuration.ads).apply(to: decision.ads, breakSeconds: item.duration)
        decision.ads = capped
        decision.skippedAds += overCap

        // Creatives that can play in every rendition of this channel, fetched concurrently within the same budget.
        var usable: [(ad: ResolvedAd, url: String, playlists: [String: MediaPlaylist])] = []
        var skipped = decision.skippedAds
        let loaded = await creatives.loadAll(decision.ads.map(\.hlsURL), deadline: deadline)
        for (ad, result) in zip(decision.ads, loaded) {
            switch result {
            case nil:
                skipped.append((ad.adID, "creative \(ad.hlsURL) not loaded within the ad budget (ads.totalBudgetSeconds)"))
            case .failure(let error)?:
                skipped.append((ad.adID, error.description))
            case .success(let creative)?:
                switch channel.fit(creative, emptySubtitleURI: session.inputs.baseURL + "/v1/assets/empty.vtt") {
                case .unusable(let reason): skipped.append((ad.adID, reason))
                case .usable(let playlists): usable.append((ad, creative.url, playlists))
                }
            }
        }
        let layout = channel.layout(usable.map { ($0.url, $0.playlists) }, duration: item.duration)
        for index in layout.trimmedAds {
            skipped.append((usable[index].ad.adID, "does not fit in what is left of the \(PlaylistLimits.wholeSeconds(item.duration)) s break"))
        }
        let media = channel.breakMedia(usable.map { ($0.url, $0.playlists) })
        let played = Set(layout.playedAds)
        var result = LiveBreakDecision(breakNumber: number,
                                       ads: usable.indices.map { played.contains($0) ? LiveAd(usable[$0].ad, interner: channel.interner) : nil },
                                       layout: layout, media: media,
                                       skipReason: nil, detail: nil, skippedAds: skipped,
                                       breakStartURLs: breakStarts.map(channel.interner.intern), breakEndURLs: breakEnds.map(channel.interner.intern))
        if layout.playedAds.isEmpty {
            result.skipReason = decision.ads.isEmpty ? .noFill : usable.isEmpty ? .noVariantMatch : .breakTooShort
            result.detail = skipped.first.map { "\($0.adID): \($0.reason)" } ?? decision.detail
        }
        logger.debug("live break decided", metadata: [
            "session": "\(session.id)", "break": "\(number)", "seconds": "\(item.duration)",
            "ads": "\(layout.playedAds.count)", "slate": "\(layout.slateSeconds)",
            "skipped": "\(skipped.count)",
        ])
        return result
    }
}
