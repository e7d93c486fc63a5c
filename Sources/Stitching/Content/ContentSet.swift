import HLS

/// A title as the origin serves it: its multivariant playlist and every rendition Seam stitches,
/// each with its media playlist (URIs absolute) and where it came from. VOD sessions splice it
/// once; a live channel keeps the first windows and fetches each rendition again on reloads.
public struct ContentSet: Sendable {
    /// One rendition of the title.
    public struct Rendition: Sendable {
        public var key: RenditionKey
        /// The variant this rendition is (nil for `EXT-X-MEDIA` renditions).
        public var variant: VariantStream?
        /// The `EXT-X-MEDIA` entry this rendition is (nil for variants).
        public var rendition: HLS.Rendition?
        public var playlist: MediaPlaylist
        /// Where the media playlist comes from (live sessions fetch it again on every reload).
        public var sourceURL: String

        public var kind: RenditionKey.Kind { key.kind }

        public init(
            key: RenditionKey, variant: VariantStream? = nil, rendition: HLS.Rendition? = nil,
            playlist: MediaPlaylist, sourceURL: String
        ) {
            self.key = key
            self.variant = variant
            self.rendition = rendition
            self.playlist = playlist
            self.sourceURL = sourceURL
        }
    }

    /// A rendition to fetch: what the multivariant playlist lists, before its media playlist is in.
    public struct Wanted: Sendable {
        public var key: RenditionKey
        public var variant: VariantStream?
        public var rendition: HLS.Rendition?
        public var uri: String
    }

    public var multivariant: MultivariantPlaylist
    /// Never empty; the first is the reference.
    public private(set) var renditions: [Rendition]
    /// The first rendition's playlist: its timeline is the session's (tracking, cue positions).
    public private(set) var reference: MediaPlaylist
    /// The first rendition's key.
    public private(set) var referenceKey: RenditionKey

    /// Nil when `renditions` is empty: a title without a rendition cannot be stitched.
    public init?(multivariant: MultivariantPlaylist, renditions: [Rendition]) {
        guard let first = renditions.first else { return nil }
        self.multivariant = multivariant
        self.renditions = renditions
        reference = first.playlist
        referenceKey = first.key
    }

    /// A title served as one media playlist: a multivariant of one variant is made up for it.
    public init(media: MediaPlaylist, url: String) {
        var multivariant = MultivariantPlaylist(version: media.version)
        let variant = VariantStream(uri: url, bandwidth: 0)
        multivariant.variants = [variant]
        self.multivariant = multivariant
        renditions = [Rendition(key: RenditionKey(.variant, 0), variant: variant, playlist: media, sourceURL: url)]
        reference = media
        referenceKey = RenditionKey(.variant, 0)
    }

    /// The renditions of `multivariant` Seam stitches, in order: every variant, then the audio,
    /// subtitle and alternate video renditions that have a URI (closed captions ride in the video).
    public static func wanted(in multivariant: MultivariantPlaylist) -> [Wanted] {
        var wanted: [Wanted] = []
        for (index, variant) in multivariant.variants.enumerated() {
            wanted.append(
                Wanted(key: RenditionKey(.variant, index), variant: variant, rendition: nil, uri: variant.uri))
        }
        for (index, rendition) in multivariant.renditions.enumerated() {
            guard let uri = rendition.uri, let kind = kind(of: rendition) else { continue }
            wanted.append(Wanted(key: RenditionKey(kind, index), variant: nil, rendition: rendition, uri: uri))
        }
        return wanted
    }

    /// The key kind of an `EXT-X-MEDIA` entry, nil for those Seam does not route (closed captions).
    static func kind(of rendition: HLS.Rendition) -> RenditionKey.Kind? {
        switch rendition.type {
        case .audio: return .audio
        case .subtitles: return .subtitles
        case .video: return .alternateVideo
        default: return nil
        }
    }

    /// The title with only the variants at `admitted` (indexes in the multivariant playlist):
    /// a session's rendition filter. Alternate renditions stay; nil when no variant is left.
    public func keepingVariants(_ admitted: Set<Int>) -> ContentSet? {
        let kept = renditions.filter { $0.key.kind != .variant || admitted.contains($0.key.index) }
        guard kept.contains(where: { $0.key.kind == .variant }) else { return nil }
        return ContentSet(multivariant: multivariant, renditions: kept)
    }

    public func rendition(_ key: RenditionKey) -> Rendition? {
        renditions.first { $0.key == key }
    }

    /// VOD or live, decided by the title's video (`PlaybackKindDecision`): a subtitle playlist
    /// the packager left without `EXT-X-ENDLIST` next to finished video is still VOD, with a
    /// warning for the log.
    public var playback: PlaybackKindDecision {
        // Keyed by URI as the multivariant lists them; a URI listed twice keeps its first playlist.
        let playlists = Dictionary(
            renditions.map { ($0.sourceURL, $0.playlist) }, uniquingKeysWith: { first, _ in first })
        return PlaybackKindDecision.decide(multivariant: multivariant, playlists: playlists)
    }
}
