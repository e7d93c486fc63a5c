/// One media segment with the tags that precede its URI.
///
/// Tags that change state for later segments (`EXT-X-KEY`, `EXT-X-MAP`, `EXT-X-BITRATE`)
/// are stored where they appear, as the playlist has them; `MediaPlaylist` resolves the
/// effective values when a splice needs them.
public struct MediaSegment: Sendable, Hashable {
    public var uri: String
    public var duration: Double
    /// The `EXTINF` title after the comma; usually empty.
    public var title: String
    public var byteRange: ByteRange?
    public var discontinuity: Bool
    /// `EXT-X-KEY` tags that start at this segment (several when key formats differ).
    public var keys: [EncryptionKey]
    public var map: MediaInitializationSection?
    public var programDateTime: DateTime?
    public var gap: Bool
    /// `EXT-X-BITRATE` in kbit/s.
    public var bitrate: Int?
    public var dateRanges: [DateRange]
    public var cues: [CueTag]
    /// LL-HLS parts that make up this segment.
    public var parts: [PartialSegment]
    /// Unknown tags and comments found before this segment, verbatim and in order.
    public var unknownLines: [String]

    public init(
        uri: String,
        duration: Double,
        title: String = "",
        byteRange: ByteRange? = nil,
        discontinuity: Bool = false,
        keys: [EncryptionKey] = [],
        map: MediaInitializationSection? = nil,
        programDateTime: DateTime? = nil,
        gap: Bool = false,
        bitrate: Int? = nil,
        dateRanges: [DateRange] = [],
        cues: [CueTag] = [],
        parts: [PartialSegment] = [],
        unknownLines: [String] = []
    ) {
        self.uri = uri
        self.duration = duration
        self.title = title
        self.byteRange = byteRange
        self.discontinuity = discontinuity
        self.keys = keys
        self.map = map
        self.programDateTime = programDateTime
        self.gap = gap
        self.bitrate = bitrate
        self.dateRanges = dateRanges
        self.cues = cues
        self.parts = parts
        self.unknownLines = unknownLines
    }

    /// True when the segment carries nothing but (possibly) a URI: used for the
    /// tags that follow the last segment of a playlist.
    var hasNoTags: Bool {
        !discontinuity && keys.isEmpty && map == nil && programDateTime == nil && !gap && bitrate == nil
            && dateRanges.isEmpty && cues.isEmpty && parts.isEmpty && unknownLines.isEmpty && byteRange == nil
    }
}
