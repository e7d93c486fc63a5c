import Hummingbird
import Stitching

/// `GET /v1/admin/sessions/{id}`: one session's plan and story (`SessionStoryDocument`), for an
/// operator who needs to know why a viewer got the ads it got. Registered only when `debug.token`
/// is set (otherwise the path answers `404` like any unknown one); every request needs
/// `Authorization: Bearer <debug.token>` (`401` without). Reading a session counts as a request
/// to it, as any other does: it keeps the session alive.
struct SessionDebugRoutes: Sendable {
    let access: SessionAccess
    let token: String

    func add(to router: some RouterMethods<SeamRequestContext>) {
        router.get("/v1/admin/sessions/:id") { request, context in
            if let refusal = BearerToken(token: token, setting: "debug.token").refusal(request) { return refusal }
            let id = try SessionRoutes.sessionID(context)
            return try SessionRoutes.json(try await document(id), status: .ok)
        }
    }

    func document(_ id: SessionID) async throws(SeamError) -> SessionStoryDocument {
        let session = try await access.open(id)
        let plan = try await access.serving(session).trackingDocument()
        let story =
            try await access.stored { () async throws(SessionStoreError) in
                try await access.sessions.story.story(of: id)
            } ?? SessionStory()
        let contentURL: String
        switch session {
        case .vod(let vod): contentURL = vod.contentURL
        case .live(let live): contentURL = live.inputs.request.url
        }
        return SessionStoryDocument(
            sessionId: id.value, kind: session.kindName, mode: session.mode.rawValue,
            contentUrl: StoryURLRedaction.redacted(contentURL), pipOf: session.pipOf?.value, plan: plan,
            story: story.entries, storyDropped: story.dropped)
    }
}
