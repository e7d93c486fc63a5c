import CoreMetrics
import Stitching

/// The ad KPIs at `/metrics`: sessions started and ended, and for each decided break (an avail)
/// its outcome, its seconds, the seconds filled and the ads placed — counted from the same
/// tracking avail the session's tracking JSON shows, so the two always agree. Fed by
/// `SessionAnalytics`'s hooks, which see each break once per session (every VOD break at the
/// start; a live break when it is first on the timeline with its decision).
///
/// Labels are bounded: kind (`vod`, `live`), mode, outcome and the skip reason's code.
package struct AdDeliveryMetrics: Sendable {
    package static let sessionsCreatedName = "seam_sessions_created_total"
    package static let sessionsEndedName = "seam_sessions_ended_total"
    package static let availsName = "seam_avails_total"
    package static let availSecondsName = "seam_avail_seconds_total"
    package static let filledSecondsName = "seam_avail_filled_seconds_total"
    package static let adsInsertedName = "seam_ads_inserted_total"
    package static let adsSkippedName = "seam_ads_skipped_total"
    package static let prefetchedName = "seam_avails_prefetched_total"
    package static let assetListsName = "seam_asset_lists_answered_total"
    package static let adsPassedName = "seam_asset_list_ads_passed_total"
    package static let bumpersPlayedName = "seam_bumpers_played_total"
    package static let bumpersMissedName = "seam_bumpers_missed_total"

    let factory: any MetricsFactory

    package init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func sessionCreated(kind: String, mode: SessionMode, format: StreamFormat = .hls) {
        Counter(
            label: Self.sessionsCreatedName,
            dimensions: [("kind", kind), ("mode", mode.rawValue), ("format", format.rawValue)], factory: factory
        )
        .increment()
    }

    func sessionEnded(reason: SessionEndReason) {
        Counter(label: Self.sessionsEndedName, dimensions: [("reason", reason.rawValue)], factory: factory).increment()
    }

    /// One decided break of a `kind` session, as its tracking JSON shows it.
    func availDecided(_ avail: TrackingDocument.Avail, kind: String) {
        let filled = !avail.ads.isEmpty
        let reason = filled ? "none" : Self.boundedReason(avail.skipReason)
        Counter(
            label: Self.availsName,
            dimensions: [("kind", kind), ("outcome", filled ? "filled" : "empty"), ("reason", reason)],
            factory: factory
        ).increment()
        let kindOnly = [("kind", kind)]
        // Bumpers are not ads: their seconds are neither avail to fill nor fill.
        let bumpers = avail.bumpers ?? []
        let bumperSeconds = bumpers.reduce(0) { $0 + max(0, $1.durationSeconds) }
        FloatingPointCounter(label: Self.availSecondsName, dimensions: kindOnly, factory: factory)
            .increment(by: max(0, avail.durationSeconds - bumperSeconds))
        for bumper in bumpers {
            Counter(
                label: Self.bumpersPlayedName,
                dimensions: [
                    ("kind", kind), ("position", Bumper.Position(rawValue: bumper.position)?.rawValue ?? "other"),
                ],
                factory: factory
            ).increment()
        }
        let adSeconds = avail.ads.reduce(0) { $0 + max(0, $1.durationSeconds) }
        FloatingPointCounter(label: Self.filledSecondsName, dimensions: kindOnly, factory: factory)
            .increment(by: adSeconds)
        Counter(label: Self.adsInsertedName, dimensions: kindOnly, factory: factory).increment(by: avail.ads.count)
        if avail.prefetched == true {
            Counter(
                label: Self.prefetchedName, dimensions: [("kind", kind), ("outcome", filled ? "filled" : "empty")],
                factory: factory
            ).increment()
        }
        var skippedByCode: [String: Int] = [:]
        for skipped in avail.skippedAds {
            // A code this Seam does not know (a record of another release) counts as `other`.
            let code = skipped.code.flatMap { AdSkipCode(rawValue: $0)?.rawValue } ?? "other"
            skippedByCode[code, default: 0] += 1
        }
        for (code, count) in skippedByCode {
            Counter(label: Self.adsSkippedName, dimensions: [("kind", kind), ("reason", code)], factory: factory)
                .increment(by: count)
        }
    }

    /// A configured bumper left out of a filled break of a `kind` session, and why (`BumperSource.Miss`).
    func bumperMissed(kind: String, position: Bumper.Position, reason: BumperSource.Miss) {
        Counter(
            label: Self.bumpersMissedName,
            dimensions: [("kind", kind), ("position", position.rawValue), ("reason", reason.rawValue)],
            factory: factory
        ).increment()
    }

    /// An interstitial's asset list answered. `join` is where the player said it begins
    /// (`_HLS_start_offset`): `start` (no offset, or 0), `inside` (an offset inside the list),
    /// `after` (at or past its end: nothing of it plays); `passed` the ads of the list a player
    /// joining inside passes by (it never fetches them, so they are never seen nor reported).
    func assetListAnswered(join: String, passed: Int) {
        Counter(label: Self.assetListsName, dimensions: [("join", join)], factory: factory).increment()
        if passed > 0 { Counter(label: Self.adsPassedName, factory: factory).increment(by: passed) }
    }

    /// A skip reason as a label value: one of `AvailSkipReason`'s codes, else `other` (a label
    /// never carries free text).
    static func boundedReason(_ reason: String?) -> String {
        guard let reason else { return "other" }
        return AvailSkipReason(rawValue: reason) != nil ? reason : "other"
    }
}
