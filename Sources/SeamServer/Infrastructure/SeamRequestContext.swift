import Hummingbird
import NIOCore

/// The request context of every Seam route. Like `BasicRequestContext`, plus the peer address,
/// because ad requests need the viewer's IP (`X-Device-IP`, `[DEVICEIP]`) when no proxy header
/// carries it.
package struct SeamRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The connected peer (the player, or the CDN/proxy in front of Seam). Nil in router-only tests.
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address as text (`203.0.113.9`, `2001:db8::1`), if known.
    package var remoteIP: String? { remoteAddress?.ipAddress }
}
