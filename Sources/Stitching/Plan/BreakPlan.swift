/// What a VOD session plays in its breaks, in content order: each break's position, the ads that
/// play with their creatives, the ads left out and why, and why a break plays none.
public struct BreakPlan: Sendable {
    /// An ad that plays, with the creative fetched for it.
    public struct Ad: Sendable {
        public var ad: PlannedAd
        public var creative: AdCreative

        public init(ad: PlannedAd, creative: AdCreative) {
            self.ad = ad
            self.creative = creative
        }
    }

    /// An ad the ad server returned that does not play, and why.
    public struct SkippedAd: Sendable, Hashable, Codable {
        public var adID: String
        public var reason: String
        /// The reason as a bounded code (nil in records written before codes existed).
        public var code: AdSkipCode?

        public init(adID: String, reason: String, code: AdSkipCode? = nil) {
            self.adID = adID
            self.reason = reason
            self.code = code
        }
    }

    public struct Break: Sendable {
        public var position: BreakPosition
        /// The break's own length when its marker gives one (`EXT-X-CUE-OUT:30`, a date range's
        /// planned duration): the pod never runs longer.
        public var plannedSeconds: Double?
        /// In pod order; empty when the break plays content.
        public var ads: [Ad]
        public var skippedAds: [SkippedAd]
        /// Why no ad plays (set when `ads` is empty).
        public var skipReason: AvailSkipReason?
        public var skipDetail: String?
        /// VMAP `breakStart` / `breakEnd` beacons of the break.
        public var breakStartURLs: [String]
        public var breakEndURLs: [String]
        /// The bumpers around the ads (at most one `start`, one `end`); played only when ads are.
        public var bumpers: [Bumper] = []

        public init(
            position: BreakPosition, plannedSeconds: Double? = nil, ads: [Ad] = [], skippedAds: [SkippedAd] = [],
            skipReason: AvailSkipReason? = nil, skipDetail: String? = nil,
            breakStartURLs: [String] = [], breakEndURLs: [String] = []
        ) {
            self.position = position
            self.plannedSeconds = plannedSeconds
            self.ads = ads
            self.skippedAds = skippedAds
            self.skipReason = skipReason
            self.skipDetail = skipDetail
            self.breakStartURLs = breakStartURLs
            self.breakEndURLs = breakEndURLs
        }

        public var isFilled: Bool { !ads.isEmpty }
    }

    public var breaks: [Break]

    public init(breaks: [Break]) {
        self.breaks = breaks
    }

    /// The breaks that play ads, in order: the pods the splicer inserts (pod numbers count these).
    public var filled: [Break] { breaks.filter(\.isFilled) }
}

extension BreakPlan.SkippedAd {
    /// As the tracking JSON lists it.
    public var tracked: TrackingDocument.SkippedAd {
        TrackingDocument.SkippedAd(adId: adID, reason: reason, code: code?.rawValue)
    }
}
