import HLS
import Logging
import Stitching

/// Decides what one session plays in one live break: asks the ad planner (ad server, creatives,
/// each fitted to the channel), and lays the usable ads out with slate over the break. Never
/// fails: trouble gives an unfilled break with the reason. Decisions run through `queue` (a
/// bound on those in flight, on background threads).
struct LiveBreakDecider: Sendable {
    let planner: AdPlanner
    /// The ad parameters of announced breaks (the break API).
    var announcements = BreakAnnouncements()
    let queue: BreakDecisionQueue
    let logger: Logger
    /// `ads.personalizationThreshold`: the share of a break its ads must fill to replace it.
    var personalizationThreshold = 0.0

    /// - Parameter budgetEnd: when the session stops waiting for this decision
    ///   (`ads.totalBudgetSeconds` after the reload that saw the cue); the ad server and the
    ///   creatives share it. `decide` runs it inside its span (`AdPlanner+Tracing.swift`).
    func decideBreak(
        _ item: LiveBreak, for session: LiveSession, budgetEnd: ContinuousClock.Instant
    ) async -> LiveBreakDecision {
        guard let story = planner.story, let trace = story.newTrace() else {
            return await decide(item, for: session, budgetEnd: budgetEnd, trace: nil)
        }
        let decision = await decide(item, for: session, budgetEnd: budgetEnd, trace: trace)
        let now = story.now
        story.record(
            session.id,
            SessionStoryEntries.decisions(trace, at: now) + SessionStoryEntries.liveBreak(decision, at: now))
        return decision
    }

    /// The decision, its steps recorded in `trace` (a session's story) when there is one.
    private func decide(
        _ item: LiveBreak, for session: LiveSession, budgetEnd: ContinuousClock.Instant, trace: AdDecisionTrace?
    ) async -> LiveBreakDecision {
        let number = item.number
        // The session's budget for this break (`ads.totalBudgetSeconds` from the reload that saw
        // its cue, on the session's clock): the ad server and the creatives share it. The planner
        // counts it on its own clock (the upstream client enforces time-outs in real time), so it
        // gets the time left, not the instant: the two clocks are one in production, but an
        // instant of a clock a test moves by hand means nothing to the real one.
        let deadline = planner.now() + (budgetEnd - queue.clock.now)
        let channel = session.channel
        var context = AdPlanner.context(
            session.inputs, id: session.id, contentDuration: nil,
            position: item.isPreroll ? .preroll : .midroll(seconds: max(1, item.sessionTime)), index: number)
        context.adParameters["breakDuration"] =
            context.adParameters["breakDuration"] ?? String(PlaylistLimits.wholeSeconds(item.duration))
        // An announced break's own parameters, over the session's.
        context.adParameters.merge(announcements.adParameters(forSignal: item.signalID)) { _, announced in announced }
        context.trace = trace
        let format: StreamFormat = channel.dash == nil ? .hls : .dash
        context.streamFormat = format

        let answer = await planner.decideLive(
            context: context, breakSeconds: item.duration, deadline: deadline,
            content: channel.content, baseURL: session.inputs.baseURL, preroll: item.isPreroll, format: format
        ) { channel.fit($0) }
        guard
            case .decided(
                let decided, let capped, let outcome, let detail, let breakStarts, let breakEnds, let bumpers) =
                answer
        else {
            var unfilled: LiveBreakDecision = .unfilled(number, reason: .noFill, detail: nil)
            if case .unfilled(let reason, let detail) = answer {
                unfilled = .unfilled(number, reason: reason, detail: detail)
            }
            unfilled.shareBody(channel.decisionBodies.intern)
            return unfilled
        }
        let usable = outcome.usable.map { (ad: $0.ad, url: $0.fitted.url, playlists: $0.fitted.playlists) }
        var fittedBumpers: [Bumper.Position: (url: String, playlists: [RenditionKey: MediaPlaylist])] = [:]
        for bumper in bumpers {
            if case .success(let fitted) = bumper.fitted { fittedBumpers[bumper.position] = fitted }
        }
        // A pre-roll is its ads alone: when they end, the channel plays (no slate to fill it up).
        var layout = channel.layout(
            usable.map { ($0.url, $0.playlists) }, bumpers: fittedBumpers, duration: item.duration,
            slate: !item.isPreroll)
        var skips = outcome.skipped
        for index in layout.trimmedAds {
            skips.append((usable[index].ad.id, .doesNotFit(breakSeconds: PlaylistLimits.wholeSeconds(item.duration))))
        }
        var belowThreshold = false
        if !item.isPreroll, layout.isBelowThreshold(personalizationThreshold, breakDuration: item.duration) {
            // Underfilled past the threshold: the origin's content plays, none of these ads.
            belowThreshold = true
            let skip = AdSkip.belowThreshold(
                filled: layout.adSeconds, breakSeconds: item.duration, threshold: personalizationThreshold)
            for index in layout.playedAds { skips.append((usable[index].ad.id, skip)) }
            layout = LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil)
        }
        let skipped = capped + skips.map { $0.skip.skipped($0.adID) }
        let played = Set(layout.playedAds)
        if !played.isEmpty {
            // A bumper configured as HLS only: a DASH break goes without it, and operators see it.
            let position: BreakPosition = item.isPreroll ? .preroll : .midroll(seconds: 1)
            for bumper in planner.bumperSource(format).unplayable(at: position) {
                planner.deliveryMetrics?.bumperMissed(kind: "live", position: bumper, reason: .dashSession)
            }
        }
        // The bumpers the layout plays; the others are counted with why (only where ads play).
        let playedBumpers = Set(layout.bumpers.map(\.position))
        if !played.isEmpty {
            for bumper in bumpers where !playedBumpers.contains(bumper.position) {
                let miss: BumperSource.Miss
                switch bumper.fitted {
                case .success: miss = .doesNotFit
                case .failure(let why): miss = why
                }
                planner.deliveryMetrics?.bumperMissed(kind: "live", position: bumper.position, reason: miss)
            }
        }
        channel.keepMedia(
            usable.indices.filter(played.contains).map { (usable[$0].url, usable[$0].playlists) }
                + fittedBumpers.filter { playedBumpers.contains($0.key) }.map { ($0.value.url, $0.value.playlists) })
        let intern = channel.interner.intern
        var result = LiveBreakDecision(
            breakNumber: number,
            ads: usable.indices.map {
                played.contains($0) ? LiveAd(usable[$0].ad, creativeURL: usable[$0].url, intern: intern) : nil
            },
            layout: layout, skippedAds: skipped,
            breakStartURLs: breakStarts.map(intern), breakEndURLs: breakEnds.map(intern))
        if !playedBumpers.isEmpty {
            var urls: [Bumper.Position: String] = [:]
            var configured: [Bumper.Position: String] = [:]
            for bumper in bumpers where playedBumpers.contains(bumper.position) {
                urls[bumper.position] = fittedBumpers[bumper.position].map { intern($0.url) }
                configured[bumper.position] = intern(bumper.configuredURL)
            }
            result.bumperURLs = urls
            result.bumperConfiguredURLs = configured
        }
        result.skipReason =
            belowThreshold
            ? .personalizationThreshold
            : AvailSkipReason.forBreak(
                decided: decided.count, adServerReason: nil, usable: usable.count,
                played: played.count, skipped: skips.map(\.skip))
        if belowThreshold {
            result.detail = skips.last?.skip.reason
        } else if result.skipReason != nil {
            result.detail = skipped.first.map { "\($0.adID): \($0.reason)" } ?? detail
        }
        result.shareBody(channel.decisionBodies.intern)
        logger.debug(
            "live break decided",
            metadata: [
                "session": "\(session.id)", "break": "\(number)", "seconds": "\(item.duration)",
                "ads": "\(layout.playedAds.count)", "slate": "\(layout.slateSeconds)",
                "skipped": "\(skipped.count)",
            ])
        return result
    }
}
