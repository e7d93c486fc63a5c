import HLS
import Stitching
import VAST

/// A live cue's ad decision: one break asked for when its cue appears (`LiveBreakDecider`),
/// through the same availability and `BreakOutcome` as VOD cue points.
extension AdPlanner {
    /// What the ad server and the creatives gave for one live cue.
    enum LiveAnswer: Sendable {
        /// Nothing to play, and why.
        case unfilled(AvailSkipReason, detail: String?)
        /// The ads after the pod caps (`decided`), left out before any fetch (`capped`: by the ad
        /// server's answer or the caps) and what their creatives came to (`outcome`: the usable
        /// ones in pod order, fitted to the channel, and the others with why).
        case decided(
            decided: [PlannedAd], capped: [BreakPlan.SkippedAd],
            outcome: BreakOutcome<(url: String, playlists: [RenditionKey: MediaPlaylist])>,
            detail: String?, breakStartURLs: [String], breakEndURLs: [String],
            bumpers: [LiveBumper] = [])
    }

    /// A configured bumper as loaded for one live break: fitted to the channel, or why not.
    struct LiveBumper: Sendable {
        var position: Bumper.Position
        var configuredURL: String
        var fitted: Result<(url: String, playlists: [RenditionKey: MediaPlaylist]), BumperSource.Miss>
    }

    /// Asks for one live break of `breakSeconds`, and fits each creative with `fit` (the channel's).
    /// MP4-only ads are conditioned for `content` (the channel's ladder) as for VOD, their
    /// creatives served under `baseURL`.
    /// - Parameter preroll: the session's live pre-roll (`live.prerollMaxSeconds`): a VMAP's
    ///   start break fills it, and the bumpers follow `ads.bumpers.preroll`.
    func decideLive(
        context: AdRequestContext, breakSeconds: Double, deadline: ContinuousClock.Instant,
        content: ContentSet, baseURL: String, preroll: Bool = false, format: StreamFormat = .hls,
        fit: @Sendable (AdCreative) -> CreativeFit.Verdict
    ) async -> LiveAnswer {
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
            // A cue is a mid-roll: the first mid-roll break (else the first linear one) fills it; the
            // live pre-roll takes the start break.
            let linear = vmap.adBreaks.filter { $0.breakTypes.isEmpty || $0.isLinear }
            let chosen =
                linear.first {
                    if case .start = $0.timeOffset { return preroll }; if case .end = $0.timeOffset { return false };
                    return !preroll
                } ?? linear.first
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
        // MP4-only ads: conditioned for the channel's ladder within the same budget (docs/conditioning.md).
        var progressive: [String: String] = [:]
        for ad in decision.ads { if let identity = ad.progressive { progressive[ad.hlsURL] = identity } }
        // Bumpers load with the ads, in the same budget, when there are ads to frame.
        // (A DASH channel's: its MPD bumpers, or MP4 ones conditioned and read as MPDs.)
        let bumperSource = bumperSource(format)
        let wantsBumpers = !bumperSource.isEmpty && !capped.isEmpty
        if wantsBumpers { progressive.merge(bumperSource.progressive) { first, _ in first } }
        let available = await availability(
            of: capped + (wantsBumpers ? bumperSource.loads : []), progressive: progressive, content: content,
            baseURL: baseURL, deadline: deadline, format: format)
        let wantedBumpers = bumperSource.wanted(at: preroll ? .preroll : .midroll(seconds: 1))
        let bumpers: [LiveBumper] = (wantsBumpers ? wantedBumpers : []).map { position, url in
            var fitted: [RenditionKey: MediaPlaylist] = [:]
            let resolved = BumperSource.resolve(available[url]) { creative in
                guard case .usable(let playlists) = fit(creative) else { return false }
                fitted = playlists
                return true
            }
            return LiveBumper(
                position: position, configuredURL: url, fitted: resolved.map { (url: $0.url, playlists: fitted) })
        }
        // Creatives that can play in every rendition of this channel.
        let outcome = BreakOutcome.resolve(capped, availability: { available[$0.creativeURL] ?? .late }) {
            creative -> Result<(url: String, playlists: [RenditionKey: MediaPlaylist]), AdSkip> in
            switch fit(creative) {
            case .unusable(let reason): return .failure(.unusable(reason))
            case .usable(let playlists): return .success((creative.url, playlists))
            }
        }
        return .decided(
            decided: capped,
            capped: decision.skippedAds
                + overCap.map { BreakPlan.SkippedAd(adID: $0.adID, reason: $0.reason, code: .podLimit) },
            outcome: outcome, detail: decision.detail, breakStartURLs: breakStarts, breakEndURLs: breakEnds,
            bumpers: bumpers)
    }
}
