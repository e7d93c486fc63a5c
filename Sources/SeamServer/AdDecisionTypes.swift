import Stitching
import VAST

/// The session values an ad request is built from.
public struct AdRequestContext: Sendable {
    public var sessionID: String
    public var contentURL: String
    public var contentID: String?
    public var contentDurationSeconds: Double?
    public var deviceIP: String?
    public var userAgent: String?
    /// `adParams` from the session request (and `ads.*` query parameters), appended to the tag.
    public var adParameters: [String: String]
    /// Values for `{player.params.NAME}` placeholders in the template.
    public var customParameters: [String: String]
    /// Extra headers sent to the ADS.
    public var adTagHeaders: [String: String]
    public var gdpr: Bool?
    public var gdprConsent: String?
    public var allowStorage: Bool?
    public var palNonce: String?
    public var breakPosition: BreakPosition
    public var breakIndex: Int

    public init(sessionID: String, contentURL: String, breakPosition: BreakPosition = .preroll, breakIndex: Int = 0) {
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
    }
}

/// What the ad tag answered.
public enum AdTagAnswer: Sendable {
    case vmap(VMAPDocument, url: String)
    case vast(VASTDocument, url: String)
    case failed(AvailSkipReason, detail: String)
}

/// One linear ad ready for stitching: its HLS creative and everything tracking needs.
public struct ResolvedAd: Sendable, Equatable {
    public var adID: String
    public var sequence: Int?
    public var title: String?
    public var adSystem: String?
    public var creativeID: String?
    public var universalAdIDs: [String]
    /// Duration the VAST declares, seconds.
    public var duration: Double
    /// The `delivery="streaming"` HLS MediaFile (a multivariant or media playlist URL); for an
    /// ad to condition, its MP4's URL (`progressive`).
    public var hlsURL: String
    /// Set when the ad has no HLS rendition and Seam conditions its MP4 (`conditioning.directory`):
    /// the creative's identity (its universal ad id, else the MP4's URL) the conditioned result is
    /// kept under.
    public var progressive: String?
    public var impressionURLs: [String]
    /// Tracking event name (`start`, `firstQuartile`, ...) → beacon URLs, wrappers merged in.
    public var trackingURLs: [String: [String]]
    /// `progress` tracking events with their `offset` (time or percent of the ad), wrappers merged
    /// in. Kept apart from ``trackingURLs`` because a name cannot say when to fire them.
    public var progressTracking: [VASTTrackingEvent]
    public var errorURLs: [String]
    public var clickThrough: String?
    public var clickTrackingURLs: [String]
    /// `AdVerifications` as raw XML, passed to clients in the tracking JSON.
    public var verificationXML: [String]
    /// Seconds into the ad after which it may be skipped (`<Linear skipoffset>`, a percentage
    /// resolved against the declared `Duration`); nil when the ad is not skippable.
    public var skipOffset: Double?

    public init(adID: String, duration: Double, hlsURL: String) {
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
public struct AdBreakDecision: Sendable {
    public var ads: [ResolvedAd]
    /// Set when `ads` is empty.
    public var skipReason: AvailSkipReason?
    /// Ads that were in the response but cannot be stitched, with why (no HLS rendition, ...).
    public var skippedAds: [(adID: String, reason: String)]
    public var detail: String?

    public init(ads: [ResolvedAd], skipReason: AvailSkipReason? = nil, skippedAds: [(adID: String, reason: String)] = [], detail: String? = nil) {
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
        return PlannedAd(id: adID, duration: duration, creativeURL: hlsURL, sequence: sequence, title: title, adSystem: adSystem,
                         creativeID: creativeID, universalAdIDs: universalAdIDs, beacons: beacons, clickThrough: clickThrough,
                         verificationXML: verificationXML, skipOffset: skipOffset)
    }
}
