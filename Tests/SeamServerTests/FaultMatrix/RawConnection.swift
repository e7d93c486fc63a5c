import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A bare TCP connection to a server under test: it sends exactly the bytes the test writes (a
/// silent connection, half a request head, a request), keeps what comes back, and records when
/// the server closed it. What a slowloris client or an idle player looks like on the wire.
final class RawConnection: Sendable {
    let channel: any Channel
    /// When the connection was established.
    let openedAt: NIODeadline
    /// Completes with the moment the connection closed (the server closed it, or `close()`).
    let closed: EventLoopFuture<NIODeadline>
    private let received: NIOLockedValueBox<[UInt8]>

    private init(channel: any Channel, openedAt: NIODeadline, closed: EventLoopFuture<NIODeadline>, received: NIOLockedValueBox<[UInt8]>) {
        self.channel = channel
        self.openedAt = openedAt
        self.closed = closed
        self.received = received
    }

    static func open(port: Int, group: any EventLoopGroup) async throws -> RawConnection {
        let received = NIOLockedValueBox<[UInt8]>([])
        let closedPromise = group.next().makePromise(of: NIODeadline.self)
        let channel = try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Recorder(received: received, closed: closedPromise))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, openedAt: .now(), closed: closedPromise.futureResult, received: received)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// Everything the server sent so far.
    var text: String { String(decoding: received.withLockedValue { $0 }, as: UTF8.self) }

    var isOpen: Bool { channel.isActive }

    func close() async {
        try? await channel.close().get()
    }

    /// Waits until the server closes the connection, at most `limit`; the seconds it stayed open,
    /// or nil when it was still open at the limit (then it is closed, unless `closeIfStillOpen` is false).
    func secondsUntilClosed(limit: TimeAmount, closeIfStillOpen: Bool = true) async -> Double? {
        let first = channel.eventLoop.makePromise(of: NIODeadline?.self)
        let done = NIOLockedValueBox(false)
        let finish: @Sendable (NIODeadline?) -> Void = { value in
            if done.withLockedValue({ wasDone in defer { wasDone = true }; return !wasDone }) { first.succeed(value) }
        }
        let timeout = channel.eventLoop.scheduleTask(in: limit) { finish(nil) }
        closed.whenSuccess { finish($0) }
        let result = (try? await first.futureResult.get()) ?? nil
        timeout.cancel()
        if result == nil, closeIfStillOpen { channel.close(promise: nil) }
        return result.map { Double($0.uptimeNanoseconds - openedAt.uptimeNanoseconds) / 1e9 }
    }

    private final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<[UInt8]>
        let closed: EventLoopPromise<NIODeadline>

        init(received: NIOLockedValueBox<[UInt8]>, closed: EventLoopPromise<NIODeadline>) {
            self.received = received
            self.closed = closed
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLockedValue { $0.append(contentsOf: buffer.readableBytesView) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            closed.succeed(.now())
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // A reset is a close too; channelInactive follows.
            context.close(promise: nil)
        }
    }
}
