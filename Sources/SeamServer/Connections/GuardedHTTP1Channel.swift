import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 child channel with Seam's connection guard in front of it: the
/// connection limit (`ConnectionRegistry`) is applied as each connection is set up, and
/// `ConnectionGuardHandler` runs first in its pipeline (raw bytes), `RequestProgressHandler`
/// after the HTTP codec, and `CachedPlaylistHandler` before the request task. Hummingbird's own idle time-out (`HTTP1Channel.Configuration.idleTimeout`)
/// closes connections that sit idle between requests.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let registry: ConnectionRegistry
    let headerReadTimeout: TimeAmount
    /// Playlists answered on the event loop, after Hummingbird's connection state handler.
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
                    ConnectionGuardHandler(id: id, registry: registry, headerReadTimeout: headerReadTimeout),
                    position: .first)
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
            let value = http1.setup(channel: channel, logger: logger)
            guard let cachedPlaylists else { return value }
            return value.flatMapThrowing { value in
                let pipeline = channel.pipeline.syncOperations
                let state = try pipeline.handler(type: HTTPConnectionStateHandler.self)
                try pipeline.addHandler(CachedPlaylistHandler(cachedPlaylists), position: .after(state))
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
