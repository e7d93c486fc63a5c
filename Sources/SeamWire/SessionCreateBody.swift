import Foundation

/// The JSON body of `POST /v1/sessions` as a client sends it (docs/sessions.md lists each field).
/// The server decodes it strictly (`SessionRequest`); a server test decodes every field of this
/// type with it, so SeamKit cannot send what Seam would refuse. Absent fields are left out of
/// the JSON, never sent as `null`.
public struct SessionCreateBody: Sendable, Codable, Equatable {
    /// The content's multivariant playlist, absolute http(s).
    public var url: String
    /// Where Seam redirects (`302`) when the origin fails while the session is made.
    public var fallbackUrl: String?
    /// Added to the ad request as they are.
    public var adParams: [String: String]?
    /// Custom key-values for the ad request (`cust_params`).
    public var customParams: [String: String]?
    /// Headers sent with the ad request.
    public var adTagHeaders: [String: String]?
    public var contentId: String?
    /// The content's duration in milliseconds.
    public var durationMs: Int?
    /// Google PAL's nonce, passed to the ad server.
    public var palNonce: String?
    public var consent: Consent?
    /// The rendering `manifestUrl` names; the server's default (`stitched`, or per User-Agent) when absent.
    public var mode: Mode?
    /// Who fires the ad beacons; the server's configured default when absent.
    public var trackingMode: TrackingMode?
    /// The main session of a picture-in-picture session: Seam shares that session's ads and
    /// beacons (docs/sessions.md, *Picture-in-picture*).
    public var pipOf: String?
    /// What the viewer may do during ads (interstitials rendering).
    public var policy: Policy?
    /// Write one `EXT-X-DATERANGE` per ad and per break, with the ad's ids and SVTA2053 creative
    /// signaling, into the stitched playlists (docs/sessions.md, *Ad-ID decoration*); the server's
    /// `sessions.adIdDecoration` when absent.
    public var adIdDecoration: Bool?
    /// Which of the content's variants this viewer gets (a device class's limits): the
    /// multivariant playlists list only those that pass, and ads are matched to them.
    public var renditions: RenditionFilter?

    public init(
        url: String, fallbackUrl: String? = nil, adParams: [String: String]? = nil,
        customParams: [String: String]? = nil,
        adTagHeaders: [String: String]? = nil, contentId: String? = nil, durationMs: Int? = nil,
        palNonce: String? = nil,
        consent: Consent? = nil, mode: Mode? = nil, trackingMode: TrackingMode? = nil, pipOf: String? = nil,
        policy: Policy? = nil, adIdDecoration: Bool? = nil, renditions: RenditionFilter? = nil
    ) {
        self.url = url
        self.fallbackUrl = fallbackUrl
        self.adParams = adParams
        self.customParams = customParams
        self.adTagHeaders = adTagHeaders
        self.contentId = contentId
        self.durationMs = durationMs
        self.palNonce = palNonce
        self.consent = consent
        self.mode = mode
        self.trackingMode = trackingMode
        self.pipOf = pipOf
        self.policy = policy
        self.adIdDecoration = adIdDecoration
        self.renditions = renditions
    }

    /// The viewer's consent, passed to the ad server.
    public struct Consent: Sendable, Codable, Equatable {
        /// Whether GDPR applies.
        public var gdpr: Bool?
        /// The TCF consent string.
        public var gdprConsent: String?
        /// Whether the device may store identifiers (cookies, ad ids) for ads.
        public var allowStorage: Bool?

        public init(gdpr: Bool? = nil, gdprConsent: String? = nil, allowStorage: Bool? = nil) {
            self.gdpr = gdpr
            self.gdprConsent = gdprConsent
            self.allowStorage = allowStorage
        }
    }

    /// How ads reach the player (`SessionMode`).
    public typealias Mode = SessionMode
    /// Who fires the ad beacons (`TrackingMode`).
    public typealias TrackingMode = SeamWire.TrackingMode

    /// What the viewer may do during ads (`AdPolicy`).
    public typealias Policy = AdPolicy
}
