import HLS
import Stitching

/// What one session plays in one live break: the ads the ad server chose that can play here,
/// how they and the slate fill the break, and each rendition's media for it.
struct LiveBreakDecision: Sendable {
    var breakNumber: Int
    /// The usable ads in pod order (`LiveBreakLayout.Slot.Source.ad(ad:)` indexes them); nil for
    /// those the layout left out, which need nothing kept.
    var ads: [LiveAd?]
    var layout: LiveBreakLayout
    /// Per rendition (its path form, as sessions ask): the creative rendition of each ad and the slate.
    var media: [String: LiveBreakMedia]
    var skipReason: AvailSkipReason?
    var detail: String?
    var skippedAds: [(adID: String, reason: String)]
    /// VMAP `breakStart` / `breakEnd` beacons.
    var breakStartURLs: [String] = []
    var breakEndURLs: [String] = []

    /// What the tracking JSON says of the break (`TrackingBuilder.live`).
    var tracking: TrackingBuilder.LiveDecision<LiveAd> {
        TrackingBuilder.LiveDecision(layout: layout, ads: ads, skipReason: skipReason, detail: detail, skippedAds: skippedAds,
                                     breakStartURLs: breakStartURLs, breakEndURLs: breakEndURLs)
    }

    static func unfilled(_ number: Int, reason: AvailSkipReason, detail: String?) -> LiveBreakDecision {
        LiveBreakDecision(breakNumber: number, ads: [], layout: LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil),
                          media: [:], skipReason: reason, detail: detail, skippedAds: [])
    }
}
