/// A VMAP `AdSource`: the ads of one break, given by URL or inline.
public struct VMAPAdSource: Sendable, Equatable {
    /// What the source holds.
    public enum Content: Sendable, Equatable {
        /// `AdTagURI`: fetch this URL for the VAST (or other `templateType`) response.
        case adTagURI(String, templateType: String?)
        /// `VASTAdData`: a VAST document embedded in the VMAP, already parsed.
        case vastAdData(VASTDocument)
        /// `VASTAdData` whose VAST could not be read; the break has no ads.
        case invalidVASTAdData(VASTParseError)
        /// `CustomAdData`: another ad format, kept raw.
        case customAdData(templateType: String?, innerXML: String)
        /// An `AdSource` without any of the above.
        case none
    }

    /// `id` attribute.
    public var id: String?
    /// `allowMultipleAds`: whether the response may be a pod or several ads.
    public var allowMultipleAds: Bool?
    /// `followRedirects`: whether VAST wrappers in the response may be followed.
    public var followRedirects: Bool?
    public var content: Content

    public init(id: String? = nil, allowMultipleAds: Bool? = nil, followRedirects: Bool? = nil, content: Content) {
        self.id = id
        self.allowMultipleAds = allowMultipleAds
        self.followRedirects = followRedirects
        self.content = content
    }

    /// The ad tag URL, when the source is one.
    public var adTagURI: String? {
        if case .adTagURI(let uri, _) = content { return uri }
        return nil
    }

    /// The embedded VAST document, when the source is one.
    public var vastAdData: VASTDocument? {
        if case .vastAdData(let document) = content { return document }
        return nil
    }
}
