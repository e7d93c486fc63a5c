/// What a live session keeps of one decided ad: its identity for the tracking JSON and the
/// beacon URLs of the events Seam fires or lists, in one flat list. Error and click-tracking
/// URLs, progress events and the creative URL are used at decision time and dropped, so each
/// of thousands of sessions stays small.
public struct LiveAd: Sendable, Codable, Hashable {
    public struct Beacon: Sendable, Codable, Hashable {
        public var event: AdProgressEvent
        public var url: String
    }

    public var adID: String
    public var sequence: Int?
    /// `skipOffset` in milliseconds, -1 when the ad may not be skipped: 4 bytes that sit in the
    /// padding after `sequence`, where a `Double?` would add 16 to every kept ad of every session.
    private var skipOffsetMilliseconds: Int32 = -1
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
    /// Seconds into the ad after which it may be skipped (`PlannedAd.skipOffset`, to the
    /// millisecond, at most about 24 days); nil when it may not. Optional in the record, so records
    /// written before it existed still decode (as unskippable ads, never as skippable ones).
    public var skipOffset: Double? {
        get { skipOffsetMilliseconds < 0 ? nil : Double(skipOffsetMilliseconds) / 1000 }
        set {
            guard let seconds = newValue, seconds.isFinite, seconds >= 0, seconds * 1000 < Double(Int32.max) else {
                skipOffsetMilliseconds = -1
                return
            }
            skipOffsetMilliseconds = Int32((seconds * 1000).rounded())
        }
    }

    private enum CodingKeys: String, CodingKey {
        case adID, sequence, title, adSystem, creativeID, universalAdIDs, clickThrough, verificationXML, beacons,
            creativeURL, skipOffset
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        adID = try container.decode(String.self, forKey: .adID)
        sequence = try container.decodeIfPresent(Int.self, forKey: .sequence)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        adSystem = try container.decodeIfPresent(String.self, forKey: .adSystem)
        creativeID = try container.decodeIfPresent(String.self, forKey: .creativeID)
        universalAdIDs = try container.decode([String].self, forKey: .universalAdIDs)
        clickThrough = try container.decodeIfPresent(String.self, forKey: .clickThrough)
        verificationXML = try container.decode([String].self, forKey: .verificationXML)
        beacons = try container.decode([Beacon].self, forKey: .beacons)
        creativeURL = try container.decode(String.self, forKey: .creativeURL)
        skipOffset = try container.decodeIfPresent(Double.self, forKey: .skipOffset)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(adID, forKey: .adID)
        try container.encodeIfPresent(sequence, forKey: .sequence)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(adSystem, forKey: .adSystem)
        try container.encodeIfPresent(creativeID, forKey: .creativeID)
        try container.encode(universalAdIDs, forKey: .universalAdIDs)
        try container.encodeIfPresent(clickThrough, forKey: .clickThrough)
        try container.encode(verificationXML, forKey: .verificationXML)
        try container.encode(beacons, forKey: .beacons)
        try container.encode(creativeURL, forKey: .creativeURL)
        try container.encodeIfPresent(skipOffset, forKey: .skipOffset)
    }

    /// What a session keeps of `ad`, playing from `creativeURL`. `intern` gives back one shared
    /// copy of each string (the viewers of a channel mostly get the same ads).
    public init(_ ad: PlannedAd, creativeURL: String, intern: (String) -> String = { $0 }) {
        self.creativeURL = intern(creativeURL)
        adID = intern(ad.id)
        sequence = ad.sequence
        title = ad.title.map(intern)
        adSystem = ad.adSystem.map(intern)
        creativeID = ad.creativeID.map(intern)
        universalAdIDs = ad.universalAdIDs.map(intern)
        clickThrough = ad.clickThrough.map(intern)
        verificationXML = ad.verificationXML.map(intern)
        var beacons: [Beacon] = []
        // Exactly as many as there are: grown by appending, the list would keep up to twice the
        // room, in every session that plays the ad.
        beacons.reserveCapacity(AdProgressEvent.allCases.reduce(0) { $0 + ad.beaconURLs(for: $1).count })
        for event in AdProgressEvent.allCases {
            for url in ad.beaconURLs(for: event) { beacons.append(Beacon(event: event, url: intern(url))) }
        }
        self.beacons = beacons
        skipOffset = ad.skipOffset
    }
}

extension LiveAd: TrackedAd {
    public func beaconURLs(for event: AdProgressEvent) -> [String] {
        beacons.compactMap { $0.event == event ? $0.url : nil }
    }
}
