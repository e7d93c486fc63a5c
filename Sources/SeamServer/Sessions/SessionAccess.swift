import Foundation
import Logging
import Stitching

/// This replica's sessions as the routes use them: opens a session by id through the runtime
/// (its map, or the store's record taken up), serves it through `SessionServing` whatever its
/// kind, and has the runtime write a live session's state after an answer that may show a
/// change, so another replica taking the session up serves what this one served. Store trouble
/// is `503 STORE_UNAVAILABLE`; an id the store does not hold is `404` or `410` (`missing`).
struct SessionAccess: Sendable {
    let runtime: SessionRuntime
    let sessions: SessionComposition
    let analytics: SessionAnalytics
    /// The wall clock session lifetimes are counted with (stores read none); tests move it.
    let clock: @Sendable () -> Date
    let logger: Logger

    var sessionIDs: SessionIDKey { sessions.starter.sessionIDs }
    var store: any SessionStore { runtime.store }

    // MARK: Opening

    /// The session `id` names; its end is reported to analytics when it expired.
    func open(_ id: SessionID) async throws(SeamError) -> SeamSession {
        switch try await stored({ () async throws(SessionStoreError) in try await runtime.lookup(id, now: clock()) }) {
        case .found(let session): return session
        case .expired:
            analytics.sessionEnded(id, reason: .expired, at: clock())
            throw Self.gone(id)
        case .notFound: throw missing(id)
        }
    }

    /// `answer` made from session `id`, whatever its kind. For a live session its state is then
    /// written when the answer may show a change (`SessionRuntime.saveLive`: a break decided
    /// or ended); when another replica wrote the state meanwhile, the stored state is taken up and
    /// the answer made again from it.
    func serve<Value>(
        _ id: SessionID, _ answer: (any SessionServing) async throws(SeamError) -> Value
    ) async throws(SeamError) -> Value {
        var session = try await open(id)
        for _ in 0..<3 {
            let value = try await answer(serving(session))
            guard case .live(let live) = session else { return value }
            switch try await stored({ () async throws(SessionStoreError) in try await runtime.saveLive(live) }) {
            case .saved: return value
            case .superseded:
                session = try await open(id)
                guard case .live = session else { throw missing(id) }
            }
        }
        throw SeamError(
            .storeUnavailable,
            "session \(id)'s live state kept changing on another replica while this one answered; try again shortly")
    }

    /// How `session` answers: a VOD session by lookups, a live one from its timeline.
    func serving(_ session: SeamSession) -> any SessionServing {
        switch session {
        case .vod(let vod): return vod
        case .live(let live):
            return LiveSessionServing(session: live, factory: sessions.live, analytics: analytics, date: clock)
        }
    }

    // MARK: The store

    /// Runs one store operation; a store that cannot answer (a database lost or too slow) is
    /// `503 STORE_UNAVAILABLE`, said so, after at most the store's own time-out. A session the
    /// store holds that this replica could not take up answers with the reason (its origin's error).
    func stored<Value>(_ operation: () async throws(SessionStoreError) -> Value) async throws(SeamError) -> Value {
        do {
            return try await operation()
        } catch .notRevived(let error) {
            throw error
        } catch {
            logger.error("session store failed", metadata: ["error": "\(error)"])
            throw SeamError(.storeUnavailable, "\(error); try again shortly")
        }
    }

    // MARK: Missing sessions

    /// The answer for an id the store does not hold. An id this deployment issued (its check passes
    /// with the deployment's key) is a session that existed: it expired, was ended, or Seam
    /// restarted and lost its in-memory store since, so `410`, and the player starts again. Any
    /// other well-formed id was never issued here: `404`.
    func missing(_ id: SessionID) -> SeamError {
        sessionIDs.issued(id) ? Self.gone(id) : Self.notFound(id)
    }

    static func gone(_ id: SessionID) -> SeamError {
        SeamError(
            .sessionExpired,
            "session \(id) is no longer available: Seam restarted or the session expired; start playback again to get a new session"
        )
    }

    static func notFound(_ id: SessionID) -> SeamError {
        SeamError(.sessionNotFound, "no such session \(id); create one with POST /v1/sessions")
    }
}
