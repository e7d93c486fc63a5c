import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Stitching

/// The session API: `POST /v1/sessions`, the implicit `GET /v1/hls/{host}/{path}`,
/// `POST /v1/sessions/{id}/keepalive` and `DELETE /v1/sessions/{id}`. The answers are SeamWire's
/// `SessionCreated`, `PassThrough` and `KeepAlive`, the types SeamKit decodes, so server and
/// client cannot drift.
struct SessionAPIRoutes: Sendable {
    let access: SessionAccess
    let creation: SessionCreation
    let shared: SeamServices

    func add(to router: some RouterMethods<SeamRequestContext>) {
        router.post("/v1/sessions") { request, context in try await createSession(request, context) }
        router.get("/v1/hls/:host/**") { request, context in try await implicitSession(request, context) }
        router.get("/v1/dash/:host/**") { request, context in try await implicitSession(request, context) }
        router.post("/v1/sessions/:id/keepalive") { _, context in
            let id = try SessionRoutes.sessionID(context)
            let touched = try await access.stored { () async throws(SessionStoreError) in
                try await access.runtime.keepAlive(id, now: access.clock())
            }
            guard let expiry = touched else {
                access.analytics.sessionEnded(id, reason: .expired, at: access.clock())
                throw access.missing(id)
            }
            return try SessionRoutes.json(
                KeepAlive(
                    sessionId: id.value, expiresAt: expiry.formatted(.iso8601),
                    keepAliveSeconds: shared.configuration.sessions.keepAliveSeconds), status: .ok)
        }
        router.delete("/v1/sessions/:id") { _, context in
            let id = try SessionRoutes.sessionID(context)
            guard try await access.stored({ () async throws(SessionStoreError) in try await access.runtime.delete(id) })
            else { throw access.missing(id) }
            access.analytics.sessionEnded(id, reason: .deleted, at: access.clock())
            return Response(status: .noContent)
        }
    }

    func createSession(_ request: Request, _ context: SeamRequestContext) async throws -> Response {
        let sessionRequest: SessionRequest
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            sessionRequest = try JSONDecoder().decode(SessionRequest.self, from: body)
        } catch let error as SeamError {
            throw error
        } catch let error as DecodingError {
            throw SeamError(.invalidRequest, BodyDecodingWords.describe(error))
        } catch {
            throw SeamError(.invalidRequest, BodyDecodingWords.notJSON)
        }
        try SessionCreation.validate(sessionRequest)
        // A picture-in-picture session plays its main's (intercepted) content: never a pass-through.
        let (checked, main) = try await creation.pipMain(of: sessionRequest)
        if main == nil, !shared.domainMatcher.intercepts(url: sessionRequest.url) {
            return try SessionRoutes.json(PassThrough(manifestUrl: sessionRequest.url, intercepted: false), status: .ok)
        }
        let created: SessionCreation.Created
        switch try await creation.createTraced(checked, request, context, pipOf: main) {
        case .fallback(let redirect): return redirect
        case .created(let session): created = session
        }
        let urls = SessionURLs(baseURL: creation.addressing.baseURL(request), sessionID: created.session.id.value)
        let manifest = SessionCreation.manifestURL(of: created.session, urls: urls)
        let isDASH = manifest == urls.dashManifest
        var answer = SessionCreated(
            sessionId: created.session.id.value, manifestUrl: manifest,
            mode: created.session.mode.rawValue, stitchedManifestUrl: isDASH ? manifest : urls.multivariant,
            interstitialsManifestUrl: isDASH ? manifest : urls.interstitialsMultivariant,
            trackingUrl: urls.tracking, expiresAt: created.expiresAt.formatted(.iso8601),
            keepAliveSeconds: shared.configuration.sessions.keepAliveSeconds)
        answer.format = isDASH ? "dash" : "hls"
        var response = try SessionRoutes.json(answer, status: .created)
        response.headers[.location] = manifest
        return response
    }

    /// `GET /v1/hls/{host}/{path}`: the player's stream URL is Seam. `ads.*` query parameters
    /// become ad parameters; `seam.scheme=http` reaches plain-HTTP origins (default https);
    /// `seam.mode`, `seam.trackingMode`, `seam.pipOf` and `seam.policy.*` are the JSON body's
    /// options (see `ImplicitSessionQuery`).
    func implicitSession(_ request: Request, _ context: SeamRequestContext) async throws -> Response {
        guard let host = context.parameters.get("host"), !host.isEmpty,
            host.allSatisfy({
                $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" || $0 == "[" || $0 == "]"
            })
        else {
            throw SeamError(
                .invalidPlaybackURL,
                "the path must be /v1/hls/<origin host>/<playlist path> (or /v1/dash/<origin host>/<MPD path>)")
        }
        let path = context.parameters.getCatchAll().joined(separator: "/")
        // /v1/dash/ names an MPD, /v1/hls/ a playlist: the path's own ending says which it is.
        let isDASHRoute = request.uri.path.hasPrefix("/v1/dash/")
        guard isDASHRoute == DASHTitle.names("/" + path) else {
            throw SeamError(
                .invalidPlaybackURL,
                isDASHRoute
                    ? "/v1/dash/ plays an MPD: the path must be /v1/dash/<origin host>/<path ending in .mpd>; an HLS playlist goes under /v1/hls/"
                    : "/v1/hls/ plays an HLS playlist; an MPD goes under /v1/dash/<origin host>/<MPD path>")
        }
        // The raw query: the origin's parameters go on byte for byte (ImplicitSessionQuery).
        let query = try ImplicitSessionQuery(query: request.uri.query)
        let originURL =
            "\(query.scheme)://\(host)/\(path)"
            + (query.originQuery.isEmpty ? "" : "?" + query.originQuery.joined(separator: "&"))
        // A pip's main is looked up before the matcher: a refused pip is never answered with a
        // redirect that looks like success.
        let (sessionRequest, main) = try await creation.pipMain(of: query.sessionRequest(url: originURL))
        guard main != nil || shared.domainMatcher.intercepts(host: Self.hostWithoutPort(host)) else {
            return Response(status: .found, headers: [.location: originURL])
        }
        switch try await creation.createTraced(sessionRequest, request, context, pipOf: main) {
        case .fallback(let redirect):
            return redirect
        case .created(let created):
            let urls = SessionURLs(baseURL: creation.addressing.baseURL(request), sessionID: created.session.id.value)
            return Response(
                status: .found, headers: [.location: SessionCreation.manifestURL(of: created.session, urls: urls)])
        }
    }

    /// `example.com:8080` → `example.com`, `[2001:db8::1]:443` → `2001:db8::1`.
    static func hostWithoutPort(_ authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.split(separator: ":").first ?? "")
    }
}
