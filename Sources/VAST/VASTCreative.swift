/// A `Creative`. SSAI stitches linear creatives only, so ``linear`` is modelled in full while
/// non-linear and companion ads are only counted (the ad is still valid, and clients can be told).
public struct VASTCreative: Sendable, Equatable {
    public var id: String?
    /// `adId` attribute (spelled `AdID`/`adID` by some servers).
    public var adId: String?
    public var sequence: Int?
    public var apiFramework: String?
    /// `UniversalAdId` elements (VAST 4.x; several allowed from 4.1).
    public var universalAdIds: [VASTUniversalAdId]
    /// The `Linear` element, when this creative is linear.
    public var linear: VASTLinear?
    /// Number of `NonLinear` elements under `NonLinearAds` (not modelled).
    public var nonLinearCount: Int
    /// Number of `Companion` elements under `CompanionAds` (not modelled).
    public var companionCount: Int

    public init(
        id: String? = nil, adId: String? = nil, sequence: Int? = nil, apiFramework: String? = nil,
        universalAdIds: [VASTUniversalAdId] = [], linear: VASTLinear? = nil, nonLinearCount: Int = 0,
        companionCount: Int = 0
    ) {
        self.id = id
        self.adId = adId
        self.sequence = sequence
        self.apiFramework = apiFramework
        self.universalAdIds = universalAdIds
        self.linear = linear
        self.nonLinearCount = nonLinearCount
        self.companionCount = companionCount
    }
}
