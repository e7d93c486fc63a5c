#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif
import CoreMetrics
import HTTPTypes
import NIOCore
import NIOHTTP1

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
/// asks to close the connection or is not HTTP/1.1, one marked by another Seam (`CDN-Loop`), and
/// every request while the router still answers an earlier one on the connection (answers keep
/// their order). Not installed when requests are traced or logged one by one (`debug` level),
/// which only the router's path does.
///
/// Sits right after NIO's HTTP/1 codec, before Hummingbird's conversion to HTTP types and its
/// connection state handler: a bare SwiftNIO server answers the same bytes for about nginx's
/// CPU (BENCHMARKS.md, "The stack's floor"). So it tells `ConnectionGuardHandler` itself of each
/// request it answers (`answeredAtOnce`), as `RequestProgressHandler` does for the router's; the idle
/// time-out is the guard's, which sees these requests, and graceful shutdown closes a connection
/// between them as Hummingbird's state handler closes it between its own.
final class CachedPlaylistHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

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
    /// The connection's guard, told of each request answered here (`answeredAtOnce`).
    private let connectionGuard: ConnectionGuardHandler?
    /// Requests handed to the router whose answer has not ended yet.
    private var routerAnswers = 0
    /// The answer to the request whose head was read here, written at its end.
    private var pending: (answer: CachedPlaylist, crossOrigin: Bool, started: ContinuousClock.Instant)?
    private var date = HTTPDate()

    init(_ settings: Settings, connectionGuard: ConnectionGuardHandler?) {
        self.settings = settings
        self.connectionGuard = connectionGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            let started = ContinuousClock.now
            // A client that sends without reading its answers goes to the router, whose writer
            // waits for it: answers here are written at once and would pile up.
            if routerAnswers == 0, context.channel.isWritable, let (answer, crossOrigin) = cached(request) {
                pending = (answer, crossOrigin, started)
                return
            }
            routerAnswers += 1
            context.fireChannelRead(data)
        case .body:
            // A request answered here has no body (`cached` sends those to the router).
            if pending == nil { context.fireChannelRead(data) }
        case .end:
            guard let (answer, crossOrigin, started) = pending else {
                context.fireChannelRead(data)
                return
            }
            pending = nil
            // Counted before the answer leaves, as the router's middlewares count theirs before
            // Hummingbird writes it: whoever reads the answer sees it counted.
            let elapsed = (ContinuousClock.now - started).components
            settings.answeredEarly.increment()
            let series = settings.routes[CachedPlaylist.Route.allCases.firstIndex(of: answer.route) ?? 0]
            series.counter.increment()
            series.timer.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
            write(answer, crossOrigin: crossOrigin, context: context)
            if let connectionGuard {
                connectionGuard.answeredAtOnce()
            } else {
                context.triggerUserOutboundEvent(RequestProgressEvent.headReceived, promise: nil)
                context.triggerUserOutboundEvent(RequestProgressEvent.responseEnded, promise: nil)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routerAnswers = max(0, routerAnswers - 1) }
        context.write(data, promise: promise)
    }

    /// The answer at hand for `request` and whether it asked cross-origin, or nil for the router.
    private func cached(_ request: HTTPRequestHead) -> (answer: CachedPlaylist, crossOrigin: Bool)? {
        guard request.method == .GET, request.version == .http1_1, request.uri.utf8.starts(with: Self.sessions) else {
            return nil
        }
        // One pass over the fields (every playlist reload of every player comes here). A body, a
        // closing connection or another Seam's request: the router's rules.
        var crossOrigin = false
        var acceptEncoding: String?
        var moreAcceptEncoding: [String] = []
        for (name, value) in request.headers {
            switch name.utf8.count {
            case 14 where Self.spells(name, "content-length"):
                if value != "0" { return nil }
            case 17 where Self.spells(name, "transfer-encoding"):
                return nil
            case 8 where Self.spells(name, "cdn-loop"):
                if LoopGuard.marked(cdnLoop: [value]) { return nil }
            // `Connection: keep-alive` (browsers send it) changes nothing; anything else
            // (`close`, `upgrade`) is the router's.
            case 10 where Self.spells(name, "connection"):
                if !Self.spells(value, "keep-alive") { return nil }
            case 15 where Self.spells(name, "accept-encoding"):
                if acceptEncoding == nil { acceptEncoding = value } else { moreAcceptEncoding.append(value) }
            case 6 where Self.spells(name, "origin"):
                crossOrigin = true
            default:
                break
            }
        }
        let target = request.uri
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        guard !path.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let acceptsGzip =
            acceptEncoding.map {
                moreAcceptEncoding.isEmpty
                    ? GzipMiddleware<SeamRequestContext>.acceptsGzip($0)
                    : GzipMiddleware<SeamRequestContext>.acceptsGzip([$0] + moreAcceptEncoding)
            } ?? false
        guard let answer = settings.answering.cachedPlaylist(path: path, acceptsGzip: acceptsGzip) else { return nil }
        // No gzip copy for a player that takes gzip: the gzip middleware compresses it.
        if acceptsGzip, !answer.gzipped, settings.gzip,
            answer.body.readableBytes >= GzipMiddleware<SeamRequestContext>.defaultMinimumBytes
        {
            return nil
        }
        return (answer, crossOrigin)
    }

    /// `text` spells `lowercase` (ASCII letters in any case).
    private static func spells(_ text: String, _ lowercase: StaticString) -> Bool {
        guard text.utf8.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { expected in
            zip(text.utf8, expected).allSatisfy { byte, letter in
                byte == letter || (byte | 0x20 == letter && letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
            }
        }
    }

    private static let sessions = Array("/v1/sessions/".utf8)

    /// The answer as HTTP parts through NIO's response encoder, which must see each head: it
    /// pairs it with the request's method (queued by the request decoder) to frame answers to
    /// `HEAD` without a body, so an answer written past it as bytes would leave every later
    /// answer on the connection paired with the wrong request.
    private func write(_ answer: CachedPlaylist, crossOrigin: Bool, context: ChannelHandlerContext) {
        let length = answer.body.readableBytes
        var fields = HTTPHeaders()
        fields.reserveCapacity(10)
        fields.add(name: "Content-Type", value: answer.route.contentType)
        fields.add(name: "Cache-Control", value: "no-cache")
        if answer.gzipped {
            fields.add(name: "Content-Encoding", value: "gzip")
            fields.add(name: "Vary", value: "Accept-Encoding")
        }
        fields.add(name: "Content-Length", value: String(length))
        if crossOrigin { fields.add(name: "Access-Control-Allow-Origin", value: "*") }
        fields.add(name: "Via", value: LoopGuard.viaValue)
        if !answer.gzipped, settings.gzip, length >= GzipMiddleware<SeamRequestContext>.defaultMinimumBytes {
            fields.add(name: "Vary", value: "Accept-Encoding")
        }
        fields.add(name: "Date", value: date.text(at: time(nil)))
        fields.add(name: "Server", value: settings.serverName)
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

@available(*, unavailable)
extension CachedPlaylistHandler: Sendable {}
