/// What one live session plays in one break, as the session record keeps it: the ads the ad
/// server chose that can play here, how they and the slate fill the break, and why ads were left
/// out. No media: each ad's creative URL names its playlists, which the session's channel keeps
/// for all its viewers (so a record stays a few hundred bytes, and another replica taking the
/// session up fetches them again by URL).
public struct LiveBreakDecision: Sendable, Codable, Equatable, LiveSessionDecision {
    public var breakNumber: Int
    /// The usable ads in pod order (`LiveBreakLayout.Slot.Source.ad(ad:)` indexes them); nil for
    /// those the layout left out, which need nothing kept.
    public var ads: [LiveAd?]
    public var layout: LiveBreakLayout
    public var skipReason: AvailSkipReason?
    public var detail: String?
    public var skippedAds: [BreakPlan.SkippedAd]
    /// VMAP `breakStart` / `breakEnd` beacons.
    public var breakStartURLs: [String]
    public var breakEndURLs: [String]
    /// Decided before the break opened (`live.prefetchSeconds`); nil: at the break.
    public var prefetched: Bool?
    /// The creative URL of each bumper the layout plays (`.bumper` slots), as configured in
    /// `bumperConfiguredURLs`; nil: none (and in records written before bumpers).
    public var bumperURLs: [Bumper.Position: String]?
    public var bumperConfiguredURLs: [Bumper.Position: String]?

    public init(
        breakNumber: Int, ads: [LiveAd?], layout: LiveBreakLayout, skipReason: AvailSkipReason? = nil,
        detail: String? = nil, skippedAds: [BreakPlan.SkippedAd] = [], breakStartURLs: [String] = [],
        breakEndURLs: [String] = []
    ) {
        self.breakNumber = breakNumber
        self.ads = ads
        self.layout = layout
        self.skipReason = skipReason
        self.detail = detail
        self.skippedAds = skippedAds
        self.breakStartURLs = breakStartURLs
        self.breakEndURLs = breakEndURLs
    }

    /// What the tracking JSON says of the break (`TrackingBuilder.live`).
    public var tracking: TrackingBuilder.LiveDecision<LiveAd> {
        TrackingBuilder.LiveDecision(
            layout: layout, ads: ads, skipReason: skipReason, detail: detail,
            skippedAds: skippedAds,
            breakStartURLs: breakStartURLs, breakEndURLs: breakEndURLs, prefetched: prefetched == true,
            bumperURLs: bumperConfiguredURLs ?? [:])
    }

    /// The creative URL of the bumper at `position` when it plays in this break.
    public func bumperURL(_ position: Bumper.Position) -> String? {
        bumperURLs?[position]
    }

    public func renumbered(_ breakNumber: Int) -> LiveBreakDecision {
        var copy = self
        copy.breakNumber = breakNumber
        return copy
    }

    /// The creative URL of ad `index` when it plays in this break.
    public func creativeURL(ofAd index: Int) -> String? {
        (ads[safe: index] ?? nil)?.creativeURL
    }

    /// A break that plays no ads, and why.
    public static func unfilled(_ number: Int, reason: AvailSkipReason, detail: String?) -> LiveBreakDecision {
        LiveBreakDecision(
            breakNumber: number, ads: [], layout: LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil),
            skipReason: reason, detail: detail)
    }

    public static func adsTimeout(breakNumber: Int, detail: String) -> LiveBreakDecision {
        .unfilled(breakNumber, reason: .adsTimeout, detail: detail)
    }
}
