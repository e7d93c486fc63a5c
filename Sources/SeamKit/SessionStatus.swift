import Foundation

/// What happens to a running session, as `SeamSessionHandle.statuses` reports it.
public enum SessionStatus: Sendable, Equatable {
    /// A keep-alive went through: the session now lives until `expiresAt`.
    case alive(expiresAt: Date)
    /// The session is gone: a keep-alive failed or Seam answered `410` (it expired, or Seam
    /// restarted). Keep-alives stop; start a new session to get ads again.
    case expired(SeamKitError)
    /// `shutdown()` ended the session.
    case ended
}
