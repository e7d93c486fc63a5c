import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP request as the load generator sees it. All of it lives on the pool's event loop.
final class LoadRequest: @unchecked Sendable {
    let method: HTTPMethod
    let target: String
    let body: ByteBuffer?
    /// The viewer's address sent as X-Forwarded-For (a balancer with per-viewer affinity routes on it).
    let forwardedFor: String?
    /// Whether to keep the response body (phases that read it); otherwise only its size is counted.
    let keepBody: Bool
    /// When the request should have been sent (open-loop pacing) or was submitted (closed loop).
    let scheduled: NIODeadline
    /// When the pacer handed it to the pool (scheduled + the generator's own timer lateness).
    let enqueued: NIODeadline
    var written = NIODeadline.uptimeNanoseconds(0)
    let completion: (LoadRequest, LoadOutcome) -> Void

    init(method: HTTPMethod, target: String, body: ByteBuffer? = nil, forwardedFor: String? = nil, keepBody: Bool,
         scheduled: NIODeadline, enqueued: NIODeadline, completion: @escaping (LoadRequest, LoadOutcome) -> Void) {
        self.method = method
        self.target = target
        self.body = body
        self.forwardedFor = forwardedFor
        self.keepBody = keepBody
        self.scheduled = scheduled
        self.enqueued = enqueued
        self.completion = completion
    }
}

enum LoadOutcome {
    /// A complete response: status, body (when kept), its size, when the request was written and
    /// when the last byte of the answer arrived.
    case response(status: Int, body: ByteBuffer?, bytes: Int, written: NIODeadline, finished: NIODeadline)
    /// No complete response: "timeout", "connection closed", "connect failed", or a transport error.
    case failure(kind: String)
}

/// A fixed number of keep-alive HTTP/1.1 connections to one host, one request at a time on each (no
/// pipelining), fed from one FIFO queue: a request waits in the queue when every connection is busy,
/// and that wait is part of its measured latency. Confined to one event loop: every method must be
/// called on `loop` (hence `@unchecked Sendable`).
final class ConnectionPool: @unchecked Sendable {
    let loop: EventLoop
    let host: String
    let port: Int
    let hostHeader: String
    let size: Int
    let timeout: TimeAmount
    /// Sent as `Accept-Encoding` with every request when set.
    let acceptEncoding: String?

    private var idle: [Connection] = []
    private var all: [Connection] = []
    private var queue = CircularBuffer<LoadRequest>(initialCapacity: 1024)
    private(set) var inFlight = 0
    private(set) var connectFailures = 0
    private(set) var reconnects = 0
    private(set) var opened = 0
    private var closing = false

    var queued: Int { queue.count }
    var outstanding: Int { queue.count + inFlight }

    init(loop: EventLoop, url: HTTPURL, size: Int, timeout: TimeAmount, acceptEncoding: String? = nil) {
        self.loop = loop
        host = url.host
        port = url.port
        hostHeader = url.authority
        self.size = size
        self.timeout = timeout
        self.acceptEncoding = acceptEncoding
    }

    /// Opens every connection; the future completes when all have connected or failed once.
    func open() -> EventLoopFuture<Void> {
        loop.preconditionInEventLoop()
        var futures: [EventLoopFuture<Void>] = []
        for _ in 0..<size {
            let connection = Connection(pool: self)
            all.append(connection)
            futures.append(connection.connect())
        }
        return EventLoopFuture.andAllComplete(futures, on: loop)
    }

    func submit(_ request: LoadRequest) {
        loop.preconditionInEventLoop()
        if let connection = idle.popLast() {
            connection.send(request)
        } else {
            queue.append(request)
        }
    }

    func close() -> EventLoopFuture<Void> {
        loop.preconditionInEventLoop()
        closing = true
        while let request = queue.popFirst() { request.completion(request, .failure(kind: "not sent (pool closed)")) }
        let futures = all.map { $0.close() }
        return EventLoopFuture.andAllComplete(futures, on: loop)
    }

    // MARK: connection callbacks

    fileprivate func connectionIsReady(_ connection: Connection) {
        if let next = queue.popFirst() { connection.send(next) } else { idle.append(connection) }
    }

    fileprivate func connectionWillSend() { inFlight += 1 }
    fileprivate func connectionFinishedRequest() { inFlight -= 1 }

    fileprivate func connectionConnected() { opened += 1 }

    fileprivate func connectionLost(_ connection: Connection, connectFailed: Bool) {
        if let index = idle.firstIndex(where: { $0 === connection }) { idle.remove(at: index) }
        if connectFailed { connectFailures += 1 }
        guard !closing else { return }
        reconnects += 1
        // Back off a little after a failed connect so a dead server does not spin the loop.
        let delay: TimeAmount = connectFailed ? .milliseconds(100) : .zero
        loop.scheduleTask(in: delay) { [self] in
            guard !closing else { return }
            _ = connection.connect()
        }
    }
}

/// One keep-alive connection of a pool.
private final class Connection: @unchecked Sendable {
    unowned let pool: ConnectionPool
    var channel: Channel?
    var current: LoadRequest?
    var timeoutTask: Scheduled<Void>?
    // The response being read.
    var status = 0
    var keepAlive = true
    var body: ByteBuffer?
    var bytes = 0
    var generation = 0

    init(pool: ConnectionPool) { self.pool = pool }

    func connect() -> EventLoopFuture<Void> {
        generation += 1
        let generation = self.generation
        let bootstrap = ClientBootstrap(group: pool.loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(5))
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ResponseHandler(connection: self, generation: generation))
                }
            }
        return bootstrap.connect(host: pool.host, port: pool.port).map { [self] channel in
            self.channel = channel
            pool.connectionConnected()
            pool.connectionIsReady(self)
        }.recover { [self] _ in
            pool.connectionLost(self, connectFailed: true)
        }
    }

    func send(_ request: LoadRequest) {
        guard let channel else { pool.submit(request); return }
        current = request
        status = 0
        keepAlive = true
        body = nil
        bytes = 0
        pool.connectionWillSend()
        var head = HTTPRequestHead(version: .http1_1, method: request.method, uri: request.target)
        head.headers.add(name: "Host", value: pool.hostHeader)
        head.headers.add(name: "User-Agent", value: "LiveLoadBenchmark")
        if let acceptEncoding = pool.acceptEncoding { head.headers.add(name: "Accept-Encoding", value: acceptEncoding) }
        if let viewer = request.forwardedFor { head.headers.add(name: "X-Forwarded-For", value: viewer) }
        if let payload = request.body {
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(payload.readableBytes))
        }
        request.written = .now()
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let payload = request.body { channel.write(HTTPClientRequestPart.body(.byteBuffer(payload)), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        timeoutTask = pool.loop.scheduleTask(in: pool.timeout) { [self] in
            guard current === request else { return }
            fail("timeout")
            channel.close(promise: nil)
        }
    }

    func read(_ part: HTTPClientResponsePart, generation: Int) {
        guard generation == self.generation, let request = current else { return }
        switch part {
        case .head(let head):
            status = Int(head.status.code)
            keepAlive = head.isKeepAlive
        case .body(var buffer):
            bytes += buffer.readableBytes
            if request.keepBody {
                if body == nil { body = buffer } else { body!.writeBuffer(&buffer) }
            }
        case .end:
            let finished = NIODeadline.now()
            timeoutTask?.cancel()
            timeoutTask = nil
            current = nil
            pool.connectionFinishedRequest()
            let outcome = LoadOutcome.response(status: status, body: body, bytes: bytes, written: request.written, finished: finished)
            body = nil
            if keepAlive {
                request.completion(request, outcome)
                pool.connectionIsReady(self)
            } else {
                request.completion(request, outcome)
                channel?.close(promise: nil)   // closed() reconnects
            }
        }
    }

    func fail(_ kind: String) {
        guard let request = current else { return }
        timeoutTask?.cancel()
        timeoutTask = nil
        current = nil
        pool.connectionFinishedRequest()
        request.completion(request, .failure(kind: kind))
    }

    func closed(generation: Int) {
        guard generation == self.generation else { return }
        fail("connection closed")
        channel = nil
        pool.connectionLost(self, connectFailed: false)
    }

    func close() -> EventLoopFuture<Void> {
        guard let channel else { return pool.loop.makeSucceededVoidFuture() }
        return channel.close().recover { _ in }
    }
}

private final class ResponseHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    let connection: Connection
    let generation: Int
    private var lastError: String?

    init(connection: Connection, generation: Int) {
        self.connection = connection
        self.generation = generation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.read(unwrapInboundIn(data), generation: generation)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        connection.fail("transport error: \(type(of: error))")
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.closed(generation: generation)
    }
}
