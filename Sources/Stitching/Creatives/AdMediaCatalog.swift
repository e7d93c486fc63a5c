import HLS

/// Everything of one ad creative that matching needs: its variants, its audio renditions with
/// the codecs their groups carry, its muxed variants' audio, and its subtitle renditions, each
/// with the media playlist fetched for it.
///
/// Built from the creative's multivariant playlist and the media playlists fetched for it,
/// keyed by URI as the multivariant lists them. A listed rendition whose playlist is missing is
/// left out: what was not fetched cannot be spliced. The loader asks `mediaPlaylistURIs(of:)`
/// what to fetch.
public struct AdMediaCatalog: Sendable {
    /// A variant stream of the creative and its media playlist.
    public struct Variant: Sendable {
        public var stream: VariantStream
        public var playlist: MediaPlaylist
    }

    /// An audio rendition (`EXT-X-MEDIA:TYPE=AUDIO` with a URI) and its media playlist.
    public struct AudioOption: Sendable {
        public var rendition: Rendition
        public var profile: AudioTrackProfile
        public var playlist: MediaPlaylist
    }

    /// A variant whose segments carry the audio (no audio rendition with a URI in its group).
    public struct MuxedAudioOption: Sendable {
        public var stream: VariantStream
        public var profile: AudioTrackProfile
        public var playlist: MediaPlaylist
    }

    /// A subtitle rendition (`EXT-X-MEDIA:TYPE=SUBTITLES` with a URI) and its media playlist.
    public struct SubtitleOption: Sendable {
        public var rendition: Rendition
        public var playlist: MediaPlaylist
    }

    public var variants: [Variant]
    public var audio: [AudioOption]
    public var muxedAudio: [MuxedAudioOption]
    public var subtitles: [SubtitleOption]

    /// - Parameters:
    ///   - multivariant: the creative's multivariant playlist.
    ///   - playlists: the media playlists fetched for it, by URI as `multivariant` lists them.
    public init(multivariant: MultivariantPlaylist, playlists: [String: MediaPlaylist]) {
        variants = multivariant.variants.compactMap { stream in
            playlists[stream.uri].map { Variant(stream: stream, playlist: $0) }
        }
        var audio: [AudioOption] = []
        var subtitles: [SubtitleOption] = []
        for rendition in multivariant.renditions {
            guard let uri = rendition.uri, let playlist = playlists[uri] else { continue }
            switch rendition.type {
            case .audio:
                audio.append(
                    AudioOption(
                        rendition: rendition, profile: AudioTrackProfile(rendition: rendition, in: multivariant),
                        playlist: playlist))
            case .subtitles:
                subtitles.append(SubtitleOption(rendition: rendition, playlist: playlist))
            default:
                continue
            }
        }
        self.audio = audio
        self.subtitles = subtitles
        let separateAudioGroups = Set(
            multivariant.renditions.filter { $0.type == .audio && $0.uri != nil }.map(\.groupID))
        muxedAudio = variants.filter { variant in
            variant.stream.audioGroup.map { !separateAudioGroups.contains($0) } ?? true
        }.map { variant in
            MuxedAudioOption(
                stream: variant.stream, profile: AudioTrackProfile(muxedVariant: variant.stream, in: multivariant),
                playlist: variant.playlist)
        }
    }

    /// A creative that is a single media playlist: one muxed variant of undeclared codecs.
    public init(mediaPlaylist: MediaPlaylist, uri: String) {
        let stream = VariantStream(uri: uri, bandwidth: 0)
        var multivariant = MultivariantPlaylist()
        multivariant.variants = [stream]
        self.init(multivariant: multivariant, playlists: [uri: mediaPlaylist])
    }

    /// The media playlists a loader fetches for a creative, in this order, each once: the
    /// variants, then the audio renditions, then the subtitle renditions.
    public static func mediaPlaylistURIs(of multivariant: MultivariantPlaylist) -> [String] {
        var seen = Set<String>()
        var uris: [String] = []
        let renditions =
            multivariant.renditions.filter { $0.type == .audio }
            + multivariant.renditions.filter { $0.type == .subtitles }
        for uri in multivariant.variants.map(\.uri) + renditions.compactMap(\.uri) where seen.insert(uri).inserted {
            uris.append(uri)
        }
        return uris
    }
}
