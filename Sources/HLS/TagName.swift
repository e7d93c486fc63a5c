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

    /// Identifies a tag from the bytes between `#` and `:` (or the end of the line).
    /// A switch over lengths and static strings: no allocation, no reference counting.
    static func identify(_ name: UnsafeBufferPointer<UInt8>) -> TagName? {
        switch name.count {
        case 6:
            if name.equals("EXTM3U") { return .extm3u }
            if name.equals("EXTINF") { return .extinf }
            return nil
        case 9:
            if name.equals("EXT-X-KEY") { return .key }
            if name.equals("EXT-X-MAP") { return .map }
            if name.equals("EXT-X-GAP") { return .gap }
            if name.equals("EXT-X-CUE") { return .adobeCue }
            return nil
        case 10:
            if name.equals("EXT-X-SKIP") { return .skip }
            if name.equals("EXT-X-PART") { return .part }
            return nil
        case 11:
            if name.equals("EXT-X-START") { return .start }
            if name.equals("EXT-X-MEDIA") { return .media }
            if name.equals("EXT-X-ASSET") { return .asset }
            return nil
        case 12:
            if name.equals("EXT-X-DEFINE") { return .define }
            if name.equals("EXT-X-CUE-IN") { return .cueIn }
            if name.equals("EXT-X-SCTE35") { return .scte35 }
            return nil
        case 13:
            if name.equals("EXT-X-VERSION") { return .version }
            if name.equals("EXT-X-ENDLIST") { return .endList }
            if name.equals("EXT-X-BITRATE") { return .bitrate }
            if name.equals("EXT-X-CUE-OUT") { return .cueOut }
            return nil
        case 14:
            if name.equals("EXT-X-PART-INF") { return .partInf }
            return nil
        case 15:
            if name.equals("EXT-X-BYTERANGE") { return .byteRange }
            if name.equals("EXT-X-DATERANGE") { return .dateRange }
            return nil
        case 16:
            if name.equals("EXT-X-STREAM-INF") { return .streamInf }
            return nil
        case 17:
            if name.equals("EXT-X-SESSION-KEY") { return .sessionKey }
            if name.equals("EXT-OATCLS-SCTE35") { return .oatclsSCTE35 }
            return nil
        case 18:
            if name.equals("EXT-X-PRELOAD-HINT") { return .preloadHint }
            if name.equals("EXT-X-SESSION-DATA") { return .sessionData }
            if name.equals("EXT-X-CUE-OUT-CONT") { return .cueOutCont }
            return nil
        case 19:
            if name.equals("EXT-X-PLAYLIST-TYPE") { return .playlistType }
            if name.equals("EXT-X-I-FRAMES-ONLY") { return .iFramesOnly }
            if name.equals("EXT-X-DISCONTINUITY") { return .discontinuity }
            return nil
        case 20:
            if name.equals("EXT-X-TARGETDURATION") { return .targetDuration }
            if name.equals("EXT-X-MEDIA-SEQUENCE") { return .mediaSequence }
            if name.equals("EXT-X-SERVER-CONTROL") { return .serverControl }
            return nil
        case 22:
            if name.equals("EXT-X-RENDITION-REPORT") { return .renditionReport }
            if name.equals("EXT-X-CONTENT-STEERING") { return .contentSteering }
            return nil
        case 23:
            if name.equals("EXT-X-PROGRAM-DATE-TIME") { return .programDateTime }
            return nil
        case 24:
            if name.equals("EXT-X-I-FRAME-STREAM-INF") { return .iFrameStreamInf }
            if name.equals("EXT-X-SPLICEPOINT-SCTE35") { return .splicepointSCTE35 }
            return nil
        case 26:
            if name.equals("EXT-X-INDEPENDENT-SEGMENTS") { return .independentSegments }
            return nil
        case 28:
            if name.equals("EXT-X-DISCONTINUITY-SEQUENCE") { return .discontinuitySequence }
            return nil
        default:
            return nil
        }
    }

    /// A distinct bit per tag, for sets of tags without hashing.
    var bit: UInt64 {
        switch self {
        case .extm3u: return 1 << 0
        case .extinf: return 1 << 1
        case .version: return 1 << 2
        case .independentSegments: return 1 << 3
        case .start: return 1 << 4
        case .define: return 1 << 5
        case .targetDuration: return 1 << 6
        case .mediaSequence: return 1 << 7
        case .discontinuitySequence: return 1 << 8
        case .endList: return 1 << 9
        case .playlistType: return 1 << 10
        case .iFramesOnly: return 1 << 11
        case .partInf: return 1 << 12
        case .serverControl: return 1 << 13
        case .skip: return 1 << 14
        case .preloadHint: return 1 << 15
        case .renditionReport: return 1 << 16
        case .byteRange: return 1 << 17
        case .discontinuity: return 1 << 18
        case .key: return 1 << 19
        case .map: return 1 << 20
        case .programDateTime: return 1 << 21
        case .dateRange: return 1 << 22
        case .gap: return 1 << 23
        case .bitrate: return 1 << 24
        case .part: return 1 << 25
        case .streamInf: return 1 << 26
        case .media: return 1 << 27
        case .iFrameStreamInf: return 1 << 28
        case .sessionData: return 1 << 29
        case .sessionKey: return 1 << 30
        case .contentSteering: return 1 << 31
        case .cueOut: return 1 << 32
        case .cueOutCont: return 1 << 33
        case .cueIn: return 1 << 34
        case .oatclsSCTE35: return 1 << 35
        case .asset: return 1 << 36
        case .scte35: return 1 << 37
        case .splicepointSCTE35: return 1 << 38
        case .adobeCue: return 1 << 39
        }
    }
}
