/// One `Ad` of a VAST response: either an `InLine` ad with creatives, or a `Wrapper` that points at
/// another VAST response.
public struct VASTAd: Sendable, Equatable {
    /// The ad's body.
    public enum Body: Sendable, Equatable {
        case inline(VASTInline)
        case wrapper(VASTWrapper)
    }

    /// The `id` attribute.
    public var id: String?
    /// The `sequence` attribute: its position in an ad pod; nil for a stand-alone (buffet) ad.
    public var sequence: Int?
    /// The `conditionalAd` attribute (VAST 4.x).
    public var conditionalAd: Bool?
    /// The `adType` attribute (VAST 4.1+: `video`, `audio`, `hybrid`).
    public var adType: String?
    public var body: Body
    /// Wrappers followed to reach this ad (0: in the ad server's own answer); set by
    /// ``WrapperChain/merged(_:)``.
    public var wrapperDepth = 0

    public init(id: String? = nil, sequence: Int? = nil, conditionalAd: Bool? = nil, adType: String? = nil, body: Body)
    {
        self.id = id
        self.sequence = sequence
        self.conditionalAd = conditionalAd
        self.adType = adType
        self.body = body
    }

    /// The InLine body, nil for a wrapper.
    public var inline: VASTInline? {
        if case .inline(let inline) = body { return inline }
        return nil
    }

    /// The Wrapper body, nil for an InLine ad.
    public var wrapper: VASTWrapper? {
        if case .wrapper(let wrapper) = body { return wrapper }
        return nil
    }

    public var isWrapper: Bool { wrapper != nil }

    /// `AdSystem`, present in both bodies.
    public var adSystem: VASTAdSystem? {
        switch body {
        case .inline(let inline): return inline.adSystem
        case .wrapper(let wrapper): return wrapper.adSystem
        }
    }

    /// `AdTitle` (InLine only).
    public var adTitle: String? { inline?.adTitle }

    /// `Impression` beacons of either body.
    public var impressions: [VASTImpression] {
        switch body {
        case .inline(let inline): return inline.impressions
        case .wrapper(let wrapper): return wrapper.impressions
        }
    }

    /// `Error` beacons of either body.
    public var errorURLs: [String] {
        switch body {
        case .inline(let inline): return inline.errorURLs
        case .wrapper(let wrapper): return wrapper.errorURLs
        }
    }

    /// `Creatives` of either body (a wrapper's creatives carry only tracking).
    public var creatives: [VASTCreative] {
        switch body {
        case .inline(let inline): return inline.creatives
        case .wrapper(let wrapper): return wrapper.creatives
        }
    }

    /// The linear parts of the creatives, in creative order: what SSAI stitches.
    public var linears: [VASTLinear] { creatives.compactMap(\.linear) }
}
