import Foundation

/// One thing that happened to a session, as a collector receives it: a flat JSON object whose
/// `type` says which fields it has (`docs/analytics.md` lists them). Every event names its session,
/// so a collector joins them; only `sessionStart` carries personal data (`device`), already
/// treated by the privacy mode.
package struct AnalyticsEvent: Sendable, Codable, Equatable {
    package enum Kind: String, Sendable, Codable, CaseIterable {
        case sessionStart, sessionEnd, breakDecided, adEvent, error
    }

    package var type: Kind
    /// When it happened, ISO 8601 UTC with milliseconds.
    package var time: String
    package var sessionId: String?

    // sessionStart
    package var contentUrl: String?
    package var contentId: String?
    /// `stitched` or `interstitials`: the rendering `manifestUrl` named.
    package var mode: String?
    /// `server`, `client` or `hybrid`.
    package var trackingMode: String?
    /// `vod` or `live`.
    package var playback: String?
    /// The ad parameters without the personal ones (those are in `device`).
    package var adParams: [String: String]?
    package var customParams: [String: String]?
    package var device: Device?

    // sessionEnd
    /// `deleted` (the player ended it) or `expired` (no request within `sessions.ttlSeconds`).
    package var reason: String?
    /// From the session's start to its end, seconds (Seam's clock; an expired session ends
    /// when Seam notices, at most a sweep after its time to live).
    package var durationSeconds: Double?

    // breakDecided
    package var availId: String?
    /// `preroll`, `midroll` or `postroll`.
    package var position: String?
    /// Content seconds; pre-roll 0, post-roll -1.
    package var cuePoint: Double?
    package var breakDurationSeconds: Double?
    /// Whether the break plays ads.
    package var filled: Bool?
    package var adCount: Int?
    package var adIds: [String]?
    /// Why the break plays no ads (`NO_FILL`, `ADS_TIMEOUT`, ...); absent when filled.
    package var skipReason: String?
    package var skipDetail: String?
    /// Ads the ad server returned that could not be played, with why.
    package var skippedAds: Int?

    // adEvent
    /// 1-based break number in the session and 1-based ad number in the break.
    package var breakNumber: Int?
    package var adNumber: Int?
    /// `impression`, `start`, `firstQuartile`, `midpoint`, `thirdQuartile`, `complete`.
    package var event: String?

    // error
    /// Seam's error code (`ORIGIN_UNAVAILABLE`, ...) or a skip reason for ad trouble.
    package var code: String?
    package var message: String?

    package init(type: Kind, time: Date, sessionId: String?) {
        self.type = type
        self.time = Self.format(time)
        self.sessionId = sessionId
    }

    /// The personal fields of a session start, as the privacy mode left them.
    package struct Device: Sendable, Codable, Equatable {
        /// Clear, sealed, or truncated to /24 (IPv4) or /48 (IPv6).
        package var ip: String?
        /// Clear, sealed, or a keyed hash.
        package var userAgent: String?
        /// Device-id ad parameters by name; clear, sealed, or keyed hashes.
        package var ids: [String: String]?
        /// `encrypted`: the cipher, `AES-256-GCM` (each value base64 of nonce, ciphertext and tag).
        package var encryption: String?
        /// `anonymized`: when the hash key's period began; hashes of one value match within a period.
        package var hashPeriod: String?

        package init(
            ip: String? = nil, userAgent: String? = nil, ids: [String: String]? = nil,
            encryption: String? = nil, hashPeriod: String? = nil
        ) {
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
package struct AnalyticsBatch: Sendable, Codable, Equatable {
    package static let currentVersion = 1

    package var version: Int
    /// The deployment's `analytics.privacy` mode.
    package var privacy: AnalyticsPrivacyMode
    package var events: [AnalyticsEvent]

    package init(privacy: AnalyticsPrivacyMode, events: [AnalyticsEvent]) {
        version = Self.currentVersion
        self.privacy = privacy
        self.events = events
    }

    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(self))) ?? []
    }
}
