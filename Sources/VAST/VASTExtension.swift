/// One `Extension` (VAST `Extensions`, VMAP `Extensions`), kept as raw XML.
///
/// Extensions are vendor-specific; Seam does not interpret them but hands them on to clients.
public struct VASTExtension: Sendable, Equatable {
    /// `type` attribute, when present.
    public var type: String?
    /// All attributes, names as written.
    public var attributes: [String: String]
    /// The element's content serialised as XML (CDATA kept, text escaped).
    public var innerXML: String

    public init(type: String? = nil, attributes: [String: String] = [:], innerXML: String) {
        self.type = type
        self.attributes = attributes
        self.innerXML = innerXML
    }
}
