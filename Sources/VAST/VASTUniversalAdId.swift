/// `UniversalAdId` (VAST 4.x): the creative's identifier in a registry such as Ad-ID, used to
/// recognise the same creative across ad servers (and so avoid showing it twice in a pod).
public struct VASTUniversalAdId: Sendable, Hashable {
    /// `idRegistry` attribute (`"unknown"` when the ad server has none).
    public var idRegistry: String
    /// The identifier: the element text (4.1+) or the VAST 4.0 `idValue` attribute.
    public var value: String

    public init(idRegistry: String, value: String) {
        self.idRegistry = idRegistry
        self.value = value
    }
}
