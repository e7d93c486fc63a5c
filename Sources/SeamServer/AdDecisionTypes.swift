import Stitching
import VAST

/// The session values an ad request is built from.
package struct AdRequestContext: Sendable {
    package var sessionID: String
    package var contentURL: String
    package var contentID: String?
    package var contentDurationSeconds: Double?
    package var deviceIP: String?
    package var userAgent: String?
    /// `adParams` from the session request (and `ads.*` query parameters), appended to the tag.
    package var adParameters: [String: String]
    /// Values for `{player.params.NAME}` placeholders in the template.
    package var customParameters: [String: String]
    /// Extra headers sent to the ADS.
    package var adTagHeaders: [String: String]
    package var gdpr: Bool?
    package var gdprConsent: String?
    package var allowStorage: Bool?
    package var palNonce: String?
    package var breakPosition: BreakPosition
    package var breakIndex: Int
    /// Where the decision's steps are recorded (`seam vast resolve`); nil: not traced.
    package var trace: AdDecisionTrace?
    /// What the session streams, and so which VAST media files can play in it: HLS playlists, or
    /// MPDs for a DASH session (`AdCreativeSelector`).
    package var streamFormat: StreamFormat = .hls

    package init(sessionID: String, contentURL: String, breakPosition: BreakPosition = .preroll, breakIndex: Int = 0) {
        self.sessionID = sessionID
        self.contentURL = contentURL
        contentID = nil
        contentDurationSeconds = nil
        deviceIP = nil
        userAgent = nil
        adParameters = [:]
        customParameters = [:]
        adTagHeaders = [:]
        gdpr = nil
        gdprConsent = nil
        allowStorage = nil
        palNonce = nil
        self.breakPosition = breakPosition
        self.breakIndex = breakIndex
        trace = nil
    }
}

/// What the ad tag answered.
package enum AdTagAnswer: Sendable {
    case vmap(VMAPDocument, url: String)
    case vast(VASTDocument, url: String)
    case failed(AvailSkipReason, detail: String)
}

/// One linear ad ready for stitching: its HLS creative and everything tracking needs.
package struct ResolvedAd: Sendable, Equatable {
    package var adID: String
    package var sequence: Int?
    package var title: String?
    package var adSystem: String?
    package var creativeID: String?
    package var universalAdIDs: [String]
    /// Duration the VAST declares, seconds.
    package var duration: Double
    /// The `delivery="streaming"` HLS MediaFile (a multivariant or media playlist URL); for an
    /// ad to condition, its MP4's URL (`progressive`).
    package var hlsURL: String
    /// Set when the ad has no HLS rendition and Seam conditions its MP4 (`conditioning.directory`):
    /// the creative's identity (its universal ad id, else the MP4's URL) the conditioned result is
    /// kept under.
    package var progressive: String?
    package var impressionURLs: [String]
    /// Tracking event name (`start`, `firstQuartile`, ...) → beacon URLs, wrappers merged in.
    package var trackingURLs: [String: [String]]
    /// `progress` tracking events with their `offset` (time or percent of the ad), wrappers merged
    /// in. Kept apart from ``trackingURLs`` because a name cannot say when to fire them.
    package var progressTracking: [VASTTrackingEvent]
    package var errorURLs: [String]
    package var clickThrough: String?
    package var clickTrackingURLs: [String]
    /// `AdVerifications` as raw XML, passed to clients in the tracking JSON.
    package var verificationXML: [String]
    /// Seconds into the ad after which it may be skipped (`<Linear skipoffset>`, a percentage
    /// resolved against the declared `Duration`); nil when the ad is not skippable.
    package var skipOffset: Double?

    package init(adID: String, duration: Double, hlsURL: String) {
        self.adID = adID
        sequence = nil
        title = nil
        adSystem = nil
        creativeID = nil
        universalAdIDs = []
        self.duration = duration
        self.hlsURL = hlsURL
        impressionURLs = []
        trackingURLs = [:]
        progressTracking = []
        errorURLs = []
        clickThrough = nil
        clickTrackingURLs = []
        verificationXML = []
        skipOffset = nil
    }
}

/// The ads chosen for one break, or why there are none.
package struct AdBreakDecision: Sendable {
    package var ads: [ResolvedAd]
    /// Set when `ads` is empty.
    package var skipReason: AvailSkipReason?
    /// Ads that were in the response but cannot be stitched, with why (no HLS rendition, ...).
    package var skippedAds: [BreakPlan.SkippedAd]
    package var detail: String?

    package init(
        ads: [ResolvedAd], skipReason: AvailSkipReason? = nil, skippedAds: [BreakPlan.SkippedAd] = [],
        detail: String? = nil
    ) {
        self.ads = ads
        self.skipReason = skipReason
        self.skippedAds = skippedAds
        self.detail = detail
    }
}

extension ResolvedAd {
    /// The engine's view of the ad: what stitching and tracking need, no VAST.
    var planned: PlannedAd {
        var beacons: [AdProgressEvent: [String]] = [:]
        for event in AdProgressEvent.allCases {
            let urls = event == .impression ? impressionURLs : trackingURLs[event.rawValue] ?? []
            if !urls.isEmpty { beacons[event] = urls }
        }
        return PlannedAd(
            id: adID, duration: duration, creativeURL: hlsURL, sequence: sequence, title: title, adSystem: adSystem,
            creativeID: creativeID, universalAdIDs: universalAdIDs, beacons: beacons, clickThrough: clickThrough,
            verificationXML: verificationXML, skipOffset: skipOffset)
    }
}

/// The streaming format a session plays: what its content is, and which ad media can join it.
package enum StreamFormat: String, Sendable {
    case hls
    case dash
}
