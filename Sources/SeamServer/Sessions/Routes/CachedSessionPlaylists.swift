import Foundation
import NIOCore
import Stitching

/// The session playlists answered on the event loop (`CachedPlaylistHandler`): a VOD session's
/// multivariant and media playlists, in both renderings, when this replica holds the session and
/// may trust what it holds (`SessionMap.lookup` says `.fresh`). The lookup is the one the router's
/// path makes, so it counts as the session's activity the same way. A live session, a session to
/// confirm with the store, and every path that is not one of these four go to the router.
struct CachedSessionPlaylists: CachedPlaylistAnswering {
    let runtime: SessionRuntime
    let clock: @Sendable () -> Date

    /// The routes as the request metrics name them (Hummingbird's `endpointPath`).
    enum Route {
        static let master = "/v1/sessions/{id}/master.m3u8"
        static let media = "/v1/sessions/{id}/media/{rendition}.m3u8"
        static let interstitialsMaster = "/v1/sessions/{id}/interstitials/master.m3u8"
        static let interstitialsMedia = "/v1/sessions/{id}/interstitials/media/{rendition}.m3u8"
    }

    package func cachedPlaylist(path: Substring, acceptsGzip: Bool) -> CachedPlaylist? {
        let prefix = "/v1/sessions/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/"), let id = SessionID(rest[..<slash]) else { return nil }
        var tail = rest[rest.index(after: slash)...]
        var rendering = SessionMode.stitched
        if tail.hasPrefix("interstitials/") {
            rendering = .interstitials
            tail = tail.dropFirst("interstitials/".count)
        }
        let rendition: RenditionKey?
        if tail == "master.m3u8" {
            rendition = nil
        } else if tail.hasPrefix("media/"), tail.hasSuffix(".m3u8") {
            let name = tail.dropFirst("media/".count).dropLast(".m3u8".count)
            guard !name.contains("/"), let key = SessionURLs.rendition(name) else { return nil }
            rendition = key
        } else {
            return nil
        }
        guard let session = runtime.heldVOD(id, now: clock()) else { return nil }
        let body: PlaylistBody
        do {
            body = try rendition.map { try session.media(rendering, rendition: $0) } ?? session.multivariant(rendering)
        } catch {
            return nil
        }
        let route =
            switch (rendering, rendition) {
            case (.stitched, nil): Route.master
            case (.stitched, _): Route.media
            case (.interstitials, nil): Route.interstitialsMaster
            case (.interstitials, _): Route.interstitialsMedia
            }
        if acceptsGzip, let gzipped = body.gzipped {
            return CachedPlaylist(route: route, body: gzipped, gzipped: true)
        }
        return CachedPlaylist(route: route, body: body.bytes, gzipped: false)
    }
}
