import HLS
import Logging
import Stitching

/// Decides what one session plays in one live break: asks the ad planner (ad server, creatives,
/// each fitted to the channel), and lays the usable ads out with slate over the break. Never
/// fails: trouble gives an unfilled break with the reason. Decisions run through `queue` (a
/// bound on those in flight, on background threads).
struct LiveBreakDecider: Sendable {
    let planner: AdPlanner
    let queue: BreakDecisionQueue
    let logger: Logger

    /// - Parameter budgetEnd: when the session stops waiting for this decision
    ///   (`ads.totalBudgetSeconds` after the reload that saw the cue); the ad server and the
    ///   creatives share it. `decide` runs it inside its span (`AdPlanner+Tracing.swift`).
    func decideBreak(_ item: LiveBreak, for session: LiveSession, budgetEnd: ContinuousClock.Instant) async -> LiveBreakDecision {
        let number = item.number
        // The session's budget for this break (`ads.totalBudgetSeconds` from the reload that saw
        // its cue, on the session's clock): the ad server and the creatives share it. The planner
        // counts it on its own clock (the upstream client enforces time-outs in real time), so it
        // gets the time left, not the instant: the two clocks are one in production, but an
        // instant of a clock a test moves by hand means nothing to the real one.
        let deadline = planner.now() + (budgetEnd - queue.clock.now)
        let channel = session.channel
        var context = AdPlanner.context(session.inputs, id: session.id, contentDuration: nil,
                                        position: .midroll(seconds: max(1, item.sessionTime)), index: number)
        context.adParameters["breakDuration"] = context.adParameters["breakDuration"] ?? String(PlaylistLimits.wholeSeconds(item.duration))

        let answer = await planner.decideLive(context: context, breakSeconds: item.duration, deadline: deadline,
                                              content: channel.content, baseURL: session.inputs.baseURL) { channel.fit($0) }
        guard case .decided(let decided, let usable, var skipped, let detail, let breakStarts, let breakEnds, let conditioning) = answer else {
            if case .unfilled(let reason, let detail) = answer { return .unfilled(number, reason: reason, detail: detail) }
            return .unfilled(number, reason: .noFill, detail: nil)
        }
        let layout = channel.layout(usable.map { ($0.url, $0.playlists) }, duration: item.duration)
        for index in layout.trimmedAds {
            skipped.append((usable[index].ad.id, "does not fit in what is left of the \(PlaylistLimits.wholeSeconds(item.duration)) s break"))
        }
        let media = channel.breakMedia(usable.map { ($0.url, $0.playlists) })
        let played = Set(layout.playedAds)
        var result = LiveBreakDecision(breakNumber: number,
                                       ads: usable.indices.map { played.contains($0) ? LiveAd(usable[$0].ad, creativeURL: usable[$0].url, interner: channel.interner) : nil },
                                       layout: layout, media: media,
                                       skipReason: nil, detail: nil, skippedAds: skipped,
                                       breakStartURLs: breakStarts.map(channel.interner.intern), breakEndURLs: breakEnds.map(channel.interner.intern))
        if layout.playedAds.isEmpty {
            result.skipReason = decided.isEmpty ? .noFill : !usable.isEmpty ? .breakTooShort : conditioning ? .transcodeInProgress : .noVariantMatch
            result.detail = skipped.first.map { "\($0.adID): \($0.reason)" } ?? detail
        }
        logger.debug("live break decided", metadata: [
            "session": "\(session.id)", "break": "\(number)", "seconds": "\(item.duration)",
            "ads": "\(layout.playedAds.count)", "slate": "\(layout.slateSeconds)",
            "skipped": "\(skipped.count)",
        ])
        return result
    }
}
