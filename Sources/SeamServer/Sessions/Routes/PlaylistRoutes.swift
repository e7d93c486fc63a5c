import Hummingbird
import NIOCore
import Stitching

/// A session's playlists and documents: both renderings' multivariant and media playlists, the
/// interstitial asset lists and ad assets, and the tracking JSON. Each is asked of the session
/// through `SessionServing`, whatever its kind.
struct PlaylistRoutes: Sendable {
    let access: SessionAccess

    static let playlistType = "application/vnd.apple.mpegurl"
    static let mpdType = "application/dash+xml"

    func add(to router: some RouterMethods<SeamRequestContext>) {
        for rendering in SessionMode.allCases {
            let prefix = rendering == .interstitials ? "/v1/sessions/:id/interstitials" : "/v1/sessions/:id"
            router.get(RouterPath(stringLiteral: prefix + "/master.m3u8")) { request, context in
                let body = try await access.serve(try SessionRoutes.sessionID(context)) {
                    session async throws(SeamError) in
                    try await session.multivariant(rendering)
                }
                return Self.playlist(body, for: request)
            }
            router.get(RouterPath(stringLiteral: prefix + "/media/{rendition}.m3u8")) { request, context in
                let id = try SessionRoutes.sessionID(context)
                let text = context.parameters.get("rendition") ?? ""
                guard let key = SessionURLs.rendition(text[...]) else {
                    _ = try await access.open(id)
                    throw SessionAnswerError.noRendition(text, rendering)
                }
                let body = try await access.serve(id) { session async throws(SeamError) in
                    try await session.media(rendering, rendition: key)
                }
                return Self.playlist(body, for: request)
            }
        }
        // The same list whatever `_HLS_start_offset` says (`AssetListQuery`); it is counted.
        router.get("/v1/sessions/:id/assets/{breakId}.json") { request, context in
            let id = try SessionRoutes.sessionID(context)
            let text = context.parameters.get("breakId") ?? ""
            let query = try AssetListQuery(request.uri.queryParameters)
            guard let breakID = InterstitialBreakID(text) else {
                _ = try await access.open(id)
                throw SessionAnswerError.noBreak(text)
            }
            let body = try await access.serve(id) { session async throws(SeamError) in
                try await session.assetList(breakID)
            }
            access.assetListAnswered(id, breakID: breakID, query: query, body: body)
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                body: .init(byteBuffer: body))
        }
        router.get("/v1/sessions/:id/adplaylist/:pod/:ad/master.m3u8") { request, context in
            let id = try SessionRoutes.sessionID(context)
            let address = try await adAssetAddress(id, context)
            let body = try await access.serve(id) { session async throws(SeamError) in
                try await session.adAsset(address)
            }
            return Self.playlist(PlaylistBody(bytes: body), for: request)
        }
        router.get("/v1/sessions/:id/adplaylist/:pod/:ad/media/{rendition}.m3u8") { request, context in
            let id = try SessionRoutes.sessionID(context)
            let address = try await adAssetAddress(id, context)
            guard let key = SessionURLs.rendition((context.parameters.get("rendition") ?? "")[...]) else {
                _ = try await access.open(id)
                throw SessionAnswerError.noAdAsset
            }
            let body = try await access.serve(id) { session async throws(SeamError) in
                try await session.adAssetMedia(address, rendition: key)
            }
            return Self.playlist(PlaylistBody(bytes: body), for: request)
        }
        router.get("/v1/sessions/:id/manifest.mpd") { request, context in
            let body = try await access.serve(try SessionRoutes.sessionID(context)) {
                session async throws(SeamError) in
                try await session.dashManifest()
            }
            return Self.playlist(body, for: request, type: Self.mpdType)
        }
        router.get("/v1/sessions/:id/tracking") { _, context in
            let body = try await access.serve(try SessionRoutes.sessionID(context)) {
                session async throws(SeamError) in
                try await session.trackingJSON()
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                body: .init(byteBuffer: body))
        }
    }

    /// The ad asset a path names; an address Seam never writes is no asset of a live session.
    func adAssetAddress(_ id: SessionID, _ context: SeamRequestContext) async throws -> AdAssetAddress {
        guard let pod = context.parameters.get("pod"), let ad = context.parameters.get("ad"),
            let address = SessionURLs.adAsset(pod: pod[...], ad: ad[...])
        else {
            _ = try await access.open(id)
            throw SessionAnswerError.noAdAsset
        }
        return address
    }

    /// A playlist answer: the gzip copy when there is one and the player takes gzip.
    static func playlist(_ body: PlaylistBody, for request: Request, type: String = playlistType) -> Response {
        if let gzipped = body.gzipped,
            GzipMiddleware<SeamRequestContext>.acceptsGzip(request.headers[values: .acceptEncoding])
        {
            return Response(
                status: .ok,
                headers: [
                    .contentType: type, .cacheControl: "no-cache",
                    .contentEncoding: "gzip", .vary: "Accept-Encoding",
                ],
                body: .init(byteBuffer: gzipped))
        }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: body.bytes))
    }
}
