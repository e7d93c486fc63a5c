import Foundation

/// What a player app hears about the ads of a session, in the words the SSAI SDKs it may know
/// (IMA DAI, SmartLib) use: breaks and ads starting and ending, progress, the VAST tracking
/// events as they are reached, breaks the ad server left empty, and where the breaks are.
public enum AdEvent: Sendable, Equatable {
    /// The playhead entered a break that has ads.
    case breakStarted(BreakInfo)
    /// An ad of the current break began to play.
    case adStarted(AdInfo)
    /// The playhead moved inside an ad (one per playhead sample while playing).
    case adProgress(AdInfo, elapsed: Double, duration: Double)
    /// A VAST linear event was reached while the ad played from its start.
    case tracking(AdInfo, event: AdTrackingEvent)
    /// The ad is no longer playing: `completed` when it played from its start to its end; false
    /// when a seek (or a document that no longer lists it) took the playhead out of it, or the
    /// playhead came into it past its start.
    case adEnded(AdInfo, completed: Bool)
    /// The playhead left the break (to its end, or by a seek).
    case breakEnded(BreakInfo)
    /// The playhead reached a break the server could not fill; `reason` is the tracking JSON's
    /// `skipReason` (`NO_FILL`, `ADS_TIMEOUT`, ...). Reported once per session.
    case breakSkipped(id: String, reason: String)
    /// Where the scrub bar marks breaks: pre-roll `0`, post-roll `-1`, mid-rolls in content
    /// seconds (live: seconds on the session's timeline). Sent when the list changes.
    case cuePointsChanged([Double])
    /// The viewer skipped a skippable ad (`skipAd()`); `adEnded` (not completed) follows.
    case adSkipped(AdInfo)
    /// SeamKit moved the playhead to apply the ad playback policy (a seek that owed a break, a
    /// watched break jumped, a skipped ad or break).
    case policySeek(from: Double, to: Double, reason: AdPolicyEngine.SeekReason)
    /// Something went wrong that playback survives (a tracking JSON that could not be read, a
    /// `403` from the CDN). The session goes on.
    case error(SeamKitError)
    /// The session is gone (a keep-alive failed, a playlist answered `410`). No more events
    /// follow; `restart` starts a new session with the same options at the saved position.
    case sessionExpired(SeamKitError, restart: SessionRestart)
}

/// A break as the app sees it, on the timeline the playhead runs on.
public struct BreakInfo: Sendable, Equatable, Hashable {
    /// The tracking JSON's `availId`: stable for the session, unique among its breaks.
    public var id: String
    /// `preroll`, `midroll`, `postroll` (VOD) or `live`.
    public var position: String
    /// Where the break is in the content (`0`, `-1`, seconds), as the cue points list it.
    public var cuePoint: Double
    /// Start on the session's timeline (the stitched timeline for VOD).
    public var start: Double
    public var duration: Double
    public var adCount: Int

    public init(id: String, position: String, cuePoint: Double, start: Double, duration: Double, adCount: Int) {
        self.id = id
        self.position = position
        self.cuePoint = cuePoint
        self.start = start
        self.duration = duration
        self.adCount = adCount
    }
}

/// An ad of a break, with what an app shows (title, skip button) and what OM SDK needs.
public struct AdInfo: Sendable, Equatable, Hashable {
    public var id: String
    public var title: String?
    /// Start on the session's timeline.
    public var start: Double
    public var duration: Double
    /// The ad may be skipped (VAST `skipoffset`): `skipAd()` ends it once `skipOffset` seconds
    /// of it have played.
    public var skippable: Bool
    /// Seconds into the ad after which `skipAd()` works; nil when it cannot be skipped.
    public var skipOffset: Double?
    /// Position in its break, from 0.
    public var index: Int
    /// The break's id (`BreakInfo.id`).
    public var breakId: String
    /// The VAST `AdVerifications` XML, passed through for apps that run Open Measurement.
    public var verifications: [String]

    public init(
        id: String, title: String?, start: Double, duration: Double, skippable: Bool, index: Int,
        breakId: String, verifications: [String]
    ) {
        self.id = id
        self.title = title
        self.start = start
        self.duration = duration
        self.skippable = skippable
        self.index = index
        self.breakId = breakId
        self.verifications = verifications
    }

    public init(
        id: String, title: String?, start: Double, duration: Double, skipOffset: Double?, index: Int,
        breakId: String, verifications: [String]
    ) {
        self.init(
            id: id, title: title, start: start, duration: duration, skippable: skipOffset != nil, index: index,
            breakId: breakId, verifications: verifications)
        self.skipOffset = skipOffset
    }
}

/// The VAST linear events the tracking JSON times, in the order an ad reaches them.
public typealias AdTrackingEvent = AdProgressEvent
