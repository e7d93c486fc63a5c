import Stitching

extension AdPlanner {
    /// Every break of a VOD title, planned inside an `ad.decision` span: the ad tag request and
    /// each wrapper hop (`ad.request`) and the creative fetches (`creative.fetch`) are its children.
    ///
    /// Attributes: `seam.session.id`, `seam.ad.breaks`, `seam.ad.ads` (ads that play, all breaks),
    /// `seam.ad.skip_reason` (the first unfilled break's); one `ad.break` event per break with its
    /// `seam.ad.break.position` (`preroll`, `midroll`, `postroll`), `seam.ad.break.seconds` (the
    /// cue point), `seam.ad.ads`, `seam.ad.ads_skipped` and `seam.ad.skip_reason`.
    func planVOD(
        _ inputs: SessionInputs, id: SessionID, content: ContentSet, deadline: ContinuousClock.Instant
    ) async -> BreakPlan {
        await traced(id) { await plan(inputs, id: id, content: content, deadline: deadline) }
    }

    /// `make`'s plan of a VOD session's breaks inside an `ad.decision` span (HLS and DASH alike).
    func traced(_ id: SessionID, _ make: () async -> BreakPlan) async -> BreakPlan {
        await tracer.span("ad.decision") { span in
            span.set("seam.session.id", id.value)
            let plan = await make()
            guard span.isRecording else { return plan }
            span.set("seam.ad.breaks", plan.breaks.count)
            span.set("seam.ad.ads", plan.breaks.reduce(0) { $0 + $1.ads.count })
            if let reason = plan.breaks.lazy.compactMap(\.skipReason).first {
                span.set("seam.ad.skip_reason", reason.rawValue)
            }
            for planned in plan.breaks {
                var attributes: [String: TraceValue] = [
                    "seam.ad.break.position": .text(planned.position.name),
                    "seam.ad.break.seconds": .number(planned.position.cuePoint),
                    "seam.ad.ads": .count(planned.ads.count),
                    "seam.ad.ads_skipped": .count(planned.skippedAds.count),
                ]
                if let reason = planned.skipReason { attributes["seam.ad.skip_reason"] = .text(reason.rawValue) }
                span.event("ad.break", attributes)
            }
            return plan
        }
    }
}

extension LiveBreakDecider {
    /// One live break decided inside an `ad.decision` span, the root of its own trace (a
    /// decision runs on a background worker, after the reload that saw the cue has answered);
    /// the ad requests, wrapper hops and creative fetches are its children.
    ///
    /// Attributes: `seam.session.id`, `seam.ad.break.number`, `seam.ad.break.position`
    /// (`midroll`), `seam.ad.break.seconds` (the break's length), `seam.ad.ads` (ads that play),
    /// `seam.ad.ads_skipped`, `seam.ad.skip_reason` when it plays none or not all.
    func decide(
        _ item: LiveBreak, for session: LiveSession, budgetEnd: ContinuousClock.Instant
    ) async -> LiveBreakDecision {
        await planner.tracer.span("ad.decision", parent: .topLevel) { span in
            span.set("seam.session.id", session.id.value)
            span.set("seam.ad.break.number", item.number)
            span.set("seam.ad.break.position", "midroll")
            span.set("seam.ad.break.seconds", item.duration)
            let decision = await decideBreak(item, for: session, budgetEnd: budgetEnd)
            span.set("seam.ad.ads", decision.ads.lazy.compactMap { $0 }.count)
            span.set("seam.ad.ads_skipped", decision.skippedAds.count)
            if let reason = decision.skipReason { span.set("seam.ad.skip_reason", reason.rawValue) }
            return decision
        }
    }
}
