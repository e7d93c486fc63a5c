#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif
import CoreMetrics
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers session playlist GETs whose answer is at hand (`CachedPlaylistAnswering`) on the
/// event loop, before Hummingbird's per-request task: a VOD session's playlists were rendered
/// when it was created, so a player's fetch is a map lookup and one write; a live reload whose
/// origin windows are cached is the session machine's reload and render, which never wait.
/// Everything else goes on to the router unchanged.
///
/// The answer is the one the router's path gives (`PlaylistRoutes.playlist` through Seam's
/// middlewares): the same status, body and headers (`Via`, CORS for a request with `Origin`,
/// `Vary` as the gzip middleware sets it, `Date`, `Server`), counted in the same request metrics.
/// A request the router's path would treat differently goes there: one with a body, one that
/// asks to close the connection, one marked by another Seam (`CDN-Loop`), and every request
/// while the router still answers an earlier one on the connection (answers keep their order).
/// Not installed when requests are traced or logged one by one (`debug` level), which only the
/// router's path does.
///
/// Sits after Hummingbird's connection state handler, so idle time-outs and graceful shutdown
/// see these requests as any other.
final class CachedPlaylistHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    struct Settings: Sendable {
        var answering: any CachedPlaylistAnswering
        var metrics: SeamMetrics
        /// `server.gzip`: the gzip middleware marks a plain answer of 1 KiB or more `Vary: Accept-Encoding`.
        var gzip: Bool
        var serverName: String
        /// `seam_http_playlists_answered_early_total`.
        var answeredEarly: CoreMetrics.Counter
        /// `seam_http_requests_total` and its duration, for each route answered here.
        var routes: [SeamMetrics.RequestMetrics]

        init(answering: any CachedPlaylistAnswering, metrics: SeamMetrics, gzip: Bool, serverName: String) {
            self.answering = answering
            self.metrics = metrics
            self.gzip = gzip
            self.serverName = serverName
            answeredEarly = CoreMetrics.Counter(label: SeamMetrics.answeredEarlyName, factory: metrics.factory)
            routes = CachedPlaylist.Route.allCases.map {
                metrics.requestRecorder(route: $0.rawValue, method: "GET", status: 200)
            }
        }
    }

    private let settings: Settings
    /// Requests handed to the router whose answer has not ended yet.
    private var routerAnswers = 0
    /// The request answered here still sends its body or end: dropped.
    private var draining = false
    private var date = HTTPDate()

    init(_ settings: Settings) {
        self.settings = settings
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            let started = ContinuousClock.now
            if routerAnswers == 0, let answer = cached(request) {
                draining = true
                // Counted before the answer leaves, as the router's middlewares count theirs
                // before Hummingbird writes it: whoever reads the answer sees it counted.
                let elapsed = (ContinuousClock.now - started).components
                settings.answeredEarly.increment()
                let series = settings.routes[CachedPlaylist.Route.allCases.firstIndex(of: answer.route) ?? 0]
                series.counter.increment()
                series.timer.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
                write(answer, for: request, context: context)
                return
            }
            routerAnswers += 1
            context.fireChannelRead(data)
        case .body:
            if !draining { context.fireChannelRead(data) }
        case .end:
            if draining {
                draining = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routerAnswers = max(0, routerAnswers - 1) }
        context.write(data, promise: promise)
    }

    /// The answer at hand for `request`, or nil for the router.
    private func cached(_ request: HTTPRequest) -> CachedPlaylist? {
        guard request.method == .get, let target = request.path, target.utf8.starts(with: Self.sessions) else {
            return nil
        }
        let fields = request.headerFields
        // A body, a closing connection or another Seam's request: the router's rules.
        if let length = fields[.contentLength], length != "0" { return nil }
        if fields[.transferEncoding] != nil || LoopGuard.marked(cdnLoop: fields[values: LoopGuard.cdnLoop]) {
            return nil
        }
        // `Connection: keep-alive` (browsers send it) changes nothing; anything else (`close`,
        // `upgrade`) is the router's.
        if let connection = fields[.connection], connection.lowercased() != "keep-alive" { return nil }
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        guard !path.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let acceptsGzip = GzipMiddleware<SeamRequestContext>.acceptsGzip(fields[values: .acceptEncoding])
        guard let answer = settings.answering.cachedPlaylist(path: path, acceptsGzip: acceptsGzip) else { return nil }
        // No gzip copy for a player that takes gzip: the gzip middleware compresses it.
        if acceptsGzip, !answer.gzipped, settings.gzip,
            answer.body.readableBytes >= GzipMiddleware<SeamRequestContext>.defaultMinimumBytes
        {
            return nil
        }
        return answer
    }

    private static let sessions = Array("/v1/sessions/".utf8)

    private func write(_ answer: CachedPlaylist, for request: HTTPRequest, context: ChannelHandlerContext) {
        let length = answer.body.readableBytes
        var fields: HTTPFields = [.contentType: answer.route.contentType, .cacheControl: "no-cache"]
        if answer.gzipped {
            fields[.contentEncoding] = "gzip"
            fields[.vary] = "Accept-Encoding"
        }
        fields[.contentLength] = String(length)
        if request.headerFields.contains(.origin) { fields[.accessControlAllowOrigin] = "*" }
        fields[LoopGuard.via] = LoopGuard.viaValue
        if !answer.gzipped, settings.gzip, length >= GzipMiddleware<SeamRequestContext>.defaultMinimumBytes {
            fields[.vary] = "Accept-Encoding"
        }
        fields[.date] = date.text(at: time(nil))
        fields[.server] = settings.serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

@available(*, unavailable)
extension CachedPlaylistHandler: Sendable {}
