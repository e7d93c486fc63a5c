import HLS

/// An ad's HLS creative with every rendition fetched, URIs absolute. What `CreativeFit` fits
/// into a title; fetching it is the server's business.
public struct AdCreative: Sendable {
    /// Most renditions (variants and audio) Seam fetches for one creative; a creative listing more
    /// is skipped with that reason. Ad ladders have a handful.
    public static let maxRenditions = 32
    /// Most segments in one creative media playlist: 2,000 one-second segments is half an hour.
    public static let maxSegments = 2_000

    public struct Variant: Sendable {
        public var stream: VariantStream
        public var playlist: MediaPlaylist

        public init(stream: VariantStream, playlist: MediaPlaylist) {
            self.stream = stream
            self.playlist = playlist
        }
    }

    public struct AudioRendition: Sendable {
        public var rendition: Rendition
        public var playlist: MediaPlaylist

        public init(rendition: Rendition, playlist: MediaPlaylist) {
            self.rendition = rendition
            self.playlist = playlist
        }
    }

    /// The creative's URL as the ad named it: the key its fit is remembered by.
    public var url: String
    public var variants: [Variant]
    public var audio: [AudioRendition]

    public init(url: String, variants: [Variant], audio: [AudioRendition]) {
        self.url = url
        self.variants = variants
        self.audio = audio
    }

    /// True when the creative's segments are fMP4 (they carry `EXT-X-MAP`).
    public var isFragmentedMP4: Bool {
        variants.contains { $0.playlist.segments.first?.map != nil }
    }
}
