import NIOCore
import NIOHTTPTypes

/// Sits after the HTTP codec and tells `ConnectionGuardHandler` (at the front of the pipeline,
/// before the codec) when a request (head and body) is complete and when a response has been written: the
/// raw-byte side cannot see either.
final class RequestProgressHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The request counts as received at its end, not its head: a body dripped a byte a minute
    /// (`Content-Length: 65536`) is held to the same time-out as a trickled head, or it would keep
    /// a "busy" connection the limit never reclaims.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            context.triggerUserOutboundEvent(RequestProgressEvent.headReceived, promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd: Bool
        if case .end = unwrapOutboundIn(data) { isEnd = true } else { isEnd = false }
        context.write(data, promise: promise)
        if isEnd {
            context.triggerUserOutboundEvent(RequestProgressEvent.responseEnded, promise: nil)
        }
    }
}

@available(*, unavailable)
extension RequestProgressHandler: Sendable {}
