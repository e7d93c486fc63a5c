/// The client-side tracking JSON (`GET /v1/sessions/{id}/tracking`): avails with their ads and
/// beacons on the stitched timeline, and the cue points a player UI marks.
public struct TrackingDocument: Sendable, Codable, Equatable {
    public var sessionId: String
    public var trackingMode: String
    public var durationSeconds: Double
    public var avails: [Avail]
    /// Pre-roll `0`, post-roll `-1`, mid-rolls in content seconds.
    public var cuePoints: [Double]

    public struct Avail: Sendable, Codable, Equatable {
        public var availId: String
        public var position: String
        public var cuePoint: Double
        public var startTimeSeconds: Double
        public var durationSeconds: Double
        /// Why the avail plays no ads (`ADS_TIMEOUT`, `NO_FILL`, ...); absent when filled.
        public var skipReason: String?
        public var skipDetail: String?
        public var ads: [Ad]
        /// Ads the ad server returned that could not be used, with why.
        public var skippedAds: [SkippedAd]
        /// The break's own beacons (VMAP `breakStart`, `breakEnd`).
        public var trackingEvents: [TrackingEvent]
        /// Live: the program date-time of the break's first segment, when the origin gives them.
        public var programDateTime: String? = nil
        /// Live: the origin returned to content before the break was over.
        public var endedEarly: Bool? = nil
    }

    public struct Ad: Sendable, Codable, Equatable {
        public var adId: String
        public var sequence: Int?
        public var title: String?
        public var adSystem: String?
        public var creativeId: String?
        public var universalAdIds: [String]
        public var startTimeSeconds: Double
        public var durationSeconds: Double
        public var clickThrough: String?
        public var trackingEvents: [TrackingEvent]
        public var adVerifications: [String]
    }

    public struct TrackingEvent: Sendable, Codable, Equatable {
        public var event: String
        public var startTimeSeconds: Double
        /// Empty when Seam fires this event itself (server-side tracking).
        public var beaconUrls: [String]
    }

    public struct SkippedAd: Sendable, Codable, Equatable {
        public var adId: String
        public var reason: String
    }
}
