/// A media playlist: one rendition's list of segments.
public struct MediaPlaylist: Sendable, Hashable {
    public enum PlaylistType: String, Sendable, Hashable {
        case event = "EVENT"
        case vod = "VOD"
    }

    public var version: Int?
    public var targetDuration: Int
    public var mediaSequence: Int
    public var discontinuitySequence: Int
    /// Whether the tags were present; a playlist without them means 0 but writes nothing.
    /// (A media playlist without a target duration is invalid, but Seam does not invent one.)
    public var hasTargetDurationTag: Bool
    public var hasMediaSequenceTag: Bool
    public var hasDiscontinuitySequenceTag: Bool
    public var playlistType: PlaylistType?
    public var iFramesOnly: Bool
    public var independentSegments: Bool
    public var start: StartPoint?
    public var defines: [VariableDefinition]
    public var partInformation: PartInformation?
    public var serverControl: ServerControl?
    /// Unknown tags and comments between the header and the first segment.
    public var headerLines: [String]
    public var skip: SkipInformation?
    public var segments: [MediaSegment]
    /// Tags after the last segment's URI: LL-HLS parts of the segment still being
    /// produced, cues and date ranges for it, trailing comments. Its `uri` is empty.
    public var trailer: MediaSegment?
    public var preloadHints: [PreloadHint]
    public var renditionReports: [RenditionReport]
    public var endList: Bool

    public init(
        version: Int? = nil,
        targetDuration: Int = 0,
        mediaSequence: Int = 0,
        discontinuitySequence: Int = 0,
        playlistType: PlaylistType? = nil,
        segments: [MediaSegment] = [],
        endList: Bool = false
    ) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        hasTargetDurationTag = targetDuration != 0
        hasMediaSequenceTag = mediaSequence != 0
        hasDiscontinuitySequenceTag = discontinuitySequence != 0
        self.playlistType = playlistType
        iFramesOnly = false
        independentSegments = false
        start = nil
        defines = []
        partInformation = nil
        serverControl = nil
        headerLines = []
        skip = nil
        self.segments = segments
        trailer = nil
        preloadHints = []
        renditionReports = []
        self.endList = endList
    }

    /// Total duration of the listed segments in seconds.
    public var duration: Double {
        var total = 0.0
        for segment in segments { total += segment.duration }
        return total
    }

    /// True for a playlist that will not change (VOD or ended event).
    public var isFinished: Bool { endList || playlistType == .vod }

    /// The `EXT-X-KEY` tags in force for each segment, in segment order.
    public func effectiveKeys() -> [[EncryptionKey]] {
        var current: [EncryptionKey] = []
        var result: [[EncryptionKey]] = []
        result.reserveCapacity(segments.count)
        for segment in segments {
            if !segment.keys.isEmpty { current = Self.applying(segment.keys, to: current) }
            result.append(current)
        }
        return result
    }

    /// A new KEY tag replaces the one of the same KEYFORMAT; METHOD=NONE clears all.
    static func applying(_ keys: [EncryptionKey], to current: [EncryptionKey]) -> [EncryptionKey] {
        var result = current
        for key in keys {
            if key.method == .none {
                result = [key]
                continue
            }
            result.removeAll { $0.method == .none || ($0.keyFormat ?? "identity") == (key.keyFormat ?? "identity") }
            result.append(key)
        }
        return result
    }

    /// The `EXT-X-MAP` in force for each segment, in segment order.
    public func effectiveMaps() -> [MediaInitializationSection?] {
        var current: MediaInitializationSection?
        return segments.map { segment in
            if let map = segment.map { current = map }
            return current
        }
    }

    /// Byte ranges with every offset filled in (an absent offset continues the previous
    /// range of the same URI); nil entries for segments without a range.
    public func resolvedByteRanges() -> [ByteRange?] {
        var previousURI: String?
        var nextOffset = 0
        return segments.map { segment in
            guard let range = segment.byteRange else {
                previousURI = nil
                return nil
            }
            let offset = range.offset ?? (previousURI == segment.uri ? nextOffset : 0)
            previousURI = segment.uri
            // Saturating: a hostile playlist can chain enough large ranges to pass Int.max.
            let (end, overflow) = offset.addingReportingOverflow(range.length)
            nextOffset = overflow ? .max : end
            return ByteRange(length: range.length, offset: offset)
        }
    }
}
