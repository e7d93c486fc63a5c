import Hummingbird

extension SessionRoutes {
    /// `create` inside a `session.create` span: the origin fetches, the ad decision and the
    /// creative fetches of the start are its children. Attributes: `seam.session.id`,
    /// `seam.session.kind` (`vod`, `live`), `seam.session.mode` (`stitched`, `interstitials`),
    /// `seam.session.pip` for a picture-in-picture session, and `seam.session.outcome`: `created`,
    /// `fallback` (origin trouble, the player sent to `fallbackUrl`), or the error code the player
    /// got (`ORIGIN_TIMEOUT`, `RATE_LIMITED`, ...; the span then has an error status).
    func createTraced(_ sessionRequest: SessionRequest, _ request: Request, _ context: SeamRequestContext,
                      pipOf main: SeamSession? = nil) async throws -> (Created?, Response?) {
        try await shared.tracer.span("session.create") { span in
            if main != nil { span.set("seam.session.pip", "true") }
            do {
                let (created, fallback) = try await create(sessionRequest, request, context, pipOf: main)
                if let created {
                    span.set("seam.session.id", created.session.id.value)
                    span.set("seam.session.kind", created.session.kindName)
                    span.set("seam.session.mode", created.session.mode.rawValue)
                    span.set("seam.session.outcome", "created")
                } else if fallback != nil {
                    span.set("seam.session.outcome", "fallback")
                }
                return (created, fallback)
            } catch {
                span.set("seam.session.outcome", TraceSpan.errorType(error))
                throw error
            }
        }
    }
}

extension SeamSession {
    /// `vod` or `live`, as traces and logs name a session's kind.
    var kindName: String {
        switch self {
        case .vod: return "vod"
        case .live: return "live"
        }
    }
}
