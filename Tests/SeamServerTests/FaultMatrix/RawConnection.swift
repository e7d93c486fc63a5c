import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A bare TCP connection to a server under test: it sends exactly the bytes the test writes (a
/// silent connection, half a request head, a request), keeps what comes back, and records when
/// the server closed it. What a slowloris client or an idle player looks like on the wire.
final class RawConnection: Sendable {
    let channel: any Channel
    /// When the connection was opened (just before connecting).
    let openedAt: NIODeadline
    /// Completes with the moment the connection closed (the server closed it, or `close()`).
    let closed: EventLoopFuture<NIODeadline>
    private let received: NIOLockedValueBox<Received>

    /// The bytes so far, and who waits for enough of them.
    struct Received: Sendable {
        var bytes: [UInt8] = []
        var waiters: [(marker: [UInt8], count: Int, finish: @Sendable (Bool) -> Void)] = []

        /// Waiters whose marker now occurs `count` times; removed.
        mutating func satisfied() -> [@Sendable (Bool) -> Void] {
            var ready: [@Sendable (Bool) -> Void] = []
            waiters.removeAll { waiter in
                guard Self.occurrences(of: waiter.marker, in: bytes) >= waiter.count else { return false }
                ready.append(waiter.finish)
                return true
            }
            return ready
        }

        static func occurrences(of marker: [UInt8], in bytes: [UInt8]) -> Int {
            guard !marker.isEmpty, bytes.count >= marker.count else { return 0 }
            var count = 0
            var index = 0
            while index <= bytes.count - marker.count {
                if bytes[index..<(index + marker.count)].elementsEqual(marker) {
                    count += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
            return count
        }
    }

    private init(
        channel: any Channel, openedAt: NIODeadline, closed: EventLoopFuture<NIODeadline>,
        received: NIOLockedValueBox<Received>
    ) {
        self.channel = channel
        self.openedAt = openedAt
        self.closed = closed
        self.received = received
    }

    static func open(port: Int, group: any EventLoopGroup) async throws -> RawConnection {
        let received = NIOLockedValueBox(Received())
        let closedPromise = group.next().makePromise(of: NIODeadline.self)
        // Before connecting: a server may close a connection before `connect` returns here.
        let openedAt = NIODeadline.now()
        let channel = try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Recorder(received: received, closed: closedPromise))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(
            channel: channel, openedAt: openedAt, closed: closedPromise.futureResult, received: received)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// Everything the server sent so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }
    var bytes: [UInt8] { received.withLockedValue { $0.bytes } }

    /// Waits until `marker` has arrived `count` times (e.g. a response's status line), at most
    /// `limit`; false when it did not (or the connection closed first).
    func waitFor(_ marker: String, count: Int = 1, limit: TimeAmount = .seconds(10)) async -> Bool {
        let promise = channel.eventLoop.makePromise(of: Bool.self)
        let done = NIOLockedValueBox(false)
        let finish: @Sendable (Bool) -> Void = { value in
            if done.withLockedValue({ wasDone in
                defer { wasDone = true }; return !wasDone
            }) {
                promise.succeed(value)
            }
        }
        let ready = received.withLockedValue { state -> Bool in
            if Received.occurrences(of: Array(marker.utf8), in: state.bytes) >= count { return true }
            state.waiters.append((Array(marker.utf8), count, finish))
            return false
        }
        if ready { finish(true) }
        let timeout = channel.eventLoop.scheduleTask(in: limit) { finish(false) }
        closed.whenSuccess { _ in finish(false) }
        defer { timeout.cancel() }
        return (try? await promise.futureResult.get()) ?? false
    }

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
            if done.withLockedValue({ wasDone in
                defer { wasDone = true }; return !wasDone
            }) {
                first.succeed(value)
            }
        }
        let timeout = channel.eventLoop.scheduleTask(in: limit) { finish(nil) }
        closed.whenSuccess { finish($0) }
        let result = (try? await first.futureResult.get()) ?? nil
        timeout.cancel()
        if result == nil, closeIfStillOpen { channel.close(promise: nil) }
        return result.map { Double(($0 - openedAt).nanoseconds) / 1e9 }
    }

    private final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<Received>
        let closed: EventLoopPromise<NIODeadline>

        init(received: NIOLockedValueBox<Received>, closed: EventLoopPromise<NIODeadline>) {
            self.received = received
            self.closed = closed
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            let ready = received.withLockedValue { state in
                state.bytes.append(contentsOf: buffer.readableBytesView)
                return state.satisfied()
            }
            ready.forEach { $0(true) }
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
