import Foundation
import NIOCore
import Stitching

/// The session playlists answered on the event loop (`CachedPlaylistHandler`): a VOD session's
/// multivariant and media playlists, in both renderings, or its MPD, and a live session's media
/// playlists or MPD when their origin windows are at hand, when this replica holds the session and may trust what
/// it holds (`SessionMap.lookup` says `.fresh`). The lookup is the one the router's path makes, so
/// it counts as the session's activity the same way. A session to confirm with the store, a live
/// reload that would wait for the origin, for creatives or for its record's write, and every
/// other path go to the router.
struct CachedSessionPlaylists: CachedPlaylistAnswering {
    let runtime: SessionRuntime
    let clock: @Sendable () -> Date
    /// Live media playlists and MPDs too, when at hand. On a store other replicas read, a reload
    /// whose answer shows a change only the session's record can tell (a break's decision) goes
    /// to the router's path, which writes the record before answering
    /// (`SessionRuntime.answersWithoutWaiting`); every other reload is answered here, its
    /// changes written behind it as the router's path writes them.
    let live: LiveSessionFactory?
    let analytics: SessionAnalytics
    /// `server.gzip`: a live playlist of 1 KiB or more is compressed for a player that takes gzip,
    /// as the gzip middleware does on the router's path.
    let gzip: Bool

    package func cachedPlaylist(path: Substring, acceptsGzip: Bool) -> CachedPlaylist? {
        let answer = playlist(path: path, acceptsGzip: acceptsGzip)
        if answer != nil { runtime.answeredFromMap() }
        return answer
    }

    private func playlist(path: Substring, acceptsGzip: Bool) -> CachedPlaylist? {
        // Byte comparisons: this runs on every playlist reload of every viewer.
        let bytes = path.utf8
        guard bytes.starts(with: Self.prefix) else { return nil }
        let rest = bytes.dropFirst(Self.prefix.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")), let id = SessionID(path[rest.startIndex..<slash])
        else { return nil }
        var tail = rest[rest.index(after: slash)...]
        var rendering = SessionMode.stitched
        if tail.starts(with: Self.interstitials) {
            rendering = .interstitials
            tail = tail.dropFirst(Self.interstitials.count)
        }
        if rendering == .stitched, tail.elementsEqual(Self.manifest) {
            return manifest(id, acceptsGzip: acceptsGzip)
        }
        let rendition: RenditionKey?
        if tail.elementsEqual(Self.master) {
            rendition = nil
        } else if tail.starts(with: Self.media), tail.count > Self.media.count + Self.suffix.count,
            tail.suffix(Self.suffix.count).elementsEqual(Self.suffix)
        {
            let name = tail.dropFirst(Self.media.count).dropLast(Self.suffix.count)
            guard !name.contains(UInt8(ascii: "/")),
                let key = SessionURLs.rendition(path[name.startIndex..<name.endIndex])
            else { return nil }
            rendition = key
        } else {
            return nil
        }
        let now = clock()
        let session: StitchedSession
        switch runtime.held(id, now: now) {
        case .vod(let vod)?: session = vod
        case .live(let live)?:
            guard let rendition else { return nil }
            return livePlaylist(live, rendering: rendering, rendition: rendition, acceptsGzip: acceptsGzip, at: now)
        case nil: return nil
        }
        let body: PlaylistBody
        do {
            body = try rendition.map { try session.media(rendering, rendition: $0) } ?? session.multivariant(rendering)
        } catch {
            return nil
        }
        let route: CachedPlaylist.Route =
            switch (rendering, rendition) {
            case (.stitched, nil): .master
            case (.stitched, _): .media
            case (.interstitials, nil): .interstitialsMaster
            case (.interstitials, _): .interstitialsMedia
            }
        if acceptsGzip, let gzipped = body.gzipped {
            return CachedPlaylist(route: route, body: gzipped, gzipped: true)
        }
        return CachedPlaylist(route: route, body: body.bytes, gzipped: false)
    }

    /// A DASH session's MPD: a VOD session's as it was stitched, a live session's reload as
    /// `LiveSessionServing.dashManifest` answers it when everything it needs is at hand
    /// (`LiveSessionFactory.dashManifestAtHand`), counted for the ad KPIs the same way.
    private func manifest(_ id: SessionID, acceptsGzip: Bool) -> CachedPlaylist? {
        let now = clock()
        switch runtime.held(id, now: now) {
        case .vod(let vod)?:
            guard let body = try? vod.dashManifest() else { return nil }
            if acceptsGzip, let gzipped = body.gzipped {
                return CachedPlaylist(route: .manifest, body: gzipped, gzipped: true)
            }
            return CachedPlaylist(route: .manifest, body: body.bytes, gzipped: false)
        case .live(let session)?:
            guard let live, let mpd = live.dashManifestAtHand(session), runtime.answersWithoutWaiting(session) else {
                return nil
            }
            analytics.liveBreaksDecided(session, at: now)
            return answer(ByteBuffer(bytes: mpd.serializedBytes()), route: .manifest, acceptsGzip: acceptsGzip)
        case nil:
            return nil
        }
    }

    /// `bytes` as the router's path answers them: compressed by the gzip middleware when the
    /// player takes gzip and they are 1 KiB or more.
    private func answer(_ bytes: ByteBuffer, route: CachedPlaylist.Route, acceptsGzip: Bool) -> CachedPlaylist {
        if acceptsGzip, gzip, bytes.readableBytes >= GzipMiddleware<SeamRequestContext>.defaultMinimumBytes {
            if let compressed = try? GzipEncoding.compress(bytes) {
                return CachedPlaylist(route: route, body: compressed, gzipped: true)
            }
        }
        return CachedPlaylist(route: route, body: bytes, gzipped: false)
    }

    /// A live reload answered as `LiveSessionServing.media` answers it, when everything it needs
    /// is at hand (`LiveSessionFactory.playlistAtHand`), counted for the ad KPIs the same way.
    private func livePlaylist(
        _ session: LiveSession, rendering: SessionMode, rendition: RenditionKey, acceptsGzip: Bool, at now: Date
    ) -> CachedPlaylist? {
        guard let live, let playlist = live.playlistAtHand(session, rendering: rendering, rendition: rendition),
            runtime.answersWithoutWaiting(session)
        else { return nil }
        analytics.liveBreaksDecided(session, at: now)
        let route: CachedPlaylist.Route = rendering == .stitched ? .media : .interstitialsMedia
        return answer(playlist.withSerializedBytes { ByteBuffer(bytes: $0) }, route: route, acceptsGzip: acceptsGzip)
    }

    private static let prefix = Array("/v1/sessions/".utf8)
    private static let interstitials = Array("interstitials/".utf8)
    private static let master = Array("master.m3u8".utf8)
    private static let manifest = Array("manifest.mpd".utf8)
    private static let media = Array("media/".utf8)
    private static let suffix = Array(".m3u8".utf8)
}
