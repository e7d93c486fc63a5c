/// What `GET /v1/admin/sessions/{id}` answers: one session's plan and its story — each ad
/// request and wrapper hop, each ad's verdict and reason, each avail's outcome, each server-side
/// beacon and how it was answered — so an operator can see why one viewer got the ads it got.
/// The server encodes it and `seam session` decodes it, so the two cannot drift.
public struct SessionStoryDocument: Sendable, Codable, Equatable {
    public var sessionId: String
    /// `vod` or `live`.
    public var kind: String
    /// `stitched` or `interstitials`.
    public var mode: String
    /// The content URL, its secrets redacted.
    public var contentUrl: String
    /// The main session of a picture-in-picture session.
    public var pipOf: String?
    /// The session's plan: its breaks and their ads, as the tracking JSON gives them.
    public var plan: TrackingDocument
    /// What happened, oldest first; the newest `debug.storyEntries` are kept.
    public var story: [SessionStoryEntry]
    /// Entries older than those kept, dropped.
    public var storyDropped: Int

    public init(
        sessionId: String, kind: String, mode: String, contentUrl: String, pipOf: String?,
        plan: TrackingDocument, story: [SessionStoryEntry], storyDropped: Int
    ) {
        self.sessionId = sessionId
        self.kind = kind
        self.mode = mode
        self.contentUrl = contentUrl
        self.pipOf = pipOf
        self.plan = plan
        self.story = story
        self.storyDropped = storyDropped
    }
}

/// One thing that happened to a session's ads. Which fields are set depends on `event`
/// (docs/debugging.md lists them).
public struct SessionStoryEntry: Sendable, Codable, Equatable {
    public enum Event: String, Sendable, Codable, CaseIterable {
        /// A request to the ad tag (VAST or VMAP): `url`, `outcome`, `status`, `milliseconds`, `bytes`.
        case adRequest
        /// A wrapper's VASTAdTagURI followed: the same fields as `adRequest`.
        case wrapperRequest
        /// A VAST error met: `vastErrorCode`, `detail`, and how many Error URLs it was reported to
        /// (`count`).
        case vastError
        /// An ad the ad server returned whose media Seam can play: `adId`, `seconds`, `url` (its
        /// HLS MediaFile, or the MP4 to condition).
        case adSelected
        /// An ad left out: `adId`, `reason` (a bounded code, as `seam_ads_skipped_total` counts
        /// it) and `detail` (in words).
        case adSkipped
        /// An ad that plays, with the creative it plays: `adId`, `url` (the creative),
        /// `renditions` (each content rendition and the creative rendition that plays in it).
        case creativeMatched
        /// A break decided: `breakIndex`, `outcome` (`filled` or `empty`), `reason` (the skip
        /// reason of an empty break), `seconds` (ad time placed), `count` (ads placed), `detail`.
        case avail
        /// A server-side beacon sent: `trackingEvent` (`impression`, `start`, ...), `pod` and
        /// `adIndex` (as the ad segment URLs number them), `url`, `outcome` (`sent`, `failed`,
        /// `blocked`, `dropped`), `status`, `count` (attempts), `reason`.
        case beacon
        /// An interstitial's asset list answered: `detail` (the break, and where the player said
        /// it begins: `_HLS_start_offset`, `_HLS_primary_id`), `outcome` (`start`, `inside`,
        /// `after`), `seconds` (the start offset), `count` (ads passed by before it).
        case assetList
    }

    /// ISO 8601 with milliseconds: when Seam recorded it.
    public var time: String
    public var event: Event
    /// The break (its avail id in the tracking JSON) the entry belongs to.
    public var breakIndex: Int?
    public var adId: String?
    /// Query values that carry secrets or personal data are replaced by `REDACTED`.
    public var url: String?
    public var outcome: String?
    public var status: Int?
    public var milliseconds: Int?
    public var bytes: Int?
    public var vastErrorCode: Int?
    public var reason: String?
    public var seconds: Double?
    public var count: Int?
    public var detail: String?
    /// Content rendition key (`v0`, `a0`, ...) → the creative rendition that plays in it.
    public var renditions: [String: String]?
    /// A beacon's tracking event (`impression`, `start`, `firstQuartile`, ...).
    public var trackingEvent: String?
    /// A beacon's pod and ad, numbered as the session's ad segment URLs number them
    /// (`/ad/{pod}/{ad}/...`).
    public var pod: Int?
    public var adIndex: Int?

    public init(time: String, event: Event) {
        self.time = time
        self.event = event
    }
}
