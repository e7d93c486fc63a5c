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

extension SeamKitError: CustomStringConvertible {
    /// What went wrong, in words for a log: the HTTP status and Seam's code when there were any.
    public var description: String {
        func answer(_ status: Int?, _ code: String?) -> String {
            switch (status, code) {
            case (let status?, let code?): return " (HTTP \(status) \(code))"
            case (let status?, nil): return " (HTTP \(status))"
            default: return ""
            }
        }
        switch self {
        case .notConfigured: return "SeamKit has no Seam configured"
        case .sessionCreationFailed(let status, let code, let message):
            return "session creation failed\(answer(status, code)): \(message)"
        case .invalidPlaybackURL(let url): return "not a playable http(s) URL: \(url)"
        case .notIntercepted: return "the content does not go through Seam: play it as it is"
        case .sessionExpired(let status, let code, let message):
            return "session expired\(answer(status, code)): \(message)"
        case .requestFailed(let status, let code, let message):
            return "request failed\(answer(status, code)): \(message)"
        }
    }
}
