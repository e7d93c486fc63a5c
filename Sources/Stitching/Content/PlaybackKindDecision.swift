import HLS

/// VOD or live for a multivariant title as a whole, decided by its video.
///
/// Packagers get the side playlists wrong more often than the video: a WebVTT playlist
/// without `EXT-X-ENDLIST` next to finished video is common (the hls-splice `hls_subtitles`
/// vector is one). Deciding "live" whenever any rendition is unfinished turns such a title
/// live, and a VOD title has no live cues, so it would lose its ads. The video playlists
/// decide; a rendition that disagrees is reported in a warning and follows the title.
public struct PlaybackKindDecision: Sendable, Hashable {
    public var kind: PlaybackKind
    /// One line per rendition whose playlist disagrees with `kind`, for the log.
    public var warnings: [String]

    public init(kind: PlaybackKind, warnings: [String]) {
        self.kind = kind
        self.warnings = warnings
    }

    /// - Parameters:
    ///   - multivariant: the title's multivariant playlist.
    ///   - playlists: its media playlists, by URI as `multivariant` lists them. Renditions
    ///     without a playlist here are not considered.
    /// - Returns: VOD when the reference video (the first variant with a playlist here) is
    ///   finished (`EXT-X-ENDLIST` or `PLAYLIST-TYPE:VOD`), else live. The video is the
    ///   variants and the `TYPE=VIDEO` renditions; a title whose playlists are all audio or
    ///   subtitles is decided by the first of them.
    public static func decide(
        multivariant: MultivariantPlaylist, playlists: [String: MediaPlaylist]
    ) -> PlaybackKindDecision {
        var video: [(label: String, playlist: MediaPlaylist)] = []
        var others: [(label: String, playlist: MediaPlaylist)] = []
        for variant in multivariant.variants {
            if let playlist = playlists[variant.uri] { video.append(("variant \(variant.uri)", playlist)) }
        }
        for rendition in multivariant.renditions {
            guard let uri = rendition.uri, let playlist = playlists[uri] else { continue }
            let type = rendition.type?.rawValue.lowercased() ?? "unknown"
            let label = "\(type) rendition \"\(rendition.name)\" (\(uri))"
            if rendition.type == .video { video.append((label, playlist)) } else { others.append((label, playlist)) }
        }
        guard let reference = video.first ?? others.first else { return PlaybackKindDecision(kind: .vod, warnings: []) }
        let kind: PlaybackKind = reference.playlist.isFinished ? .vod : .live
        var warnings: [String] = []
        for (label, playlist) in video + others where playlist.isFinished != reference.playlist.isFinished {
            if kind == .vod {
                warnings.append(
                    "\(label) is not finished (no EXT-X-ENDLIST, no PLAYLIST-TYPE:VOD) while \(reference.label) is; the title is VOD and this rendition is served as VOD with it"
                )
            } else {
                warnings.append(
                    "\(label) is finished while \(reference.label) is live; the title is live and this rendition is followed as live with it"
                )
            }
        }
        return PlaybackKindDecision(kind: kind, warnings: warnings)
    }

    /// A title that is a single media playlist: finished is VOD, no warnings.
    public static func decide(mediaPlaylist: MediaPlaylist) -> PlaybackKindDecision {
        PlaybackKindDecision(kind: mediaPlaylist.isFinished ? .vod : .live, warnings: [])
    }
}
