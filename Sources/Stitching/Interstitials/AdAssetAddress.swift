/// Names one ad of one break as an interstitial asset: the per-session ad playlist the asset
/// list points at. `pod` counts as `AdSegmentAddress.pod` does (VOD: the filled pod's number;
/// live: the break's number), so the asset's segments reuse the stitched rendering's ad segment
/// addresses and its beacons are claimed once whichever rendering the player fetched.
public struct AdAssetAddress: Sendable, Hashable {
    public var pod: Int
    public var ad: Int

    public init(pod: Int, ad: Int) {
        self.pod = pod
        self.ad = ad
    }
}
