import Stitching

/// What a live session keeps of one decided ad: its identity for the tracking JSON and the
/// beacon URLs of the events Seam fires or lists, in one flat list. Error and click-tracking
/// URLs, progress events and the creative URL are used at decision time and dropped, so each
/// of thousands of sessions stays small.
public struct LiveAd: Sendable, Codable, Equatable {
    public struct Beacon: Sendable, Codable, Equatable {
        public var event: AdProgressEvent
        public var url: String
    }

    public var adID: String
    public var sequence: Int?
    public var title: String?
    public var adSystem: String?
    public var creativeID: String?
    public var universalAdIDs: [String]
    public var clickThrough: String?
    public var verificationXML: [String]
    public var beacons: [Beacon]
    /// The creative (HLS) URL the ad plays from: with the channel's creative fits it gives the
    /// ad's playlists back, so a session record keeps this instead of the playlists.
    public var creativeURL: String
    /// Seconds into the ad after which it may be skipped (`PlannedAd.skipOffset`); nil when it
    /// may not. Optional in the record, so records written before it existed still decode (as
    /// unskippable ads, never as skippable ones).
    public var skipOffset: Double?

    init(_ ad: PlannedAd, creativeURL: String, interner: StringInterner) {
        self.creativeURL = interner.intern(creativeURL)
        adID = interner.intern(ad.id)
        sequence = ad.sequence
        title = ad.title.map(interner.intern)
        adSystem = ad.adSystem.map(interner.intern)
        creativeID = ad.creativeID.map(interner.intern)
        universalAdIDs = ad.universalAdIDs.map(interner.intern)
        clickThrough = ad.clickThrough.map(interner.intern)
        verificationXML = ad.verificationXML.map(interner.intern)
        skipOffset = ad.skipOffset
        var beacons: [Beacon] = []
        for event in AdProgressEvent.allCases {
            for url in ad.beaconURLs(for: event) { beacons.append(Beacon(event: event, url: interner.intern(url))) }
        }
        self.beacons = beacons
    }

    func urls(for event: AdProgressEvent) -> [String] {
        beacons.compactMap { $0.event == event ? $0.url : nil }
    }
}

extension LiveAd: TrackedAd {
    public func beaconURLs(for event: AdProgressEvent) -> [String] { urls(for: event) }
}
