import Foundation

/// The `201 Created` answer of `POST /v1/sessions`: where to play the session, how to track it and
/// how long it lives. The server encodes it and SeamKit decodes it, so the two cannot drift.
public struct SessionCreated: Sendable, Codable, Equatable {
    public var sessionId: String
    /// The rendering `mode` names: `stitchedManifestUrl` or `interstitialsManifestUrl`.
    public var manifestUrl: String
    /// `stitched` or `interstitials`.
    public var mode: String
    public var stitchedManifestUrl: String
    public var interstitialsManifestUrl: String
    public var trackingUrl: String
    /// ISO 8601: when the session expires unless kept alive.
    public var expiresAt: String
    /// How often a player should `POST .../keepalive` to keep the session.
    public var keepAliveSeconds: Double
    /// What the session streams: `hls`, or `dash` for an MPD (whose one rendering, the stitched
    /// MPD, both manifest URLs then name). Nil from a server that predates DASH: `hls`.
    public var format: String?

    public init(
        sessionId: String, manifestUrl: String, mode: String, stitchedManifestUrl: String,
        interstitialsManifestUrl: String,
        trackingUrl: String, expiresAt: String, keepAliveSeconds: Double
    ) {
        self.sessionId = sessionId
        self.manifestUrl = manifestUrl
        self.mode = mode
        self.stitchedManifestUrl = stitchedManifestUrl
        self.interstitialsManifestUrl = interstitialsManifestUrl
        self.trackingUrl = trackingUrl
        self.expiresAt = expiresAt
        self.keepAliveSeconds = keepAliveSeconds
    }
}

/// The `200` answer of `POST /v1/sessions` for content Seam does not intercept (its domain rules
/// leave the host alone): play `manifestUrl`, the original, as it is.
public struct PassThrough: Sendable, Codable, Equatable {
    public var manifestUrl: String
    /// Always `false`: no session was made.
    public var intercepted: Bool

    public init(manifestUrl: String, intercepted: Bool) {
        self.manifestUrl = manifestUrl
        self.intercepted = intercepted
    }
}

/// The answer of `POST /v1/sessions/{id}/keepalive`: the session's new expiry.
public struct KeepAlive: Sendable, Codable, Equatable {
    public var sessionId: String
    /// ISO 8601.
    public var expiresAt: String
    public var keepAliveSeconds: Double

    public init(sessionId: String, expiresAt: String, keepAliveSeconds: Double) {
        self.sessionId = sessionId
        self.expiresAt = expiresAt
        self.keepAliveSeconds = keepAliveSeconds
    }
}

/// Every error Seam answers: `{"error": {"code": "SESSION_NOT_FOUND", "message": "..."}}`.
public struct APIErrorBody: Sendable, Codable, Equatable {
    public struct Detail: Sendable, Codable, Equatable {
        /// Stable, upper snake case (docs/errors.md); what a client branches on.
        public var code: String
        /// For people; may change.
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var error: Detail

    public init(code: String, message: String) {
        error = Detail(code: code, message: message)
    }
}
