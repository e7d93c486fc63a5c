import Stitching

/// What a live session keeps of one decided ad: its identity for the tracking JSON and the
/// beacon URLs of the events Seam fires or lists, in one flat list. Error and click-tracking
/// URLs, progress events and the creative URL are used at decision time and dropped, so each
/// of thousands of sessions stays small.
struct LiveAd: Sendable {
    struct Beacon: Sendable {
        var event: AdProgressEvent
        var url: String
    }

    var adID: String
    var sequence: Int?
    var title: String?
    var adSystem: String?
    var creativeID: String?
    var universalAdIDs: [String]
    var clickThrough: String?
    var verificationXML: [String]
    var beacons: [Beacon]

    init(_ ad: PlannedAd, interner: StringInterner) {
        adID = interner.intern(ad.id)
        sequence = ad.sequence
        title = ad.title.map(interner.intern)
        adSystem = ad.adSystem.map(interner.intern)
        creativeID = ad.creativeID.map(interner.intern)
        universalAdIDs = ad.universalAdIDs.map(interner.intern)
        clickThrough = ad.clickThrough.map(interner.intern)
        verificationXML = ad.verificationXML.map(interner.intern)
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
    func beaconURLs(for event: AdProgressEvent) -> [String] { urls(for: event) }
}
