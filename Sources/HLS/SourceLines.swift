/// Where each parsed element came from, so the strict checks can name line numbers.
/// Recorded only when asked for; the proxy's hot path does not pay for it.
public struct SourceLines: Sendable, Hashable {
    /// First line of each header tag (media and multivariant playlists).
    public var header: [TagName: Int] = [:]
    /// For each segment: the line of its first tag and the line of its URI.
    public var segmentStart: [Int] = []
    public var segmentURI: [Int] = []
    /// Segment-level tags: (segment index, tag, line). The trailer has index `segments.count`.
    public var segmentTags: [SegmentTagLine] = []
    /// Line of each variant's `EXT-X-STREAM-INF`, each rendition's `EXT-X-MEDIA`.
    public var variants: [Int] = []
    public var renditions: [Int] = []
    /// Line of each `EXT-X-SESSION-DATA` and `EXT-X-SESSION-KEY`, so a finding on the second of
    /// two names its own line.
    public var sessionData: [Int] = []
    public var sessionKeys: [Int] = []
    /// Line of each `EXT-X-DEFINE` (either kind of playlist), `EXT-X-PRELOAD-HINT` and
    /// `EXT-X-RENDITION-REPORT` (media playlists): tags that may appear more than once.
    public var defines: [Int] = []
    public var preloadHints: [Int] = []
    public var renditionReports: [Int] = []

    public struct SegmentTagLine: Sendable, Hashable {
        public var segment: Int
        public var tag: TagName
        public var line: Int
    }

    public init() {}

    /// The line of `tag` in segment `index` (the first one, if repeated).
    public func line(of tag: TagName, inSegment index: Int) -> Int? {
        segmentTags.first { $0.segment == index && $0.tag == tag }?.line
    }

    public func lines(of tag: TagName) -> [SegmentTagLine] {
        segmentTags.filter { $0.tag == tag }
    }
}

/// A parsed playlist with what the lenient parser noticed on the way.
public struct Parsed<Value: Sendable>: Sendable {
    public var playlist: Value
    public var diagnostics: [PlaylistDiagnostic]
    public var lines: SourceLines

    /// The first number the numbers policy refused (`PlaylistLimits`), with its line: a playlist
    /// with one is not used by the proxy, whatever else it holds.
    public var outOfRangeValue: PlaylistDiagnostic? {
        diagnostics.first { $0.rule == .valueOutOfRange }
    }
}
