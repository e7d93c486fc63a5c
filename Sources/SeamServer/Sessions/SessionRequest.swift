/// The JSON body of `POST /v1/sessions`.
public struct SessionRequest: Sendable, Codable {
    public var url: String
    public var fallbackUrl: String?
    public var adParams: [String: String]?
    public var customParams: [String: String]?
    public var adTagHeaders: [String: String]?
    public var contentId: String?
    public var durationMs: Int?
    public var palNonce: String?
    public var consent: Consent?
    /// `stitched` (default) or `interstitials`.
    public var mode: String?
    /// `server`, `client` or `hybrid`; the configured default when absent.
    public var trackingMode: String?
    public var pipOf: String?
    public var policy: [String: String]?

    public struct Consent: Sendable, Codable {
        public var gdpr: Bool?
        public var gdprConsent: String?
        public var allowStorage: Bool?
    }

    public init(url: String) {
        self.url = url
    }
}
