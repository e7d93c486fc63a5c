import NIOCore

/// The first handler of every client connection: runs the header-read and idle time-outs
/// (`RequestHeadTimer`) on the raw bytes, before the HTTP decoder, and keeps the connection's state in
/// `ConnectionRegistry` (waiting for a request, or handling one) so that the registry knows which
/// connection to close at the limit. `RequestProgressHandler`, after the decoder, tells it when a
/// head is complete and when a response has been written.
///
/// An idle or half-sent connection costs one scheduled timer and nothing else: no polling, no task
/// running.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let id: UInt64
    private let registry: ConnectionRegistry
    private let headerReadTimeout: TimeAmount
    private let idleTimeout: TimeAmount?
    private var timer: RequestHeadTimer?
    private var scheduled: Scheduled<Void>?

    init(id: UInt64, registry: ConnectionRegistry, headerReadTimeout: TimeAmount, idleTimeout: TimeAmount? = nil) {
        self.id = id
        self.registry = registry
        self.headerReadTimeout = headerReadTimeout
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if var timer {
            let action = timer.bytesArrived(at: .now())
            self.timer = timer
            apply(action, context)
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let progress = event as? RequestProgressEvent else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed(())
        guard var timer else { return }
        let wasWaiting = timer.isWaitingForRequest
        let action: RequestHeadTimer.Action
        switch progress {
        case .headReceived: action = timer.headReceived()
        case .responseEnded: action = timer.responseEnded(at: .now())
        }
        self.timer = timer
        if wasWaiting != timer.isWaitingForRequest {
            if timer.isWaitingForRequest {
                registry.markWaiting(id, since: timer.waitingSince)
            } else {
                registry.markHandling(id)
            }
        }
        apply(action, context)
    }

    // MARK: Timer

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let started = RequestHeadTimer(timeout: headerReadTimeout, idleTimeout: idleTimeout, openedAt: .now())
        timer = started
        apply(.arm(started.firstDeadline), context)
    }

    private func apply(_ action: RequestHeadTimer.Action, _ context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .arm(let deadline):
            disarm()
            scheduled = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                scheduled = nil
                guard let timer else { return }
                apply(timer.deadlinePassed(at: .now()), context)
            }
        case .disarm:
            disarm()
        case .close:
            disarm()
            registry.closed(.headerTimeout)
            context.close(promise: nil)
        case .closeIdle:
            disarm()
            registry.closed(.idleTimeout)
            context.close(promise: nil)
        }
    }

    private func disarm() {
        scheduled?.cancel()
        scheduled = nil
    }
}

@available(*, unavailable)
extension ConnectionGuardHandler: Sendable {}
