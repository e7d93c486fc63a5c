/// An `InLine` ad: everything needed to play the ad and report on it.
public struct VASTInline: Sendable, Equatable {
    public var adSystem: VASTAdSystem?
    public var adTitle: String?
    /// `AdServingId` (VAST 4.1+).
    public var adServingId: String?
    public var description: String?
    /// `Advertiser` text.
    public var advertiser: String?
    public var pricing: VASTPricing?
    public var categories: [VASTCategory]
    /// `Survey` URL (VAST 2/3).
    public var survey: String?
    /// `Impression` beacons.
    public var impressions: [VASTImpression]
    /// `Error` beacons (may contain `[ERRORCODE]`).
    public var errorURLs: [String]
    public var creatives: [VASTCreative]
    /// `AdVerifications` (VAST 4.x, or VAST 3 `Extension type="AdVerifications"`), for clients running OM SDK.
    public var verifications: [VASTVerification]
    /// `Extensions`, kept as raw XML for clients that understand them.
    public var extensions: [VASTExtension]

    public init(
        adSystem: VASTAdSystem? = nil, adTitle: String? = nil, adServingId: String? = nil, description: String? = nil,
        advertiser: String? = nil, pricing: VASTPricing? = nil, categories: [VASTCategory] = [], survey: String? = nil,
        impressions: [VASTImpression] = [], errorURLs: [String] = [], creatives: [VASTCreative] = [],
        verifications: [VASTVerification] = [], extensions: [VASTExtension] = []
    ) {
        self.adSystem = adSystem
        self.adTitle = adTitle
        self.adServingId = adServingId
        self.description = description
        self.advertiser = advertiser
        self.pricing = pricing
        self.categories = categories
        self.survey = survey
        self.impressions = impressions
        self.errorURLs = errorURLs
        self.creatives = creatives
        self.verifications = verifications
        self.extensions = extensions
    }
}
