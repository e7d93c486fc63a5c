import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel with Seam's connection guard in front of it: the
/// connection limit (`ConnectionRegistry`) is applied as each connection is set up, and
/// `ConnectionGuardHandler` runs first in its pipeline (raw bytes: the header-read and idle
/// time-outs), `CachedPlaylistHandler` right after the HTTP/1 codec (before Hummingbird's
/// conversion to HTTP types: an answer at hand costs nothing of the framework's), and
/// `RequestProgressHandler` after that conversion, for the router's requests.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let registry: ConnectionRegistry
    let headerReadTimeout: TimeAmount
    /// `server.idleTimeoutSeconds`, run by `ConnectionGuardHandler`.
    var idleTimeout: TimeAmount? = nil
    /// Playlists answered on the event loop, right after the HTTP/1 codec.
    var cachedPlaylists: CachedPlaylistHandler.Settings? = nil

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        switch registry.admit(channel, now: .now()) {
        case .refused:
            // The accept loop has nothing to do with a failed setup but drop it, so close here.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ConnectionLimitReached(limit: registry.maxConnections))
        case .admitted(let id, let evicting):
            evicting?.close(promise: nil)
            let registry = self.registry
            channel.closeFuture.whenComplete { _ in registry.remove(id) }
            do {
                try channel.pipeline.syncOperations.addHandler(
                    ConnectionGuardHandler(
                        id: id, registry: registry, headerReadTimeout: headerReadTimeout, idleTimeout: idleTimeout),
                    position: .first)
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
            let value = http1.setup(channel: channel, logger: logger)
            guard let cachedPlaylists else { return value }
            return value.flatMapThrowing { value in
                let pipeline = channel.pipeline.syncOperations
                let types = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
                let connectionGuard = try pipeline.handler(type: ConnectionGuardHandler.self)
                try pipeline.addHandler(
                    CachedPlaylistHandler(cachedPlaylists, connectionGuard: connectionGuard), position: .before(types))
                return value
            }
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// Why a new connection was closed at once: every one of `limit` connections had a request in flight.
struct ConnectionLimitReached: Error, CustomStringConvertible {
    var limit: Int
    var description: String {
        "all \(limit) connections (server.maxConnections) have a request in flight; the new connection was closed"
    }
}
