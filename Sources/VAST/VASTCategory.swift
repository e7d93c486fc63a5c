/// `Category` (VAST 4.x): a content category code and the taxonomy (`authority`) it comes from.
public struct VASTCategory: Sendable, Hashable {
    public var authority: String?
    public var value: String

    public init(authority: String? = nil, value: String) {
        self.authority = authority
        self.value = value
    }
}
