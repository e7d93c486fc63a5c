import DASH
import HLS

/// An ad's HLS creative with every rendition fetched, URIs absolute. What `CreativeFit` fits
/// into a title; fetching it is the server's business.
public struct AdCreative: Sendable {
    /// Most media playlists (variants, audio and subtitle renditions) Seam fetches for one
    /// creative; a creative listing more is skipped with that reason. Ad ladders have a handful.
    public static let maxRenditions = 32
    /// Most segments in one creative media playlist: 2,000 one-second segments is half an hour.
    public static let maxSegments = 2_000

    /// The creative's URL as the ad named it: the key its fit is remembered by.
    public var url: String
    /// Its variants, audio and subtitle renditions with their playlists: what the matchers
    /// (`CreativeMatcher`, `AdAudioMatcher`, `AdSubtitlePicker`) choose from.
    public var catalog: AdMediaCatalog

    /// The ad's MPD, URLs as written, for a DASH session (`DASHCreativeFit` fits it); its
    /// `catalog` is then empty. Nil for an HLS creative.
    public var dash: MPD?

    public init(url: String, catalog: AdMediaCatalog) {
        self.url = url
        self.catalog = catalog
    }

    /// A DASH creative: the ad's static MPD, fetched from `url`.
    public init(url: String, dash: MPD) {
        self.url = url
        self.catalog = AdMediaCatalog(multivariant: MultivariantPlaylist(), playlists: [:])
        self.dash = dash
    }

    /// The creative's variant streams with their playlists.
    public var variants: [AdMediaCatalog.Variant] { catalog.variants }

    /// True when the creative's segments are fMP4 (they carry `EXT-X-MAP`).
    public var isFragmentedMP4: Bool {
        variants.contains { $0.playlist.segments.first?.map != nil }
    }
}
