/// One decided ad as the engine sees it: who it is for the tracking JSON, how long it runs, where
/// its creative is, and its beacons per event. The server maps the ad server's answer (VAST) into
/// it, so the engine never reads VAST.
public struct PlannedAd: Sendable, Equatable {
    public var id: String
    public var sequence: Int?
    public var title: String?
    public var adSystem: String?
    public var creativeID: String?
    public var universalAdIDs: [String]
    /// The duration the ad server declares, seconds (pod caps are applied by it, before any fetch).
    public var duration: Double
    /// The HLS creative (a multivariant or media playlist URL).
    public var creativeURL: String
    /// Beacon URLs per event (`impression` holds the impressions), wrappers merged in.
    public var beacons: [AdProgressEvent: [String]]
    public var clickThrough: String?
    /// `AdVerifications` as raw XML, passed to clients in the tracking JSON.
    public var verificationXML: [String]
    /// Seconds into the ad after which the viewer may skip it (VAST `<Linear skipoffset>`, a
    /// percentage already resolved against the ad's declared duration); nil when the ad is not
    /// skippable. Never guessed: an ad the ad server did not mark skippable stays nil, so no
    /// player is told it may skip an ad the advertiser paid to have watched.
    public var skipOffset: Double?

    public init(
        id: String, duration: Double, creativeURL: String, sequence: Int? = nil, title: String? = nil,
        adSystem: String? = nil, creativeID: String? = nil, universalAdIDs: [String] = [],
        beacons: [AdProgressEvent: [String]] = [:], clickThrough: String? = nil, verificationXML: [String] = [],
        skipOffset: Double? = nil
    ) {
        self.id = id
        self.sequence = sequence
        self.title = title
        self.adSystem = adSystem
        self.creativeID = creativeID
        self.universalAdIDs = universalAdIDs
        self.duration = duration
        self.creativeURL = creativeURL
        self.beacons = beacons
        self.clickThrough = clickThrough
        self.verificationXML = verificationXML
        self.skipOffset = skipOffset
    }
}

extension PlannedAd: TrackedAd {
    public var adID: String { id }

    public func beaconURLs(for event: AdProgressEvent) -> [String] { beacons[event] ?? [] }
}
