/// `Pricing`: the price the ad server attached to the ad.
public struct VASTPricing: Sendable, Hashable {
    /// `model` attribute (`CPM`, `CPC`, `CPE`, `CPV`), as written.
    public var model: String?
    /// `currency` attribute (ISO 4217).
    public var currency: String?
    /// The element's text, trimmed.
    public var value: String
    /// ``value`` as a number, when it is one.
    public var amount: Double? { Double(value) }

    public init(model: String? = nil, currency: String? = nil, value: String) {
        self.model = model
        self.currency = currency
        self.value = value
    }
}
