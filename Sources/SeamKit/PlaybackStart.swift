import Foundation

/// What `SeamClient.startSession` answers at once: a URL to start playing now, and the session
/// Seam makes meanwhile. An app starts the player on `playNow`, then switches to
/// `resolved.playbackURL` when it arrives; when `resolved` throws, it keeps playing `playNow`.
public struct PlaybackStart: Sendable {
    /// The fallback URL, or the content URL when there is none (or when the content does not go
    /// through Seam, which is then the right thing to play).
    public let playNow: URL
    let resolution: Task<Result<ResolvedSession, SeamKitError>, Never>

    init(playNow: URL, resolution: Task<Result<ResolvedSession, SeamKitError>, Never>) {
        self.playNow = playNow
        self.resolution = resolution
    }

    /// The session, once Seam made it; a `SeamKitError` when it did not.
    public var resolved: ResolvedSession {
        get async throws(SeamKitError) {
            try await resolution.value.get()
        }
    }

    /// Stops waiting for the session (a session Seam already made is shut down).
    public func cancel() {
        resolution.cancel()
    }
}

/// A session Seam made: the URL to play and the handle that keeps it alive.
public struct ResolvedSession: Sendable {
    /// What a session streams, so the app picks the player for it.
    public enum Format: String, Sendable, Equatable {
        /// HLS: `playbackURL` is a multivariant playlist.
        case hls
        /// MPEG-DASH: `playbackURL` is the stitched MPD, the session's one rendering (the mode
        /// is `stitched`, and both rendering URLs name it). SeamKit's events, policy and
        /// beacons work as for HLS; for live, the playhead's date is the MPD's
        /// `availabilityStartTime` plus the player's presentation time.
        case dash
    }

    public let sessionID: String
    /// The rendering asked for: the stitched or the interstitials multivariant playlist, or
    /// the stitched MPD of a DASH session.
    public let playbackURL: URL
    public let format: Format
    public let mode: SessionOptions.RenderingMode
    public let stitchedURL: URL
    public let interstitialsURL: URL
    /// The tracking JSON (`TrackingDocument`).
    public let trackingURL: URL
    /// When the session expires unless kept alive (the handle keeps it alive).
    public let expiresAt: Date
    /// The keep-alive interval this session uses, seconds (5–10).
    public let keepAliveInterval: Double
    /// Keeps the session alive, reads its tracking, shuts it down.
    public let handle: SeamSessionHandle
    /// What started it, for a restart after expiry.
    var origin: SessionOrigin?
    /// Client-side beacons fired for this session's breaks, shared with its picture-in-picture
    /// sessions.
    public internal(set) var beaconLedger = BeaconLedger()
}
