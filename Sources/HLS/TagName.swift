/// Every tag Seam knows by name. Anything else is kept verbatim as an unknown line.
public enum TagName: String, Sendable, Hashable, CaseIterable {
    case extm3u = "EXTM3U"
    case extinf = "EXTINF"
    case version = "EXT-X-VERSION"
    case independentSegments = "EXT-X-INDEPENDENT-SEGMENTS"
    case start = "EXT-X-START"
    case define = "EXT-X-DEFINE"
    // Media playlist header
    case targetDuration = "EXT-X-TARGETDURATION"
    case mediaSequence = "EXT-X-MEDIA-SEQUENCE"
    case discontinuitySequence = "EXT-X-DISCONTINUITY-SEQUENCE"
    case endList = "EXT-X-ENDLIST"
    case playlistType = "EXT-X-PLAYLIST-TYPE"
    case iFramesOnly = "EXT-X-I-FRAMES-ONLY"
    case partInf = "EXT-X-PART-INF"
    case serverControl = "EXT-X-SERVER-CONTROL"
    case skip = "EXT-X-SKIP"
    case preloadHint = "EXT-X-PRELOAD-HINT"
    case renditionReport = "EXT-X-RENDITION-REPORT"
    // Media segment
    case byteRange = "EXT-X-BYTERANGE"
    case discontinuity = "EXT-X-DISCONTINUITY"
    case key = "EXT-X-KEY"
    case map = "EXT-X-MAP"
    case programDateTime = "EXT-X-PROGRAM-DATE-TIME"
    case dateRange = "EXT-X-DATERANGE"
    case gap = "EXT-X-GAP"
    case bitrate = "EXT-X-BITRATE"
    case part = "EXT-X-PART"
    // Multivariant
    case streamInf = "EXT-X-STREAM-INF"
    case media = "EXT-X-MEDIA"
    case iFrameStreamInf = "EXT-X-I-FRAME-STREAM-INF"
    case sessionData = "EXT-X-SESSION-DATA"
    case sessionKey = "EXT-X-SESSION-KEY"
    case contentSteering = "EXT-X-CONTENT-STEERING"
    // Cue dialects
    case cueOut = "EXT-X-CUE-OUT"
    case cueOutCont = "EXT-X-CUE-OUT-CONT"
    case cueIn = "EXT-X-CUE-IN"
    case oatclsSCTE35 = "EXT-OATCLS-SCTE35"
    case asset = "EXT-X-ASSET"
    case scte35 = "EXT-X-SCTE35"
    case splicepointSCTE35 = "EXT-X-SPLICEPOINT-SCTE35"
    case adobeCue = "EXT-X-CUE"

    var cueKind: CueTag.Kind? {
        switch self {
        case .cueOut: return .cueOut
        case .cueOutCont: return .cueOutCont
        case .cueIn: return .cueIn
        case .oatclsSCTE35: return .oatclsSCTE35
        case .asset: return .asset
        case .scte35: return .scte35
        case .splicepointSCTE35: return .splicepointSCTE35
        case .adobeCue: return .adobeCue
        default: return nil
        }
    }

    /// Tags that only a multivariant playlist has.
    var isMultivariantOnly: Bool {
        switch self {
        case .streamInf, .media, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering: return true
        default: return false
        }
    }

    /// Tags that only a media playlist has.
    var isMediaOnly: Bool {
        switch self {
        case .extinf, .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType,
             .iFramesOnly, .partInf, .serverControl, .skip, .preloadHint, .renditionReport, .byteRange,
             .discontinuity, .key, .map, .programDateTime, .dateRange, .gap, .bitrate, .part:
            return true
        default: return false
        }
    }

    /// Names grouped by byte length, for lookup without building a String.
    private static let byLength: [[(bytes: [UInt8], tag: TagName)]] = {
        var table = [[(bytes: [UInt8], tag: TagName)]](repeating: [], count: 32)
        for tag in TagName.allCases {
            let bytes = Array(tag.rawValue.utf8)
            table[bytes.count].append((bytes, tag))
        }
        return table
    }()

    /// Identifies a tag from the bytes between `#` and `:` (or the end of the line).
    static func identify(_ name: UnsafeBufferPointer<UInt8>) -> TagName? {
        let count = name.count
        guard count < 32 else { return nil }
        let candidates = byLength[count]
        for candidate in candidates {
            // Compare from the end: names share the `EXT-X-` prefix.
            var i = count - 1
            var equal = true
            candidate.bytes.withUnsafeBufferPointer { c in
                while i >= 0 {
                    if c[i] != name[i] { equal = false; break }
                    i -= 1
                }
            }
            if equal { return candidate.tag }
        }
        return nil
    }
}
