import Foundation

/// Why a session did not start or stopped. Playback never depends on it: `PlaybackStart.playNow`
/// stays playable whatever goes wrong, so an app can log these and carry on.
public enum SeamKitError: Error, Sendable, Equatable {
    /// `SeamClient` has no `SeamKitConfiguration`.
    case notConfigured
    /// Seam did not make the session: `status` is the HTTP status (nil when Seam was not reached),
    /// `code` Seam's error code (`INVALID_REQUEST`, `ORIGIN_UNAVAILABLE`, ...; docs/errors.md)
    /// when it answered one, `message` what went wrong.
    case sessionCreationFailed(status: Int?, code: String?, message: String)
    /// A URL to play (the content, the fallback, or one Seam answered) is not absolute http(s).
    case invalidPlaybackURL(String)
    /// The content does not go through Seam (the domain rules, SeamKit's or the server's, leave its
    /// host alone): play the original content URL.
    case notIntercepted
    /// The session is gone (a keep-alive failed or answered `410`): start a new one to get ads.
    case sessionExpired(status: Int?, code: String?, message: String)
    /// A request on a running session (tracking) failed.
    case requestFailed(status: Int?, code: String?, message: String)
}
