import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Stitching

/// The session half of Seam's HTTP surface (SEAM.md section 2).
public struct SessionRoutes: SeamRouteProvider {
    public let shared: SeamServices
    public let store: any SessionStore
    /// The session machinery, built once (`SessionComposition`).
    let sessions: SessionComposition
    /// The wall clock session lifetimes are counted with (stores read none); tests move it.
    public let clock: @Sendable () -> Date
    public let beacons: any BeaconSending
    /// Session analytics (`docs/analytics.md`); `.off` unless `analytics.endpoints` is set.
    public let analytics: SessionAnalytics
    /// Background services the routes need (the session sweeper, the beacon workers).
    public let backgroundServices: [any Service]

    public init(services: SeamServices, ads: any AdDecisionProviding, beacons: any BeaconSending,
                backgroundServices: [any Service] = [], store: (any SessionStore)? = nil,
                clock: (@Sendable () -> Date)? = nil, analytics: SessionAnalytics = .off) {
        self.analytics = analytics
        shared = services
        self.beacons = beacons
        let seamClock = services.clock
        self.clock = clock ?? { seamClock.date }
        let configuration = services.configuration
        let store = store ?? InMemorySessionStore(ttlSeconds: configuration.sessions.ttlSeconds, maxSessions: configuration.sessions.maxSessions)
        self.store = store
        sessions = SessionComposition(services: services, ads: ads)
        // A shared store takes up sessions this replica does not hold, live ones included.
        (store as? PostgresSessionStore)?.use(sessions.starter)
        self.backgroundServices = backgroundServices + [SessionSweeper(store: store, interval: .seconds(30), clock: self.clock, analytics: analytics)]
    }

    public var services: [any Service] { backgroundServices }

    /// Ready while the session store answers (`/readyz`; docs/store.md says what a balancer does).
    public func isReady() async -> Bool { await store.isReachable() }

    static let playlistType = "application/vnd.apple.mpegurl"

    public func addRoutes(to router: Router<SeamRequestContext>) {
        let router = router.group().add(middleware: CORSMiddleware())
        // CORS preflight (answered by `CORSMiddleware`). Every path needs its own OPTIONS route:
        // the router matches a path's own node before `/v1/**`, and a node without an OPTIONS
        // handler is a 404 the middleware never sees.
        let preflight: @Sendable (Request, SeamRequestContext) async throws -> Response = { _, _ in Response(status: .noContent) }
        router.on("/v1/**", method: .options, use: preflight)
        for path in Self.sessionPaths { router.on(RouterPath(stringLiteral: path), method: .options, use: preflight) }
        router.post("/v1/sessions") { request, context in try await createSession(request, context) }
        router.get("/v1/hls/:host/**") { request, context in try await implicitSession(request, context) }
        router.get("/v1/sessions/:id/master.m3u8") { request, context in
            switch try await session(context) {
            case .vod(let session):
                return playlist(session.multivariant, gzipped: session.gzippedMultivariant, for: request)
            case .live(let session):
                let multivariant = sessions.live.multivariant(session)
                return playlist(ByteBuffer(string: multivariant.serialized()), gzipped: nil, for: request)
            }
        }
        router.get("/v1/sessions/:id/media/{rendition}.m3u8") { request, context in
            let rendition = context.parameters.get("rendition") ?? ""
            let found = try await session(context)
            guard let key = SessionURLs.rendition(rendition[...]) else {
                throw SeamError(.renditionNotFound, "this session has no rendition \(rendition); use the URIs in its master.m3u8")
            }
            switch found {
            case .vod(let session):
                guard let body = session.media[key] else {
                    throw SeamError(.renditionNotFound, "this session has no rendition \(rendition); use the URIs in its master.m3u8")
                }
                return playlist(body, gzipped: session.gzipped[key], for: request)
            case .live(let session):
                // LL-HLS blocking reload parameters (_HLS_msn, _HLS_part, _HLS_skip) are ignored:
                // stitched live sessions are regular-latency HLS (docs/live.md).
                let stitched = try await servingLive(session, context) { session in
                    try await analytics.live(session, at: clock()) { () async throws(SeamError) in try await sessions.live.playlist(session, rendition: key) }
                }
                return playlist(stitched.withSerializedBytes { ByteBuffer(bytes: $0) }, gzipped: nil, for: request)
            }
        }
        router.get("/v1/sessions/:id/interstitials/master.m3u8") { request, context in
            switch try await session(context) {
            case .vod(let session):
                return playlist(session.interstitials.multivariant, gzipped: session.interstitials.gzippedMultivariant, for: request)
            case .live(let session):
                let multivariant = sessions.live.interstitialsMultivariant(session)
                return playlist(ByteBuffer(string: multivariant.serialized()), gzipped: nil, for: request)
            }
        }
        router.get("/v1/sessions/:id/interstitials/media/{rendition}.m3u8") { request, context in
            let rendition = context.parameters.get("rendition") ?? ""
            let found = try await session(context)
            let unknown = SeamError(.renditionNotFound, "this session has no rendition \(rendition); use the URIs in its interstitials/master.m3u8")
            guard let key = SessionURLs.rendition(rendition[...]) else { throw unknown }
            switch found {
            case .vod(let session):
                guard let body = session.interstitials.media[key] else { throw unknown }
                return playlist(body, gzipped: session.interstitials.gzipped[key], for: request)
            case .live(let session):
                let primary = try await servingLive(session, context) { session in
                    try await analytics.live(session, at: clock()) { () async throws(SeamError) in try await sessions.live.interstitialsPlaylist(session, rendition: key) }
                }
                return playlist(primary.withSerializedBytes { ByteBuffer(bytes: $0) }, gzipped: nil, for: request)
            }
        }
        router.get("/v1/sessions/:id/assets/{breakId}.json") { _, context in try await assetList(context) }
        router.get("/v1/sessions/:id/adplaylist/:pod/:ad/master.m3u8") { request, context in
            let found = try await session(context)
            let address = try adAssetAddress(context)
            switch found {
            case .vod(let session):
                guard let body = session.interstitials.adAssets[address] else { throw Self.noAdAsset }
                return playlist(body, gzipped: nil, for: request)
            case .live(let session):
                guard let asset = try await servingLive(session, context, { $0.adAsset(address) }) else { throw Self.noAdAsset }
                return playlist(ByteBuffer(string: asset.multivariant.serialized()), gzipped: nil, for: request)
            }
        }
        router.get("/v1/sessions/:id/adplaylist/:pod/:ad/media/{rendition}.m3u8") { request, context in
            let found = try await session(context)
            let address = try adAssetAddress(context)
            guard let key = SessionURLs.rendition((context.parameters.get("rendition") ?? "")[...]) else { throw Self.noAdAsset }
            switch found {
            case .vod(let session):
                guard let body = session.interstitials.adAssetMedia[.init(address: address, rendition: key)] else { throw Self.noAdAsset }
                return playlist(body, gzipped: nil, for: request)
            case .live(let session):
                guard let media = try await servingLive(session, context, { $0.adAsset(address)?.media[key] }) else { throw Self.noAdAsset }
                return playlist(media.withSerializedBytes { ByteBuffer(bytes: $0) }, gzipped: nil, for: request)
            }
        }
        router.get("/v1/sessions/:id/tracking") { _, context in
            switch try await session(context) {
            case .vod(let session):
                return try json(session.tracking, status: .ok)
            case .live(let session):
                return try json(try await servingLive(session, context) { $0.tracking() }, status: .ok)
            }
        }
        router.get("/v1/sessions/:id/ad/:pod/:ad/:rendition/:segment") { _, context in try await adSegment(context) }
        // The same segments as an interstitial ad asset lists them (relative to its playlist).
        router.get("/v1/sessions/:id/adplaylist/:pod/:ad/media/:rendition/:segment") { _, context in try await adSegment(context) }
        router.post("/v1/sessions/:id/keepalive") { _, context in
            let id = try sessionID(context)
            guard let expiry = try await stored({ () async throws(SessionStoreError) in try await store.touch(id, now: clock()) }) else {
                analytics.sessionEnded(id, reason: .expired, at: clock())
                throw missing(id)
            }
            return try json(KeepAlive(sessionId: id.value, expiresAt: iso8601(expiry),
                                            keepAliveSeconds: shared.configuration.sessions.keepAliveSeconds), status: .ok)
        }
        router.delete("/v1/sessions/:id") { _, context in
            let id = try sessionID(context)
            guard try await stored({ () async throws(SessionStoreError) in try await store.delete(id) }) else { throw missing(id) }
            analytics.sessionEnded(id, reason: .deleted, at: clock())
            return Response(status: .noContent)
        }
        router.get("/v1/assets/empty.vtt") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/vtt", .cacheControl: "max-age=86400"],
                     body: .init(byteBuffer: ByteBuffer(string: "WEBVTT\n\n")))
        }
        if let conditioning = sessions.planner.conditioning {
            ConditionedCreativeFiles(directory: conditioning.conditioner.settings.directory).addRoutes(to: router)
            let limiter = NIOLockedValueBox(PrefetchRateLimiter(perMinute: shared.configuration.conditioning.prefetchPerMinute))
            let clock = shared.clock
            let started = clock.now
            CreativePrefetch(conditioning: conditioning, planner: sessions.planner, content: sessions.starter.content,
                             domainMatcher: shared.domainMatcher, sessionIDs: sessions.starter.sessionIDs,
                             token: shared.configuration.conditioning.prefetchToken,
                             admit: { request, context in
                                 let client = deviceIP(request, context) ?? "unknown"
                                 let elapsed = clock.now - started
                                 let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                                 return limiter.withLockedValue { $0.admit(client, at: seconds) }
                             })
                .addRoutes(to: router, baseURL: { request in baseURL(request) })
        } else {
            router.post("/v1/creatives/prefetch") { _, _ -> Response in
                throw SeamError(.featureOff, "conditioning is off on this deployment: set conditioning.directory (docs/conditioning.md)")
            }
        }
    }

    /// Every session route's path, for the CORS preflight routes.
    static let sessionPaths = [
        "/v1/sessions", "/v1/sessions/:id", "/v1/sessions/:id/master.m3u8", "/v1/sessions/:id/media/{rendition}.m3u8",
        "/v1/sessions/:id/interstitials/master.m3u8", "/v1/sessions/:id/interstitials/media/{rendition}.m3u8",
        "/v1/sessions/:id/assets/{breakId}.json", "/v1/sessions/:id/adplaylist/:pod/:ad/master.m3u8",
        "/v1/sessions/:id/adplaylist/:pod/:ad/media/{rendition}.m3u8", "/v1/sessions/:id/adplaylist/:pod/:ad/media/:rendition/:segment",
        "/v1/sessions/:id/tracking",
        "/v1/sessions/:id/ad/:pod/:ad/:rendition/:segment", "/v1/sessions/:id/keepalive", "/v1/assets/empty.vtt",
        "/v1/hls/:host/**", "/v1/conditioned/:name/master.m3u8", "/v1/conditioned/:name/:rendition/:file",
        "/v1/creatives/prefetch",
    ]

    // MARK: Interstitials

    static let noAdAsset = SeamError(.renditionNotFound, "no such ad asset in this session; use the URIs of its asset lists (the break may have left the live window)")

    func adAssetAddress(_ context: SeamRequestContext) throws -> AdAssetAddress {
        guard let pod = context.parameters.get("pod"), let ad = context.parameters.get("ad"),
              let address = SessionURLs.adAsset(pod: pod[...], ad: ad[...]) else { throw Self.noAdAsset }
        return address
    }

    /// `GET /v1/sessions/{id}/assets/{breakId}.json`: the break's ads as HLS Interstitial
    /// assets. A break without ads answers `200` with an empty `ASSETS` (the tracking JSON says
    /// why); an id this session never had, `404`. Decisions are made before a break is
    /// signalled, so the answer never waits on the ad server.
    func assetList(_ context: SeamRequestContext) async throws -> Response {
        let found = try await session(context)
        let text = context.parameters.get("breakId") ?? ""
        let unknown = SeamError(.renditionNotFound, "this session has no ad break \(SessionRequest.quoted(text)); use the X-ASSET-LIST URLs of its interstitials playlists")
        guard let id = InterstitialBreakID(text) else { throw unknown }
        let body: ByteBuffer
        switch found {
        case .vod(let session):
            guard let stored = session.interstitials.assetLists[id] else { throw unknown }
            body = stored
        case .live(let session):
            guard let list = try await servingLive(session, context, { $0.assetList(id) }) else { throw unknown }
            body = InterstitialsRendering.json(list)
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"], body: .init(byteBuffer: body))
    }

    // MARK: Answers

    // The answers are SeamWire's `SessionCreated`, `PassThrough` and `KeepAlive`, the types
    // SeamKit decodes, so server and client cannot drift.

    func playlist(_ body: ByteBuffer, gzipped: ByteBuffer?, for request: Request) -> Response {
        if let gzipped, GzipMiddleware<SeamRequestContext>.acceptsGzip(request.headers[values: .acceptEncoding]) {
            return Response(status: .ok, headers: [.contentType: Self.playlistType, .cacheControl: "no-cache",
                                                   .contentEncoding: "gzip", .vary: "Accept-Encoding"],
                            body: .init(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: [.contentType: Self.playlistType, .cacheControl: "no-cache"], body: .init(byteBuffer: body))
    }

    func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func iso8601(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    // MARK: Lookup

    func sessionID(_ context: SeamRequestContext) throws -> SessionID {
        guard let text = context.parameters.get("id"), let id = SessionID(text[...]) else {
            throw SeamError(.sessionNotFound, "no such session; create one with POST /v1/sessions")
        }
        return id
    }

    /// The answer for an id the store does not hold. An id this deployment issued (its check passes
    /// with the deployment's key) is a session that existed: it expired, was ended, or Seam
    /// restarted and lost its in-memory store since, so `410`, and the player starts again. Any
    /// other well-formed id was never issued here: `404`.
    func missing(_ id: SessionID) -> SeamError {
        sessions.starter.sessionIDs.issued(id) ? Self.gone(id) : Self.notFound(id)
    }

    static func gone(_ id: SessionID) -> SeamError {
        SeamError(.sessionExpired, "session \(id) is no longer available: Seam restarted or the session expired; start playback again to get a new session")
    }

    static func notFound(_ id: SessionID) -> SeamError {
        SeamError(.sessionNotFound, "no such session \(id); create one with POST /v1/sessions")
    }

    func session(_ context: SeamRequestContext) async throws -> SeamSession {
        let id = try sessionID(context)
        switch try await stored({ () async throws(SessionStoreError) in try await store.get(id, now: clock()) }) {
        case .found(let session): return session
        case .expired:
            analytics.sessionEnded(id, reason: .expired, at: clock())
            throw Self.gone(id)
        case .notFound: throw missing(id)
        }
    }

    // MARK: Creation

    func baseURL(_ request: Request) -> String {
        let configured = shared.configuration.server.publicBaseURL
        if !configured.isEmpty { return configured.hasSuffix("/") ? String(configured.dropLast()) : configured }
        let host = request.head.authority ?? "\(shared.configuration.server.host):\(shared.configuration.server.port)"
        return "http://\(host)"
    }

    /// A content URL naming one of Seam's session routes at Seam's own address — the address this
    /// request reached it at, or `server.publicBaseURL` — is refused before anything is fetched
    /// (`LoopGuard`). Other paths on the same host are left alone: a CDN may serve Seam under
    /// `/v1/` and the origin beside it.
    func refuseOwnAddress(_ url: String, _ request: Request) throws(SeamError) {
        guard let content = try? UpstreamURL(url),
              LoopGuard.guards(path: String(content.pathAndQuery.prefix { $0 != "?" })) else { return }
        var own: [UpstreamURL] = []
        if let reached = request.head.authority, let parsed = try? UpstreamURL("http://" + reached) { own.append(parsed) }
        let configured = shared.configuration.server.publicBaseURL
        if !configured.isEmpty, let parsed = try? UpstreamURL(configured) { own.append(parsed) }
        guard own.contains(where: { $0.host == content.host && ($0.port == content.port || $0.explicitPort == nil && content.explicitPort == nil) }) else { return }
        throw SeamError(.loopDetected, "\(Self.quoted(url)) is this Seam's own address: a session's content is the origin's playlist, never a Seam URL")
    }

    /// The viewer's address: the peer, or what the trusted proxies in front of Seam forwarded
    /// (`TrustedProxies`, `server.trustedProxies`); always a valid IP address, never the client's word.
    func deviceIP(_ request: Request, _ context: SeamRequestContext) -> String? {
        let forwardedFor = HTTPField.Name("X-Forwarded-For").map { request.headers[values: $0] } ?? []
        let forwarded = HTTPField.Name("Forwarded").map { request.headers[values: $0] } ?? []
        return shared.trustedProxies.clientIP(peer: context.remoteIP, forwardedFor: forwardedFor, forwarded: forwarded)
    }

    /// A live session's answer, made by `answer`, after the session's state is written when the
    /// answer may show a change (`SessionStore.saveLive`: a break decided or ended), so another
    /// replica taking the session up serves what this one served. When another replica wrote the
    /// session's state meanwhile, the stored state is taken up and the answer made from it.
    func servingLive<Value>(_ session: LiveSession, _ context: SeamRequestContext,
                            _ answer: (LiveSession) async throws -> Value) async throws -> Value {
        var current = session
        for _ in 0..<3 {
            let value = try await answer(current)
            switch try await stored({ () async throws(SessionStoreError) in try await store.saveLive(current, now: clock()) }) {
            case .saved: return value
            case .superseded:
                guard case .live(let stored) = try await self.session(context) else { throw missing(session.id) }
                current = stored
            }
        }
        throw SeamError(.storeUnavailable, "session \(session.id)'s live state kept changing on another replica while this one answered; try again shortly")
    }

    /// Runs one store operation; a store that cannot answer (a database lost or too slow) is
    /// `503 STORE_UNAVAILABLE`, said so, after at most the store's own time-out. A session the
    /// store holds that this replica could not take up answers with the reason (its origin's error).
    func stored<Value>(_ operation: () async throws(SessionStoreError) -> Value) async throws(SeamError) -> Value {
        do {
            return try await operation()
        } catch .notRevived(let error) {
            throw error
        } catch {
            shared.logger.error("session store failed", metadata: ["error": "\(error)"])
            throw SeamError(.storeUnavailable, "\(error); try again shortly")
        }
    }

    /// A session created: the session, and when it expires unless kept alive.
    struct Created {
        var session: SeamSession
        var expiresAt: Date
    }

    func create(_ sessionRequest: SessionRequest, _ request: Request, _ context: SeamRequestContext,
                pipOf main: SeamSession? = nil) async throws -> (Created?, Response?) {
        try refuseOwnAddress(sessionRequest.url, request)
        let inputs = SessionInputs(request: sessionRequest, deviceIP: deviceIP(request, context),
                                           userAgent: request.headers[.userAgent], baseURL: baseURL(request))
        // The place is taken before the origin or the ad server is asked anything: a full server
        // costs them nothing, and concurrent starts cannot together pass sessions.maxSessions.
        guard let reservation = try await stored({ () async throws(SessionStoreError) in try await store.reserve() }) else {
            throw SeamError(.rateLimited, "Seam holds its maximum of \(store.maxSessions) sessions (sessions.maxSessions); try again shortly")
        }
        do {
            let session: SeamSession
            do {
                session = try await sessions.starter.start(inputs, pipOf: main)
            } catch {
                await store.release(reservation)
                analytics.startFailed(inputs, error: error, at: clock())
                throw error
            }
            let expiry: Date?
            do {
                expiry = try await store.put(session, inputs: inputs, into: reservation, now: clock())
            } catch {
                await store.release(reservation)
                shared.logger.error("session store failed", metadata: ["error": "\(error)"])
                throw SeamError(.storeUnavailable, "\(error); try again shortly")
            }
            guard let expiry else {
                throw SeamError(.rateLimited, "Seam holds its maximum of \(store.maxSessions) sessions (sessions.maxSessions); try again shortly")
            }
            analytics.sessionStarted(session, inputs: inputs, at: clock())
            return (Created(session: session, expiresAt: expiry), nil)
        } catch let error as SeamError {
            // Origin trouble at session start: send the player to the fallback when there is one.
            if let fallback = sessionRequest.fallbackUrl, [.originUnavailable, .originTimeout, .originInvalidPlaylist].contains(error.code) {
                shared.logger.warning("origin failed, redirecting to fallback", metadata: ["error": "\(error)"])
                return (nil, Response(status: .found, headers: [.location: fallback]))
            }
            throw error
        }
    }

    func createSession(_ request: Request, _ context: SeamRequestContext) async throws -> Response {
        let sessionRequest: SessionRequest
        do {
            sessionRequest = try await request.decode(as: SessionRequest.self, context: context)
        } catch let error as SeamError {
            throw error
        } catch {
            throw SeamError(.invalidRequest, "the body must be JSON with at least {\"url\": \"https://.../master.m3u8\"}: \(error)")
        }
        try Self.validate(sessionRequest)
        // A picture-in-picture session plays its main's (intercepted) content: never a pass-through.
        let (checked, main) = try await pipMain(of: sessionRequest)
        if main == nil, !shared.domainMatcher.intercepts(url: sessionRequest.url) {
            return try json(PassThrough(manifestUrl: sessionRequest.url, intercepted: false), status: .ok)
        }
        let (created, fallback) = try await createTraced(checked, request, context, pipOf: main)
        if let fallback { return fallback }
        guard let created else { throw SeamError(.internalError, "session creation produced nothing") }
        let urls = SessionURLs(baseURL: baseURL(request), sessionID: created.session.id.value)
        let manifest = Self.manifestURL(of: created.session, urls: urls)
        var response = try json(SessionCreated(sessionId: created.session.id.value, manifestUrl: manifest,
                                              mode: created.session.mode.rawValue, stitchedManifestUrl: urls.multivariant,
                                              interstitialsManifestUrl: urls.interstitialsMultivariant,
                                              trackingUrl: urls.tracking, expiresAt: iso8601(created.expiresAt),
                                              keepAliveSeconds: shared.configuration.sessions.keepAliveSeconds), status: .created)
        response.headers[.location] = manifest
        return response
    }

    /// Refuses what Seam could not use before anything else happens: a `url` or `fallbackUrl` that
    /// is not an absolute http(s) URL Seam can parse (any letter case of the scheme). Checking here,
    /// not in the domain matcher, means a URL Seam cannot read is a `400`, never a pass-through.
    static func validate(_ request: SessionRequest) throws(SeamError) {
        do {
            _ = try UpstreamURL(request.url)
        } catch {
            throw SeamError(.invalidPlaybackURL, "url must be an absolute http(s) URL of an HLS playlist, like https://cdn.example.com/live/master.m3u8, without spaces, user info or an escaped host; got \(quoted(request.url))")
        }
        if let fallback = request.fallbackUrl {
            do {
                _ = try UpstreamURL(fallback)
            } catch {
                throw SeamError(.invalidPlaybackURL, "fallbackUrl must be an absolute http(s) URL the player can be redirected to, like https://backup.example.com/master.m3u8; got \(quoted(fallback))")
            }
        }
    }

    /// A client-supplied URL for an error message: cut short, control characters escaped.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 200 ? String(text.prefix(200)) + "…" : text
        return "\"" + shown.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }

    /// `GET /v1/hls/{host}/{path}`: the player's stream URL is Seam. `ads.*` query parameters
    /// become ad parameters; `seam.scheme=http` reaches plain-HTTP origins (default https);
    /// `seam.mode`, `seam.trackingMode`, `seam.pipOf` and `seam.policy.*` are the JSON body's
    /// options (see `ImplicitSessionQuery`).
    func implicitSession(_ request: Request, _ context: SeamRequestContext) async throws -> Response {
        guard let host = context.parameters.get("host"), !host.isEmpty,
              host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" || $0 == "[" || $0 == "]" }) else {
            throw SeamError(.invalidPlaybackURL, "the path must be /v1/hls/<origin host>/<playlist path>")
        }
        let path = context.parameters.getCatchAll().joined(separator: "/")
        // The raw query: the origin's parameters go on byte for byte (ImplicitSessionQuery).
        let query = try ImplicitSessionQuery(query: request.uri.query)
        let originURL = "\(query.scheme)://\(host)/\(path)" + (query.originQuery.isEmpty ? "" : "?" + query.originQuery.joined(separator: "&"))
        // A pip's main is looked up before the matcher: a refused pip is never answered with a
        // redirect that looks like success.
        let (sessionRequest, main) = try await pipMain(of: query.sessionRequest(url: originURL))
        guard main != nil || shared.domainMatcher.intercepts(host: Self.hostWithoutPort(host)) else {
            return Response(status: .found, headers: [.location: originURL])
        }
        let (created, fallback) = try await createTraced(sessionRequest, request, context, pipOf: main)
        if let fallback { return fallback }
        guard let created else { throw SeamError(.internalError, "session creation produced nothing") }
        let urls = SessionURLs(baseURL: baseURL(request), sessionID: created.session.id.value)
        return Response(status: .found, headers: [.location: Self.manifestURL(of: created.session, urls: urls)])
    }

    /// The rendering a session was created with: stitched or interstitials.
    static func manifestURL(of session: SeamSession, urls: SessionURLs) -> String {
        session.mode == .interstitials ? urls.interstitialsMultivariant : urls.multivariant
    }

    /// `example.com:8080` → `example.com`, `[2001:db8::1]:443` → `2001:db8::1`.
    static func hostWithoutPort(_ authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.split(separator: ":").first ?? "")
    }

    // MARK: Server-side tracking

    /// An ad segment fetch: fire the events this segment crosses (once per ad, whatever the
    /// rendition or re-fetch), then redirect to the ad CDN.
    func adSegment(_ context: SeamRequestContext) async throws -> Response {
        let found = try await session(context)
        guard let podText = context.parameters.get("pod"), let adText = context.parameters.get("ad"),
              let rendition = context.parameters.get("rendition"), let segment = context.parameters.get("segment"),
              let address = SessionURLs.adSegment(pod: podText[...], ad: adText[...], rendition: rendition[...], segment: segment[...]) else {
            throw SeamError(.renditionNotFound, "no such ad segment in this session")
        }
        let (pod, ad) = (address.pod, address.ad)
        let target: (url: String, events: [AdProgressEvent], beacons: [AdProgressEvent: [String]])
        switch found {
        case .vod(let session):
            guard let known = session.adSegments[address] else {
                throw SeamError(.renditionNotFound, "no such ad segment in this session")
            }
            var beacons: [AdProgressEvent: [String]] = [:]
            for event in known.events { beacons[event] = session.beacons[.init(pod: pod, ad: ad, event: event)] ?? [] }
            target = (known.url, known.events, beacons)
        case .live(let session):
            guard let known = session.adSegment(breakNumber: pod, ad: ad, rendition: address.rendition.path, segment: address.segment) else {
                throw SeamError(.renditionNotFound, "no such ad segment in this session (its break may have left the live window)")
            }
            target = known
        }
        if !target.events.isEmpty {
            let fresh = try await stored({ () async throws(SessionStoreError) in
                try await store.claimBeacons(target.events, breakNumber: pod, ad: ad, in: found.id)
            })
            for event in fresh {
                let urls = target.beacons[event] ?? []
                if !urls.isEmpty { beacons.send(urls, context: "\(found.id) pod \(pod) ad \(ad) \(event.rawValue)") }
            }
            analytics.adEvents(fresh, session: found.id, breakNumber: pod, ad: ad, at: clock())
        }
        return Response(status: .found, headers: [.location: target.url, .cacheControl: "no-cache"])
    }
}

/// Drops expired sessions now and then, so memory follows the viewers who are still watching.
struct SessionSweeper: Service {
    let store: any SessionStore
    let interval: Duration
    let clock: @Sendable () -> Date
    var analytics: SessionAnalytics = .off

    func run() async throws {
        // Stop at once on graceful shutdown, not after the current sleep.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                // A store that cannot answer now is swept at the next turn.
                let now = clock()
                for id in (try? await store.expireSessions(now: now)) ?? [] { analytics.sessionEnded(id, reason: .expired, at: now) }
            }
        }
    }
}
