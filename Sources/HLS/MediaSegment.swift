/// One media segment with the tags that precede its URI.
///
/// Tags that change state for later segments (`EXT-X-KEY`, `EXT-X-MAP`, `EXT-X-BITRATE`)
/// are stored where they appear, as the playlist has them; `MediaPlaylist` resolves the
/// effective values when a splice needs them.
///
/// Most segments carry only a duration and a URI, so the rarer tags live in one shared,
/// copy-on-write box: copying a plain segment retains one string, not a dozen arrays.
public struct MediaSegment: Sendable, Hashable {
    public var uri: String
    public var duration: Double
    public var byteRange: ByteRange?
    public var discontinuity: Bool
    public var programDateTime: DateTime?
    private var rare: RareTags?

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
        self.byteRange = byteRange
        self.discontinuity = discontinuity
        self.programDateTime = programDateTime
        let tags = RareTags.Values(
            title: title, keys: keys, map: map, gap: gap, bitrate: bitrate, dateRanges: dateRanges,
            cues: cues, parts: parts, unknownLines: unknownLines)
        rare = tags.isEmpty ? nil : RareTags(tags)
    }

    /// A segment with only a URI; the parser fills in the rest in place.
    init(uri: String) {
        self.uri = uri
        duration = 0
        byteRange = nil
        discontinuity = false
        programDateTime = nil
        rare = nil
    }

    /// The `EXTINF` title after the comma; usually empty, so it lives with the rare tags.
    public var title: String {
        get { rare?.values.title ?? "" }
        set { update { $0.title = newValue } }
    }

    /// `EXT-X-KEY` tags that start at this segment (several when key formats differ).
    public var keys: [EncryptionKey] {
        get { rare?.values.keys ?? [] }
        set { update { $0.keys = newValue } }
    }
    public var map: MediaInitializationSection? {
        get { rare?.values.map }
        set { update { $0.map = newValue } }
    }
    public var gap: Bool {
        get { rare?.values.gap ?? false }
        set { update { $0.gap = newValue } }
    }
    /// `EXT-X-BITRATE` in kbit/s.
    public var bitrate: Int? {
        get { rare?.values.bitrate }
        set { update { $0.bitrate = newValue } }
    }
    public var dateRanges: [DateRange] {
        get { rare?.values.dateRanges ?? [] }
        set { update { $0.dateRanges = newValue } }
    }
    public var cues: [CueTag] {
        get { rare?.values.cues ?? [] }
        set { update { $0.cues = newValue } }
    }
    /// LL-HLS parts that make up this segment.
    public var parts: [PartialSegment] {
        get { rare?.values.parts ?? [] }
        set { update { $0.parts = newValue } }
    }
    /// Unknown tags and comments found before this segment, verbatim and in order.
    public var unknownLines: [String] {
        get { rare?.values.unknownLines ?? [] }
        set { update { $0.unknownLines = newValue } }
    }

    private mutating func update(_ change: (inout RareTags.Values) -> Void) {
        if rare == nil {
            rare = RareTags(RareTags.Values())
        } else if !isKnownUniquelyReferenced(&rare!) {
            rare = RareTags(rare!.values)
        }
        change(&rare!.values)
        if rare!.values.isEmpty { rare = nil }
    }

    public static func == (a: MediaSegment, b: MediaSegment) -> Bool {
        a.uri == b.uri && a.duration == b.duration && a.byteRange == b.byteRange
            && a.discontinuity == b.discontinuity && a.programDateTime == b.programDateTime
            && (a.rare?.values ?? RareTags.Values()) == (b.rare?.values ?? RareTags.Values())
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(duration)
        hasher.combine(byteRange)
        hasher.combine(discontinuity)
        hasher.combine(programDateTime)
        hasher.combine(rare?.values ?? RareTags.Values())
    }
}

/// The copy-on-write box behind `MediaSegment`'s rare tags. Only mutated while uniquely
/// referenced (see `MediaSegment.update`), which is what makes sharing it across tasks safe.
private final class RareTags: @unchecked Sendable {
    struct Values: Hashable {
        var title = ""
        var keys: [EncryptionKey] = []
        var map: MediaInitializationSection?
        var gap = false
        var bitrate: Int?
        var dateRanges: [DateRange] = []
        var cues: [CueTag] = []
        var parts: [PartialSegment] = []
        var unknownLines: [String] = []

        var isEmpty: Bool {
            title.isEmpty && keys.isEmpty && map == nil && !gap && bitrate == nil && dateRanges.isEmpty && cues.isEmpty
                && parts.isEmpty && unknownLines.isEmpty
        }
    }

    var values: Values

    init(_ values: Values) {
        self.values = values
    }
}
