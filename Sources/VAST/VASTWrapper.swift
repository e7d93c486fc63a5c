/// A `Wrapper` ad: a pointer to another VAST response, plus beacons that must be merged into the
/// InLine ad found at the end of the chain (see ``WrapperChain``).
public struct VASTWrapper: Sendable, Equatable {
    public var adSystem: VASTAdSystem?
    /// `VASTAdTagURI` (or the VAST 2 `VASTAdTagURL`/`URL` form); nil when the wrapper has none.
    public var vastAdTagURI: String?
    /// `followAdditionalWrappers` (default true): whether the next response may itself be a wrapper.
    public var followAdditionalWrappers: Bool
    /// `allowMultipleAds` (default false): whether the next response may be a pod or several ads.
    public var allowMultipleAds: Bool
    /// `fallbackOnNoAd`: whether to try the next ad of a buffet when this chain ends with no ad.
    public var fallbackOnNoAd: Bool?
    public var impressions: [VASTImpression]
    public var errorURLs: [String]
    /// Creatives carrying tracking events and click tracking to merge into the InLine ad.
    public var creatives: [VASTCreative]
    public var verifications: [VASTVerification]
    public var extensions: [VASTExtension]

    public init(
        adSystem: VASTAdSystem? = nil, vastAdTagURI: String?, followAdditionalWrappers: Bool = true,
        allowMultipleAds: Bool = false, fallbackOnNoAd: Bool? = nil, impressions: [VASTImpression] = [],
        errorURLs: [String] = [], creatives: [VASTCreative] = [], verifications: [VASTVerification] = [],
        extensions: [VASTExtension] = []
    ) {
        self.adSystem = adSystem
        self.vastAdTagURI = vastAdTagURI
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
        self.impressions = impressions
        self.errorURLs = errorURLs
        self.creatives = creatives
        self.verifications = verifications
        self.extensions = extensions
    }
}
