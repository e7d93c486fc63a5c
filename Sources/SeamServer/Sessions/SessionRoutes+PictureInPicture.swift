import Foundation
import Stitching

extension SessionRoutes {
    /// The main session a request's `pipOf` names, and the request as the pip is built from it
    /// (`PipSessionFactory.checked`); nil and the request unchanged when it names none.
    ///
    /// A main that is gone is the player's to hear about, not a plain session in its place:
    /// `404 SESSION_NOT_FOUND` for an id this deployment never issued, `410 SESSION_EXPIRED` for
    /// one that expired or was ended, each saying it is the main session that is missing.
    func pipMain(of request: SessionRequest) async throws -> (request: SessionRequest, main: SeamSession?) {
        guard let id = request.pipOf else { return (request, nil) }
        switch try await stored({ () async throws(SessionStoreError) in try await store.get(id, now: clock()) }) {
        case .found(let main):
            return (try PipSessionFactory.checked(request, main: main), main)
        case .expired:
            throw Self.mainGone(id)
        case .notFound:
            throw sessions.starter.sessionIDs.issued(id) ? Self.mainGone(id) : Self.mainNotFound(id)
        }
    }

    static func mainGone(_ id: SessionID) -> SeamError {
        SeamError(.sessionExpired, "pipOf: the main session \(id) is no longer available (it expired or was ended); a picture-in-picture session plays a main session that is alive: start the main session again, then its picture-in-picture session")
    }

    static func mainNotFound(_ id: SessionID) -> SeamError {
        SeamError(.sessionNotFound, "pipOf: no main session \(id); pipOf must be the sessionId of a session created with POST /v1/sessions")
    }
}
