import Foundation
import HLS
import Stitching

/// The entries of a session's story, made from what the session's machinery already has: an ad
/// decision's trace (requests, wrapper hops, VAST errors, the ads the ad server returned that
/// Seam can play), a break's plan (each ad's verdict, the avail's outcome) and a beacon's answer.
enum SessionStoryEntries {
    /// When an entry happened, as the document writes it (ISO 8601, milliseconds).
    static func stamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The requests, VAST errors and playable ads of a trace, in the order they happened. The
    /// ads left out and the breaks' outcomes come from the plan (``plan(_:content:at:)``), which
    /// also knows those left out after the ad server (pod caps, creatives).
    static func decisions(_ trace: AdDecisionTrace, at date: Date) -> [SessionStoryEntry] {
        let time = stamp(date)
        var entries: [SessionStoryEntry] = []
        for (breakIndex, step) in trace.stepsByBreak {
            var entry: SessionStoryEntry
            switch step {
            case .request(let url, let outcome, let status, let milliseconds, let bytes, let wrapper):
                entry = SessionStoryEntry(time: time, event: wrapper ? .wrapperRequest : .adRequest)
                entry.url = StoryURLRedaction.redacted(url)
                entry.outcome = outcome
                entry.status = status
                entry.milliseconds = milliseconds
                entry.bytes = bytes
            case .vastError(let code, let what, let errorURLs):
                entry = SessionStoryEntry(time: time, event: .vastError)
                entry.vastErrorCode = code
                entry.detail = what
                entry.count = errorURLs
            case .usableAd(let adID, let seconds, let media):
                entry = SessionStoryEntry(time: time, event: .adSelected)
                entry.adId = adID
                entry.seconds = seconds
                entry.url = StoryURLRedaction.redacted(media)
            case .skippedAd, .decision:
                continue
            }
            // A prefetched decision's break has no number yet (-1).
            entry.breakIndex = breakIndex.flatMap { $0 >= 0 ? $0 : nil }
            entries.append(entry)
        }
        if trace.dropped > 0 {
            var entry = SessionStoryEntry(time: time, event: .vastError)
            entry.detail = "\(trace.dropped) more decision steps were not kept"
            entries.append(entry)
        }
        return entries
    }

    /// A VOD plan's verdicts, break by break: each ad that plays with the creative rendition
    /// chosen for each of the content's variants, each ad left out with why, and the avail.
    /// - Parameter content: an HLS title, whose renditions each ad's are matched to; nil for DASH.
    static func plan(_ plan: BreakPlan, content: ContentSet?, at date: Date) -> [SessionStoryEntry] {
        let time = stamp(date)
        var entries: [SessionStoryEntry] = []
        for (index, planned) in plan.breaks.enumerated() {
            for ad in planned.ads {
                var entry = SessionStoryEntry(time: time, event: .creativeMatched)
                entry.breakIndex = index
                entry.adId = ad.ad.id
                entry.url = StoryURLRedaction.redacted(ad.creative.url)
                entry.seconds = ad.ad.duration
                entry.renditions = content.map { renditions(of: ad.creative, in: $0) }
                entries.append(entry)
            }
            entries += skipped(planned.skippedAds, breakIndex: index, time: time)
            let placed = planned.ads.reduce(0) { $0 + $1.ad.duration }
            entries.append(
                avail(
                    index, position: planned.position.name, filled: planned.isFilled, ads: planned.ads.count,
                    seconds: placed, reason: planned.skipReason, detail: planned.skipDetail, time: time))
        }
        return entries
    }

    /// A live break's decision: each ad that plays (fitted to every rendition of the channel),
    /// each ad left out, and the avail.
    static func liveBreak(_ decision: LiveBreakDecision, at date: Date) -> [SessionStoryEntry] {
        let time = stamp(date)
        // A prefetched decision's break has no number yet (-1): its entries carry none.
        let number: Int? = decision.breakNumber >= 0 ? decision.breakNumber : nil
        var entries: [SessionStoryEntry] = []
        // An ad's time in the break: its slots in the layout (the reference rendition's segments).
        var seconds: [Int: Double] = [:]
        for slot in decision.layout.slots {
            if case .ad(let ad, _) = slot.source { seconds[ad, default: 0] += slot.duration }
        }
        var played = 0
        for (index, ad) in decision.ads.enumerated() {
            guard let ad else { continue }
            played += 1
            var entry = SessionStoryEntry(time: time, event: .creativeMatched)
            entry.breakIndex = number
            entry.adId = ad.adID
            entry.url = StoryURLRedaction.redacted(ad.creativeURL)
            entry.seconds = seconds[index]
            entry.detail = "plays in every rendition of the channel"
            entries.append(entry)
        }
        entries += skipped(decision.skippedAds, breakIndex: number, time: time)
        entries.append(
            avail(
                number, position: number == nil ? "live, decided ahead of the break" : "live", filled: played > 0,
                ads: played,
                seconds: seconds.values.reduce(0, +), reason: decision.skipReason,
                detail: decision.detail, time: time))
        return entries
    }

    /// One server-side beacon's answer.
    static func beacon(_ answer: BeaconAnswer, pod: Int, ad: Int, event: String, at date: Date) -> SessionStoryEntry {
        var entry = SessionStoryEntry(time: stamp(date), event: .beacon)
        entry.trackingEvent = event
        entry.pod = pod
        entry.adIndex = ad
        entry.url = StoryURLRedaction.redacted(answer.url)
        entry.outcome = answer.outcome.rawValue
        entry.status = answer.status
        entry.count = answer.attempts
        entry.reason = answer.reason
        return entry
    }

    // MARK: Parts

    private static func skipped(_ ads: [BreakPlan.SkippedAd], breakIndex: Int?, time: String) -> [SessionStoryEntry] {
        ads.map { skipped in
            var entry = SessionStoryEntry(time: time, event: .adSkipped)
            entry.breakIndex = breakIndex
            entry.adId = skipped.adID
            entry.reason = skipped.code?.rawValue ?? "other"
            entry.detail = skipped.reason
            return entry
        }
    }

    private static func avail(
        _ index: Int?, position: String, filled: Bool, ads: Int, seconds: Double, reason: AvailSkipReason?,
        detail: String?, time: String
    ) -> SessionStoryEntry {
        var entry = SessionStoryEntry(time: time, event: .avail)
        entry.breakIndex = index
        entry.outcome = filled ? "filled" : "empty"
        entry.reason = filled ? nil : reason?.rawValue
        entry.count = ads
        entry.seconds = seconds
        entry.detail = [position, detail].compactMap { $0 }.joined(separator: ": ")
        return entry
    }

    /// Each content variant's key → the creative variant that plays in it, described.
    static func renditions(of creative: AdCreative, in content: ContentSet) -> [String: String] {
        var chosen: [String: String] = [:]
        for (key, choice) in CreativeFit.variantChoices(of: creative, in: content) {
            guard let index = choice else {
                chosen[key.path] = "none"
                continue
            }
            let stream = creative.variants[index].stream
            var words = ["creative variant \(index)"]
            if let resolution = stream.resolution { words.append("\(resolution.width)x\(resolution.height)") }
            words.append("\(stream.bandwidth) bps")
            if !stream.codecs.isEmpty { words.append(stream.codecs.joined(separator: ",")) }
            chosen[key.path] = words.joined(separator: ", ")
        }
        return chosen
    }
}
