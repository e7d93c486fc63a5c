/// What the tracking JSON says of a played ad, whoever keeps it: a VOD session's `PlannedAd`, or
/// the slimmer copy a live session keeps per decided break.
public protocol TrackedAd: Sendable {
    var adID: String { get }
    var sequence: Int? { get }
    var title: String? { get }
    var adSystem: String? { get }
    var creativeID: String? { get }
    var universalAdIDs: [String] { get }
    var clickThrough: String? { get }
    var verificationXML: [String] { get }
    /// Seconds into the ad after which it may be skipped (VAST `skipoffset`); nil when it may not.
    var skipOffset: Double? { get }
    /// The beacons of `event` (`impression`: the impression URLs).
    func beaconURLs(for event: AdProgressEvent) -> [String]
}
