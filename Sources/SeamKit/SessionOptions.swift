import Foundation
import SeamWire

/// What a session asks of Seam beyond the content URL: the ad request's parameters, consent, how
/// ads are rendered and tracked, and what the viewer may do during them. Each maps to one field of
/// `POST /v1/sessions` (`SessionCreateBody`); nil leaves the server's default.
public struct SessionOptions: Sendable, Equatable {
    public typealias Consent = SessionCreateBody.Consent
    public typealias RenderingMode = SessionCreateBody.Mode
    public typealias TrackingMode = SessionCreateBody.TrackingMode
    public typealias Policy = SessionCreateBody.Policy

    /// Added to the ad request as they are.
    public var adParams: [String: String]?
    /// Custom key-values (`cust_params`).
    public var customParams: [String: String]?
    /// Headers sent with the ad request.
    public var adTagHeaders: [String: String]?
    public var contentId: String?
    /// The content's duration in seconds (sent in milliseconds).
    public var durationSeconds: Double?
    /// Google PAL's nonce.
    public var palNonce: String?
    public var consent: Consent?
    public var trackingMode: TrackingMode?
    /// `stitched` (ads in the stream) or `interstitials` (HLS Interstitials); picks the URL
    /// `PlaybackStart.resolved` gives.
    public var renderingMode: RenderingMode?
    public var policy: Policy?
    /// What SeamKit lets the viewer do around ads (`SeamPlayback` enforces it). When `policy` is
    /// nil, Seam gets its interstitials part (`AdPlaybackPolicy.serverPolicy`).
    public var adPlaybackPolicy: AdPlaybackPolicy
    /// The id of the main session this one is the picture-in-picture of: Seam shares that
    /// session's ads instead of asking the ad server again (`SeamClient.startPictureInPicture`).
    public var pipOf: String?
    /// Ad-ID date ranges in the stitched playlists (`adIdDecoration`): where each ad starts, for
    /// a player or measurement SDK that reads them; the server's default when nil.
    public var adIdDecoration: Bool?
    /// The variants this device plays (`renditions`): the session lists only those, and matches
    /// ads to them; all when nil.
    public var renditions: RenditionFilter?

    public init(
        adParams: [String: String]? = nil, customParams: [String: String]? = nil, adTagHeaders: [String: String]? = nil,
        contentId: String? = nil, durationSeconds: Double? = nil, palNonce: String? = nil, consent: Consent? = nil,
        trackingMode: TrackingMode? = nil, renderingMode: RenderingMode? = nil, policy: Policy? = nil,
        adPlaybackPolicy: AdPlaybackPolicy = AdPlaybackPolicy(), pipOf: String? = nil, adIdDecoration: Bool? = nil,
        renditions: RenditionFilter? = nil
    ) {
        self.adParams = adParams
        self.customParams = customParams
        self.adTagHeaders = adTagHeaders
        self.contentId = contentId
        self.durationSeconds = durationSeconds
        self.palNonce = palNonce
        self.consent = consent
        self.trackingMode = trackingMode
        self.renderingMode = renderingMode
        self.policy = policy
        self.adPlaybackPolicy = adPlaybackPolicy
        self.pipOf = pipOf
        self.adIdDecoration = adIdDecoration
        self.renditions = renditions
    }

    /// The request body for `contentURL`. The fallback is not sent: SeamKit plays it itself when
    /// the session fails, so Seam's `302` to it is never needed (and a `302` answering a `POST`
    /// would be followed by URLSession as a `GET` of the fallback playlist).
    public func body(contentURL: URL) -> SessionCreateBody {
        let milliseconds = durationSeconds.flatMap { seconds -> Int? in
            guard seconds.isFinite, seconds >= 0, seconds < Double(Int32.max) else { return nil }
            return Int((seconds * 1000).rounded())
        }
        return SessionCreateBody(
            url: contentURL.absoluteString, adParams: adParams, customParams: customParams,
            adTagHeaders: adTagHeaders, contentId: contentId, durationMs: milliseconds, palNonce: palNonce,
            consent: consent, mode: renderingMode, trackingMode: trackingMode, pipOf: pipOf,
            // A DASH session has no HLS Interstitials to carry the policy (SeamKit applies it on
            // the player alone); one the app sets itself is sent, and Seam says why it refuses it.
            policy: policy
                ?? (ContentFormat.isDASH(url: contentURL.absoluteString) ? nil : adPlaybackPolicy.serverPolicy),
            adIdDecoration: adIdDecoration, renditions: renditions)
    }
}
