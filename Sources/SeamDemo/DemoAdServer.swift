import SeamServer
import Hummingbird
import NIOConcurrencyHelpers

/// The demo's ad decision server: answers VAST/VMAP from `Samples/vast` with its own URLs filled
/// in, serves the ad creatives, and records every beacon and ad request in a ``BeaconLog``.
///
/// Routes:
/// - `GET /vast/<file>.xml` — a file of the VAST folder, `{{ADS_BASE}}`/`{{TRACK_BASE}}` replaced.
/// - `GET /vast?pos=pre|mid|post` — the pre-roll pod, mid-roll or post-roll VAST.
/// - `GET /vmap` — `vmap-demo.xml`; `GET /vmap?ads=mp4` — `vmap-mp4.xml` (its one break is the
///   MP4-only ad, for conditioning; a session asks for it with `adParams: {"ads": "mp4"}`).
/// - failure modes for Seam's fallback tests: `/vast/slow.xml?ms=3000[&then=vast-midroll.xml]`
///   (also `/vast/slow`), `/vast/error500`, `/vast/malformed`, `/vast/wrapper-loop`,
///   `/vast/wrapper-chain?depth=6`, `/vast/empty`.
/// - `GET|HEAD /media/<path>` — the media folder, as the origin serves it (creatives live there).
/// - any method on `/track/**` — a beacon: recorded, answered 200 (GET/HEAD, a 1×1 GIF) or 204.
/// - `GET /beacons` — the log as JSON; `DELETE /beacons` clears it;
///   `POST /beacons/failures?count=N&status=500` makes the next N beacons fail.
package struct DemoAdServer: Sendable, DemoRouteProviding {
    /// The VAST/VMAP templates.
    package let vast: DemoFileStore
    /// The creatives under `/media/`.
    package let media: DemoFileResponder
    package let beaconLog: BeaconLog

    /// The longest `slow` delay honoured, so a typo cannot hang a test run for hours.
    package static let maxSlowMilliseconds = 120_000
    /// The deepest `wrapper-chain` served.
    package static let maxChainDepth = 50

    private let baseURL: NIOLockedValueBox<String?>
    private let trackBaseOverride: String?

    /// - Parameters:
    ///   - vastRoot: the VAST/VMAP folder (default `Samples/vast`).
    ///   - mediaRoot: the folder served under `/media/` (default `Samples/media`).
    ///   - baseURL: the URL this server is reached at (`{{ADS_BASE}}`). When `nil` it is set once the
    ///     port is known (``setBaseURL(_:)``), or taken from the request's `Host` until then.
    ///   - trackBaseURL: `{{TRACK_BASE}}`; the ad server's own base URL when `nil`.
    package init(
        vastRoot: String = "Samples/vast", mediaRoot: String = "Samples/media",
        baseURL: String? = nil, trackBaseURL: String? = nil, beaconLog: BeaconLog = BeaconLog()
    ) throws {
        vast = try DemoFileStore(root: vastRoot)
        media = DemoFileResponder(store: try DemoFileStore(root: mediaRoot))
        self.beaconLog = beaconLog
        self.baseURL = NIOLockedValueBox(baseURL.map(Self.trimmingSlash))
        trackBaseOverride = trackBaseURL.map(Self.trimmingSlash)
    }

    /// Sets `{{ADS_BASE}}` (and `{{TRACK_BASE}}` unless overridden), e.g. after binding port 0.
    package func setBaseURL(_ url: String) {
        baseURL.withLockedValue { $0 = Self.trimmingSlash(url) }
    }

    /// The base URL in use, if known.
    package var currentBaseURL: String? { baseURL.withLockedValue { $0 } }

    /// Adds all ad server routes to `router`.
    package func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let server = self
        router.get("/vast/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            return try await server.recordingAdRequest(request) {
                try await server.vastResponse(name: name, request: request)
            }
        }
        // The tag's query parameter picks the template; an unknown value is refused naming those there are.
        router.get("/vast") { request, _ in
            try await server.templateRoute(
                request, parameter: "pos", default: "pre",
                files: ["pre": "vast-pod-preroll.xml", "mid": "vast-midroll.xml", "post": "vast-postroll.xml"],
                refusal: ("INVALID_POSITION", "pos must be pre, mid or post"))
        }
        router.get("/vmap") { request, _ in
            try await server.templateRoute(
                request, parameter: "ads", default: "",
                files: ["": "vmap-demo.xml", "hls": "vmap-demo.xml", "mp4": "vmap-mp4.xml"],
                refusal: ("INVALID_ADS", "ads must be hls (the default) or mp4"))
        }

        let mediaHandler: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await server.media.respond(
                to: request, encodedSubpath: DemoOrigin.subpath(of: request.uri.path, after: "/media/"),
                context: context)
        }
        router.get("/media/**", use: mediaHandler)
        router.head("/media/**", use: mediaHandler)

        let beaconHandler: @Sendable (Request, Context) async throws -> Response = { request, _ in
            try await server.beacon(request)
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete, .patch] {
            router.on("/track/**", method: method, use: beaconHandler)
        }

        router.get("/beacons") { _, _ in DemoResponses.json(await server.beaconLog.snapshot()) }
        router.delete("/beacons") { _, _ in
            await server.beaconLog.clear()
            return Response(status: .noContent)
        }
        router.post("/beacons/failures") { request, _ in
            let query = request.uri.queryParameters
            let count = query.get("count").flatMap { Int($0) } ?? 1
            let status = query.get("status").flatMap { Int($0) }.flatMap { (100...599).contains($0) ? $0 : nil } ?? 500
            await server.beaconLog.failNextBeacons(count, status: status)
            return Response(status: .noContent)
        }
        router.get("/healthz") { _, _ in DemoResponses.json(["status": "ok"]) }
    }

    // MARK: - Ad requests

    /// An ad request answered from the template `files` names for the query `parameter`.
    private func templateRoute(
        _ request: Request, parameter: String, default fallback: String, files: [String: String],
        refusal: (code: String, message: String)
    ) async throws -> Response {
        try await recordingAdRequest(request) {
            guard let file = files[request.uri.queryParameters.get(parameter) ?? fallback] else {
                return DemoResponses.jsonError(.badRequest, code: refusal.code, message: refusal.message)
            }
            return try await templateResponse(file: file, request: request)
        }
    }

    private func vastResponse(name: String, request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        switch name {
        case "slow", "slow.xml":
            let milliseconds = min(max(query.get("ms").flatMap { Int($0) } ?? 3000, 0), Self.maxSlowMilliseconds)
            try await Task.sleep(for: .milliseconds(milliseconds))
            return try await templateResponse(file: query.get("then") ?? "vast-midroll.xml", request: request)
        case "error500", "error500.xml":
            return DemoResponses.text(
                "ad server failure (demo failure mode)\n", contentType: "text/plain; charset=utf-8",
                status: .internalServerError)
        case "malformed", "malformed.xml":
            return xml(DemoVASTTemplates.malformed)
        case "wrapper-loop", "wrapper-loop.xml":
            let (ads, track) = bases(for: request)
            return xml(DemoVASTTemplates.wrapperLoop(adsBase: ads, trackBase: track))
        case "wrapper-chain", "wrapper-chain.xml":
            guard let depth = Int(query.get("depth") ?? "6"), (1...Self.maxChainDepth).contains(depth) else {
                return DemoResponses.jsonError(
                    .badRequest, code: "INVALID_DEPTH", message: "depth must be 1...\(Self.maxChainDepth)")
            }
            let (ads, track) = bases(for: request)
            return xml(DemoVASTTemplates.wrapperChain(depth: depth, adsBase: ads, trackBase: track))
        case "empty", "empty.xml":
            return try await templateResponse(file: "vast-empty.xml", request: request)
        default:
            return try await templateResponse(file: name, request: request)
        }
    }

    /// Serves a template file from the VAST folder with the placeholders replaced.
    private func templateResponse(file name: String, request: Request) async throws -> Response {
        guard let path = DemoFilePath(components: [name]), path.fileExtension == "xml" else {
            return DemoResponses.notFound("/vast/\(name)")
        }
        let file: DemoFileStore.File
        do {
            file = try await vast.file(at: path)
        } catch {
            return DemoResponses.notFound("/vast/\(name)")
        }
        guard let contents = file.contents else {
            return DemoResponses.jsonError(
                .internalServerError, code: "TEMPLATE_TOO_LARGE", message: "\(name) is too large to serve")
        }
        let (ads, track) = bases(for: request)
        return xml(DemoVASTTemplates.substitute(String(buffer: contents), adsBase: ads, trackBase: track))
    }

    private func recordingAdRequest(_ request: Request, _ respond: () async throws -> Response) async throws -> Response
    {
        await beaconLog.recordAdRequest(
            method: request.method.rawValue, path: request.uri.path,
            query: request.uri.query ?? "", headers: Self.allHeaders(request.headers))
        return try await respond()
    }

    // MARK: - Beacons

    private static let transparentGIF: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
        0xFF, 0xFF, 0xFF, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
    ]

    private func beacon(_ request: Request) async throws -> Response {
        let interesting = ["user-agent", "x-device-ip", "x-device-user-agent", "x-forwarded-for"]
        let headers = Self.allHeaders(request.headers).filter { interesting.contains($0.key) }
        let status = await beaconLog.recordBeacon(
            method: request.method.rawValue, path: request.uri.path,
            query: request.uri.query ?? "", headers: headers)
        switch status {
        case 200:
            var response = DemoResponses.bytes(ByteBuffer(bytes: Self.transparentGIF), contentType: "image/gif")
            response.headers[.cacheControl] = "no-store"
            return request.method == .head ? response.createHeadResponse() : response
        case 204:
            return Response(status: .noContent)
        default:
            return DemoResponses.jsonError(
                HTTPResponse.Status(code: status), code: "INJECTED_FAILURE",
                message: "beacon failure injected with POST /beacons/failures")
        }
    }

    // MARK: - Helpers

    /// `{{ADS_BASE}}` and `{{TRACK_BASE}}` for a request: the configured base URL, else the
    /// request's `Host` (only until the port is known, or when run behind a test harness).
    private func bases(for request: Request) -> (ads: String, track: String) {
        let ads = baseURL.withLockedValue { $0 } ?? "http://\(request.head.authority ?? "127.0.0.1")"
        return (ads, trackBaseOverride ?? ads)
    }

    private func xml(_ body: String) -> Response {
        var response = DemoResponses.text(body, contentType: "application/xml; charset=utf-8")
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private static func allHeaders(_ fields: HTTPFields) -> [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return headers
    }

    private static func trimmingSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
