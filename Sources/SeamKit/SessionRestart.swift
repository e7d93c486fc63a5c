import Foundation

/// A new session ready to replace one that expired: the same content, fallback and options, and
/// where the viewer was. Delivered with `AdEvent.sessionExpired`; the app calls `start()`, plays
/// its `playNow`, then the resolved URL, and hands `resumeContentTime` and `watchedCuePoints` to
/// the new `SeamPlayback` (`start(atContentTime:watchedCuePoints:)`) so the viewer neither
/// loses their place nor sees a break again.
public struct SessionRestart: Sendable, Equatable {
    public let contentURL: URL
    public let fallbackURL: URL?
    public let options: SessionOptions
    /// Content seconds the viewer had reached (VOD); nil for live, which rejoins at the edge.
    public let resumeContentTime: Double?
    /// Cue points of the breaks the viewer watched: the new session's breaks at those points
    /// count as watched (their ids belong to the old session; their places in the content do not
    /// change).
    public let watchedCuePoints: [Double]
    let client: SeamClient
    let ledger: BeaconLedger

    init(origin: SessionOrigin, resumeContentTime: Double?, watchedCuePoints: [Double]) {
        contentURL = origin.contentURL
        fallbackURL = origin.fallbackURL
        options = origin.options
        client = origin.client
        ledger = origin.ledger
        self.resumeContentTime = resumeContentTime
        self.watchedCuePoints = watchedCuePoints
    }

    /// Starts the new session, as `SeamClient.startSession` does.
    public func start() -> PlaybackStart {
        client.startSession(contentURL: contentURL, fallbackURL: fallbackURL, options: options, ledger: ledger)
    }

    public static func == (lhs: SessionRestart, rhs: SessionRestart) -> Bool {
        lhs.contentURL == rhs.contentURL && lhs.fallbackURL == rhs.fallbackURL && lhs.options == rhs.options
            && lhs.resumeContentTime == rhs.resumeContentTime && lhs.watchedCuePoints == rhs.watchedCuePoints
    }
}

/// What a session was started with: what a restart starts again.
struct SessionOrigin: Sendable {
    var contentURL: URL
    var fallbackURL: URL?
    var options: SessionOptions
    var client: SeamClient
    /// The beacons fired for these breaks (a pip's is its main's): a restart keeps counting in it.
    var ledger: BeaconLedger
}
