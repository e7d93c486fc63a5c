import Foundation

/// The client-side tracking JSON (`GET /v1/sessions/{id}/tracking`): avails with their ads and
/// beacons on the stitched timeline, and the cue points a player UI marks.
public struct TrackingDocument: Sendable, Codable, Equatable {
    public var sessionId: String
    public var trackingMode: TrackingMode
    public var durationSeconds: Double
    public var avails: [Avail]
    /// Pre-roll `0`, post-roll `-1`, mid-rolls in content seconds.
    public var cuePoints: [Double]
    /// The rendering `manifestUrl` gave the player: `stitched` or `interstitials`.
    public var mode: SessionMode? = nil
    /// Both renderings of the session, each with its manifest URL: one session, one decision
    /// per break, either way of playing it.
    public var renderings: [Rendering]? = nil
    /// A picture-in-picture session: the id of the main session whose ads and beacons it shares
    /// (the root main for a pip of a pip). Sessions with the same `pipOf ?? sessionId` show the
    /// same breaks, so a client counts each of their beacons once. Absent for a main session.
    public var pipOf: String? = nil

    /// One way the session plays its ads.
    public struct Rendering: Sendable, Codable, Equatable {
        /// `stitched`: ads spliced into the playlists, `startTimeSeconds` on that stitched
        /// timeline. `interstitials`: the content as it is, each break an HLS Interstitial at its
        /// `cuePoint` (VOD) or `programDateTime` (live), its ads from `assetListUrl`.
        public var mode: SessionMode
        public var manifestUrl: String

        public init(mode: SessionMode, manifestUrl: String) {
            self.mode = mode
            self.manifestUrl = manifestUrl
        }
    }

    public init(
        sessionId: String, trackingMode: TrackingMode, durationSeconds: Double, avails: [Avail], cuePoints: [Double]
    ) {
        self.sessionId = sessionId
        self.trackingMode = trackingMode
        self.durationSeconds = durationSeconds
        self.avails = avails
        self.cuePoints = cuePoints
    }

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
        /// Live: the break was decided before it started (`live.prefetchSeconds`).
        public var prefetched: Bool? = nil
        /// VOD, titles of several renditions: how far apart (seconds) the renditions' splice
        /// points are. Demuxed audio, video and subtitles cut segments at different times, so one
        /// break cannot always start at the same instant in all of them; this is how much audio
        /// and video drift apart across it. `startTimeSeconds` is on the reference (first
        /// variant) rendition's clock.
        public var renditionOffsetSeconds: Double? = nil
        /// The break's `ID` in the interstitials rendering.
        public var interstitialId: String? = nil
        /// Its asset list (an empty `ASSETS` when the break plays no ads; `skipReason` says why).
        public var assetListUrl: String? = nil
        /// The bumpers the break plays around its ads (`ads.bumpers.*`), in play order; absent
        /// when it plays none. Not ads: no beacons, not fill, inside `durationSeconds`.
        public var bumpers: [Bumper]? = nil

        public init(
            availId: String, position: String, cuePoint: Double, startTimeSeconds: Double, durationSeconds: Double,
            skipReason: String?, skipDetail: String?, ads: [Ad], skippedAds: [SkippedAd],
            trackingEvents: [TrackingEvent]
        ) {
            self.availId = availId
            self.position = position
            self.cuePoint = cuePoint
            self.startTimeSeconds = startTimeSeconds
            self.durationSeconds = durationSeconds
            self.skipReason = skipReason
            self.skipDetail = skipDetail
            self.ads = ads
            self.skippedAds = skippedAds
            self.trackingEvents = trackingEvents
        }
    }

    /// A short clip the break plays before its first ad (`start`) or after its last (`end`): a
    /// station ident, not an ad. No beacons, no ad events, not counted as fill.
    public struct Bumper: Sendable, Codable, Equatable {
        /// `start` or `end`.
        public var position: String
        /// The clip as configured (`ads.bumpers.startURL` / `endURL`).
        public var url: String
        public var startTimeSeconds: Double
        public var durationSeconds: Double

        public init(position: String, url: String, startTimeSeconds: Double, durationSeconds: Double) {
            self.position = position
            self.url = url
            self.startTimeSeconds = startTimeSeconds
            self.durationSeconds = durationSeconds
        }
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
        /// Seconds into the ad after which the viewer may skip it (VAST `skipoffset`); absent
        /// when it may not be skipped.
        public var skipOffsetSeconds: Double? = nil

        public init(
            adId: String, sequence: Int?, title: String?, adSystem: String?, creativeId: String?,
            universalAdIds: [String],
            startTimeSeconds: Double, durationSeconds: Double, clickThrough: String?, trackingEvents: [TrackingEvent],
            adVerifications: [String]
        ) {
            self.adId = adId
            self.sequence = sequence
            self.title = title
            self.adSystem = adSystem
            self.creativeId = creativeId
            self.universalAdIds = universalAdIds
            self.startTimeSeconds = startTimeSeconds
            self.durationSeconds = durationSeconds
            self.clickThrough = clickThrough
            self.trackingEvents = trackingEvents
            self.adVerifications = adVerifications
        }
    }

    public struct TrackingEvent: Sendable, Codable, Equatable {
        public var event: String
        public var startTimeSeconds: Double
        /// Empty when Seam fires this event itself (server-side tracking).
        public var beaconUrls: [String]

        public init(event: String, startTimeSeconds: Double, beaconUrls: [String]) {
            self.event = event
            self.startTimeSeconds = startTimeSeconds
            self.beaconUrls = beaconUrls
        }
    }

    public struct SkippedAd: Sendable, Codable, Equatable {
        public var adId: String
        public var reason: String
        /// The reason as a bounded code: `wrapper_failed`, `no_playable_media`, `invalid_ad`,
        /// `pod_limit`, `conditioning`, `creative_failed`, `creative_late`, `creative_mismatch`,
        /// `does_not_fit` (docs/sessions.md).
        public var code: String?

        public init(adId: String, reason: String, code: String? = nil) {
            self.adId = adId
            self.reason = reason
            self.code = code
        }
    }
}
