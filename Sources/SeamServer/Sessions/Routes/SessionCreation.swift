import Foundation
import Hummingbird
import Stitching

/// Starts a session for a create request (`POST /v1/sessions` or the implicit `GET /v1/hls/...`):
/// refuses what Seam could not use, takes a place in the store before the origin or the ad
/// server is asked anything, starts the session, stores it, and sends the player to the
/// fallback on origin trouble.
struct SessionCreation: Sendable {
    let access: SessionAccess
    let shared: SeamServices
    let addressing: RequestAddressing

    /// A session created: the session, and when it expires unless kept alive.
    struct Created {
        var session: SeamSession
        var expiresAt: Date
    }

    /// What a create request comes to: a session, or the redirect to the request's fallback.
    enum Outcome {
        case created(Created)
        case fallback(Response)
    }

    /// `create` inside a `session.create` span: the origin fetches, the ad decision and the
    /// creative fetches of the start are its children. Attributes: `seam.session.id`,
    /// `seam.session.kind` (`vod`, `live`), `seam.session.mode` (`stitched`, `interstitials`),
    /// `seam.session.pip` for a picture-in-picture session, and `seam.session.outcome`: `created`,
    /// `fallback` (origin trouble, the player sent to `fallbackUrl`), or the error code the player
    /// got (`ORIGIN_TIMEOUT`, `RATE_LIMITED`, ...; the span then has an error status).
    func createTraced(
        _ sessionRequest: SessionRequest, _ request: Request, _ context: SeamRequestContext,
        pipOf main: SeamSession? = nil
    ) async throws -> Outcome {
        try await shared.tracer.span("session.create") { span in
            if main != nil { span.set("seam.session.pip", "true") }
            do {
                let outcome = try await create(sessionRequest, request, context, pipOf: main)
                switch outcome {
                case .created(let created):
                    span.set("seam.session.id", created.session.id.value)
                    span.set("seam.session.kind", created.session.kindName)
                    span.set("seam.session.mode", created.session.mode.rawValue)
                    span.set("seam.session.outcome", "created")
                case .fallback:
                    span.set("seam.session.outcome", "fallback")
                }
                return outcome
            } catch {
                span.set("seam.session.outcome", TraceSpan.errorType(error))
                throw error
            }
        }
    }

    func create(
        _ sessionRequest: SessionRequest, _ request: Request, _ context: SeamRequestContext,
        pipOf main: SeamSession? = nil
    ) async throws -> Outcome {
        let store = access.store
        try addressing.refuseOwnAddress(sessionRequest.url, request)
        var sessionRequest = sessionRequest
        if DASHTitle.names(sessionRequest.url) { try Self.checkDASH(sessionRequest) }
        // The configured default is settled now and kept in the record: every replica serving
        // the session decorates it alike, whatever its own configuration.
        if sessionRequest.adIdDecoration == nil, sessionRequest.pipOf == nil,
            shared.configuration.sessions.adIdDecoration, !DASHTitle.names(sessionRequest.url)
        {
            sessionRequest.adIdDecoration = true
        }
        let inputs = SessionInputs(
            request: sessionRequest, deviceIP: addressing.deviceIP(request, context),
            userAgent: request.headers[.userAgent], baseURL: addressing.baseURL(request))
        // The place is taken before the origin or the ad server is asked anything: a full server
        // costs them nothing, and concurrent starts cannot together pass sessions.maxSessions.
        guard
            let reservation = try await access.stored({ () async throws(SessionStoreError) in try await store.reserve()
            })
        else {
            throw Self.full(store)
        }
        do {
            let session: SeamSession
            do {
                session = try await access.sessions.starter.start(inputs, pipOf: main)
            } catch {
                await store.release(reservation)
                access.analytics.startFailed(inputs, error: error, at: access.clock())
                throw error
            }
            let expiry: Date?
            do {
                expiry = try await access.runtime.insert(
                    session, inputs: inputs, into: reservation, now: access.clock())
            } catch {
                await store.release(reservation)
                shared.logger.error("session store failed", metadata: ["error": "\(error)"])
                throw SeamError(.storeUnavailable, "\(error); try again shortly")
            }
            guard let expiry else { throw Self.full(store) }
            access.analytics.sessionStarted(session, inputs: inputs, at: access.clock())
            access.sessions.story.sessionStored(session.id)
            return .created(Created(session: session, expiresAt: expiry))
        } catch let error as SeamError {
            // Origin trouble at session start: send the player to the fallback when there is one.
            if let fallback = sessionRequest.fallbackUrl,
                [.originUnavailable, .originTimeout, .originInvalidPlaylist, .originNotFound, .originNotTLS].contains(
                    error.code)
            {
                shared.logger.warning("origin failed, redirecting to fallback", metadata: ["error": "\(error)"])
                return .fallback(Response(status: .found, headers: [.location: fallback]))
            }
            throw error
        }
    }

    /// What a DASH session (an MPD `url`) cannot do, refused before anything is fetched: its one
    /// rendering is the stitched MPD, and the HLS-only options are not ignored but named.
    static func checkDASH(_ request: SessionRequest) throws(SeamError) {
        if request.mode == .interstitials {
            throw SeamError(
                .invalidRequest,
                "mode=interstitials is HLS Interstitials; a DASH session (an MPD url) is stitched: leave mode out or set it to stitched"
            )
        }
        if request.policy != nil, request.pipOf == nil {
            throw SeamError(
                .invalidRequest,
                "policy is what a viewer may do in the HLS Interstitials rendering; a DASH session (an MPD url) is stitched, its ads in the stream: leave policy out"
            )
        }
        if request.adIdDecoration == true {
            throw SeamError(
                .invalidRequest,
                "adIdDecoration writes HLS date ranges; a DASH session (an MPD url) has none: leave adIdDecoration out")
        }
    }

    static func full(_ store: any SessionStore) -> SeamError {
        SeamError(
            .rateLimited,
            "Seam holds its maximum of \(store.maxSessions) sessions (sessions.maxSessions); try again shortly")
    }

    /// Refuses what Seam could not use before anything else happens: a `url` or `fallbackUrl` that
    /// is not an absolute http(s) URL Seam can parse (any letter case of the scheme). Checking here,
    /// not in the domain matcher, means a URL Seam cannot read is a `400`, never a pass-through.
    static func validate(_ request: SessionRequest) throws(SeamError) {
        do {
            _ = try UpstreamURL(request.url)
        } catch {
            throw SeamError(
                .invalidPlaybackURL,
                "url must be an absolute http(s) URL of an HLS playlist or a DASH MPD, like https://cdn.example.com/live/master.m3u8, without spaces, user info or an escaped host; got \(SessionRequest.quoted(request.url, limit: 200))"
            )
        }
        if let fallback = request.fallbackUrl {
            do {
                _ = try UpstreamURL(fallback)
            } catch {
                throw SeamError(
                    .invalidPlaybackURL,
                    "fallbackUrl must be an absolute http(s) URL the player can be redirected to, like https://backup.example.com/master.m3u8; got \(SessionRequest.quoted(fallback, limit: 200))"
                )
            }
        }
    }

    // MARK: Picture-in-picture

    /// The main session a request's `pipOf` names, and the request as the pip is built from it
    /// (`PipSessionFactory.checked`); nil and the request unchanged when it names none.
    ///
    /// A main that is gone is the player's to hear about, not a plain session in its place:
    /// `404 SESSION_NOT_FOUND` for an id this deployment never issued, `410 SESSION_EXPIRED` for
    /// one that expired or was ended, each saying it is the main session that is missing.
    func pipMain(of request: SessionRequest) async throws -> (request: SessionRequest, main: SeamSession?) {
        guard let id = request.pipOf else { return (request, nil) }
        switch try await access.stored({ () async throws(SessionStoreError) in
            try await access.runtime.lookup(id, now: access.clock())
        }) {
        case .found(let main):
            return (try PipSessionFactory.checked(request, main: main), main)
        case .expired:
            throw Self.mainGone(id)
        case .notFound:
            throw access.sessionIDs.issued(id) ? Self.mainGone(id) : Self.mainNotFound(id)
        }
    }

    static func mainGone(_ id: SessionID) -> SeamError {
        SeamError(
            .sessionExpired,
            "pipOf: the main session \(id) is no longer available (it expired or was ended); a picture-in-picture session plays a main session that is alive: start the main session again, then its picture-in-picture session"
        )
    }

    static func mainNotFound(_ id: SessionID) -> SeamError {
        SeamError(
            .sessionNotFound,
            "pipOf: no main session \(id); pipOf must be the sessionId of a session created with POST /v1/sessions")
    }

    /// The rendering a session was created with: stitched or interstitials.
    static func manifestURL(of session: SeamSession, urls: SessionURLs) -> String {
        if session.format == .dash { return urls.dashManifest }
        return session.mode == .interstitials ? urls.interstitialsMultivariant : urls.multivariant
    }
}
