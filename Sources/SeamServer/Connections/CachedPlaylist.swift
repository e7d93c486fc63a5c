import HTTPTypes
import NIOCore

/// A playlist (or a DASH session's MPD) that is already bytes in memory (a VOD session's, rendered when it was created),
/// answered on the event loop by `CachedPlaylistHandler` with the headers the router's path
/// gives it, so a player's every reload costs a lookup, not a request task.
package struct CachedPlaylist: Sendable {
    /// The session playlist routes, by their pattern as the request metrics name it (Hummingbird's
    /// `endpointPath`).
    package enum Route: String, Sendable, CaseIterable {
        case master = "/v1/sessions/{id}/master.m3u8"
        case media = "/v1/sessions/{id}/media/{rendition}.m3u8"
        case interstitialsMaster = "/v1/sessions/{id}/interstitials/master.m3u8"
        case interstitialsMedia = "/v1/sessions/{id}/interstitials/media/{rendition}.m3u8"
        /// A DASH session's MPD.
        case manifest = "/v1/sessions/{id}/manifest.mpd"

        /// The `Content-Type` the router's path answers the route with.
        var contentType: String { self == .manifest ? PlaylistRoutes.mpdType : PlaylistRoutes.playlistType }
    }

    package var route: Route
    package var body: ByteBuffer
    /// `Content-Encoding: gzip` (the session's gzip copy, for a player that accepts it).
    package var gzipped: Bool
}

/// What can answer a playlist GET without the router: a request whose answer is not at hand
/// (not a session playlist, a session this replica must ask its store about, a live window that
/// must be brought up to date) gets nil and goes the router's way.
package protocol CachedPlaylistAnswering: Sendable {
    /// The answer for a GET of `path` (query removed), if it is at hand.
    /// - Parameter acceptsGzip: the request's `Accept-Encoding` allows gzip.
    func cachedPlaylist(path: Substring, acceptsGzip: Bool) -> CachedPlaylist?
}
