import NIOCore

/// The first handler of every client connection: runs the header-read and idle time-outs
/// (`RequestHeadTimer`) on the raw bytes, before the HTTP decoder (told of the requests answered
/// right after the decoder by `answeredAtOnce`), and keeps the connection's state in
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
    /// The one check scheduled, and when it runs: it is moved only to run sooner. A check that
    /// runs before anything is due finds the deadline in force and schedules itself for it, so a
    /// busy keep-alive connection schedules a check about twice per header-read time-out, not two
    /// per request.
    private var scheduled: (task: Scheduled<Void>, at: NIODeadline)?
    /// This handler's context, for the requests answered in the pipeline (`answeredAtOnce`).
    private var context: ChannelHandlerContext?
    /// When the registry was last told this connection waits (`answeredAtOnce` tells it at most
    /// once a second).
    private var reportedWaiting: NIODeadline?

    init(id: UInt64, registry: ConnectionRegistry, headerReadTimeout: TimeAmount, idleTimeout: TimeAmount? = nil) {
        self.id = id
        self.registry = registry
        self.headerReadTimeout = headerReadTimeout
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
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
        let waitedSince = timer.waitingSince
        let action: RequestHeadTimer.Action
        switch progress {
        case .headReceived: action = timer.headReceived(at: .now())
        case .responseEnded: action = timer.responseEnded(at: .now())
        }
        self.timer = timer
        if timer.isWaitingForRequest {
            // Waiting again, or since a new time (a request answered before it was whole).
            if !wasWaiting || timer.waitingSince != waitedSince {
                reportedWaiting = timer.waitingSince
                registry.markWaiting(id, since: timer.waitingSince)
            }
        } else if wasWaiting {
            registry.markHandling(id)
        }
        apply(action, context)
    }

    /// A request `CachedPlaylistHandler` answered in the event-loop turn that read it: complete
    /// and answered at once. No other thread can see it in flight, so the registry is not told
    /// it was handling one, only that the connection waits again, with its new time at most once
    /// a second (the order of eviction at the limit, to a second). Called directly, not as an
    /// event through the pipeline: it runs for every playlist reload.
    func answeredAtOnce() {
        guard var timer, let context else { return }
        let now = NIODeadline.now()
        _ = timer.headReceived(at: now)
        let action = timer.responseEnded(at: now)
        self.timer = timer
        if timer.isWaitingForRequest, reportedWaiting.map({ now - $0 >= .seconds(1) }) ?? true {
            reportedWaiting = now
            registry.markWaiting(id, since: timer.waitingSince)
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
            if let scheduled, scheduled.at <= deadline { return }
            disarm()
            let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                scheduled = nil
                guard let timer else { return }
                apply(timer.deadlinePassed(at: .now()), context)
            }
            scheduled = (task, deadline)
        case .disarm:
            // Left to run: it finds nothing due (`deadlinePassed` while a request is handled).
            break
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
        scheduled?.task.cancel()
        scheduled = nil
    }
}

@available(*, unavailable)
extension ConnectionGuardHandler: Sendable {}
