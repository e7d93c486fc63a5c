import Foundation

/// One thing that happened to a session, as a collector receives it: a flat JSON object whose
/// `type` says which fields it has (`docs/analytics.md` lists them). Every event names its session,
/// so a collector joins them; only `sessionStart` carries personal data (`device`), already
/// treated by the privacy mode.
public struct AnalyticsEvent: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case sessionStart, sessionEnd, breakDecided, adEvent, error
    }

    public var type: Kind
    /// When it happened, ISO 8601 UTC with milliseconds.
    public var time: String
    public var sessionId: String?

    // sessionStart
    public var contentUrl: String?
    public var contentId: String?
    /// `stitched` or `interstitials`: the rendering `manifestUrl` named.
    public var mode: String?
    /// `server`, `client` or `hybrid`.
    public var trackingMode: String?
    /// `vod` or `live`.
    public var playback: String?
    /// The ad parameters without the personal ones (those are in `device`).
    public var adParams: [String: String]?
    public var customParams: [String: String]?
    public var device: Device?

    // sessionEnd
    /// `deleted` (the player ended it) or `expired` (no request within `sessions.ttlSeconds`).
    public var reason: String?
    /// From the session's start to its end, seconds (Seam's clock; an expired session ends
    /// when Seam notices, at most a sweep after its time to live).
    public var durationSeconds: Double?

    // breakDecided
    public var availId: String?
    /// `preroll`, `midroll` or `postroll`.
    public var position: String?
    /// Content seconds; pre-roll 0, post-roll -1.
    public var cuePoint: Double?
    public var breakDurationSeconds: Double?
    /// Whether the break plays ads.
    public var filled: Bool?
    public var adCount: Int?
    public var adIds: [String]?
    /// Why the break plays no ads (`NO_FILL`, `ADS_TIMEOUT`, ...); absent when filled.
    public var skipReason: String?
    public var skipDetail: String?
    /// Ads the ad server returned that could not be played, with why.
    public var skippedAds: Int?

    // adEvent
    /// 1-based break number in the session and 1-based ad number in the break.
    public var breakNumber: Int?
    public var adNumber: Int?
    /// `impression`, `start`, `firstQuartile`, `midpoint`, `thirdQuartile`, `complete`.
    public var event: String?

    // error
    /// Seam's error code (`ORIGIN_UNAVAILABLE`, ...) or a skip reason for ad trouble.
    public var code: String?
    public var message: String?

    public init(type: Kind, time: Date, sessionId: String?) {
        self.type = type
        self.time = Self.format(time)
        self.sessionId = sessionId
    }

    /// The personal fields of a session start, as the privacy mode left them.
    public struct Device: Sendable, Codable, Equatable {
        /// Clear, sealed, or truncated to /24 (IPv4) or /48 (IPv6).
        public var ip: String?
        /// Clear, sealed, or a keyed hash.
        public var userAgent: String?
        /// Device-id ad parameters by name; clear, sealed, or keyed hashes.
        public var ids: [String: String]?
        /// `encrypted`: the cipher, `AES-256-GCM` (each value base64 of nonce, ciphertext and tag).
        public var encryption: String?
        /// `anonymized`: when the hash key's period began; hashes of one value match within a period.
        public var hashPeriod: String?

        public init(ip: String? = nil, userAgent: String? = nil, ids: [String: String]? = nil,
                    encryption: String? = nil, hashPeriod: String? = nil) {
            self.ip = ip
            self.userAgent = userAgent
            self.ids = ids
            self.encryption = encryption
            self.hashPeriod = hashPeriod
        }
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// What a collector receives in one POST: the events, and how their personal data was treated.
public struct AnalyticsBatch: Sendable, Codable, Equatable {
    public static let currentVersion = 1

    public var version: Int
    /// The deployment's `analytics.privacy` mode.
    public var privacy: AnalyticsPrivacyMode
    public var events: [AnalyticsEvent]

    public init(privacy: AnalyticsPrivacyMode, events: [AnalyticsEvent]) {
        version = Self.currentVersion
        self.privacy = privacy
        self.events = events
    }

    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(self))) ?? []
    }
}
