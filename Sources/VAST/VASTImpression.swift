/// An `Impression` beacon URL with its optional `id`.
///
/// URLs are kept as strings: they usually contain IAB macros (`[CACHEBUSTING]`) that are not valid
/// URL characters until ``VASTMacros`` has replaced them.
public struct VASTImpression: Sendable, Hashable {
    public var id: String?
    public var url: String

    public init(id: String? = nil, url: String) {
        self.id = id
        self.url = url
    }
}
