/// A session's rendition filter (`renditions` in the create body, `seam.renditions.*` on implicit
/// URLs): the limits of the device class that plays it. A variant passes when it is within every
/// limit given; a limit the variant does not declare (no `RESOLUTION`, no `FRAME-RATE`) does not
/// exclude it.
public struct RenditionFilter: Sendable, Codable, Equatable {
    /// Highest `BANDWIDTH`, bits per second.
    public var maxBandwidth: Int?
    /// Highest picture height (`RESOLUTION`'s second number), pixels.
    public var maxHeight: Int?
    /// Highest `FRAME-RATE`.
    public var maxFrameRate: Double?
    /// Codec families the device plays (`avc`, `hevc`, `dolby-vision`, `av1`, `vp9`; `aac`, `ac-3`,
    /// `ec-3`, `opus`, `flac`, `mp3`): for each kind (video, audio) the list names, a variant's
    /// codecs of that kind must all be among them; a kind it does not name is not filtered.
    public var codecs: [String]?

    public init(maxBandwidth: Int? = nil, maxHeight: Int? = nil, maxFrameRate: Double? = nil, codecs: [String]? = nil) {
        self.maxBandwidth = maxBandwidth
        self.maxHeight = maxHeight
        self.maxFrameRate = maxFrameRate
        self.codecs = codecs
    }

    /// Every codec family a filter may name, by kind.
    public static let videoFamilies = ["avc", "hevc", "dolby-vision", "av1", "vp9"]
    public static let audioFamilies = ["aac", "ac-3", "ec-3", "opus", "flac", "mp3"]

    /// The family of one `CODECS` entry (`avc1.64001f` → `avc`), nil for one Seam does not know.
    public static func family(of codec: some StringProtocol) -> String? {
        let fourCC = codec.split(separator: ".", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        switch fourCC {
        case "avc1", "avc3": return "avc"
        case "hvc1", "hev1": return "hevc"
        case "dvh1", "dvhe", "dva1", "dvav": return "dolby-vision"
        case "av01": return "av1"
        case "vp09": return "vp9"
        case "mp4a":
            return codec.lowercased().hasPrefix("mp4a.40.34") || codec.lowercased() == "mp4a.6b" ? "mp3" : "aac"
        case "ac-3": return "ac-3"
        case "ec-3": return "ec-3"
        case "opus": return "opus"
        case "flac", "fl32": return "flac"
        default: return nil
        }
    }

    /// Whether a variant with these attributes passes.
    /// - Parameters:
    ///   - codecs: its `CODECS` entries; empty when it declares none (then codecs do not exclude it).
    public func admits(bandwidth: Int, height: Int?, frameRate: Double?, codecs variantCodecs: [String]) -> Bool {
        if let maxBandwidth, bandwidth > maxBandwidth { return false }
        if let maxHeight, let height, height > maxHeight { return false }
        if let maxFrameRate, let frameRate, frameRate > maxFrameRate + 0.001 { return false }
        if let codecs, !variantCodecs.isEmpty {
            let allowed = Set(codecs)
            for kind in [Self.videoFamilies, Self.audioFamilies] where kind.contains(where: allowed.contains) {
                for codec in variantCodecs {
                    guard let family = Self.family(of: codec), kind.contains(family) else { continue }
                    if !allowed.contains(family) { return false }
                }
            }
        }
        return true
    }

    /// The filter in words, for an error message (`maxHeight 480, codecs avc`).
    public var summary: String {
        var parts: [String] = []
        if let maxBandwidth { parts.append("maxBandwidth \(maxBandwidth)") }
        if let maxHeight { parts.append("maxHeight \(maxHeight)") }
        if let maxFrameRate { parts.append("maxFrameRate \(maxFrameRate)") }
        if let codecs { parts.append("codecs \(codecs.joined(separator: ","))") }
        return parts.joined(separator: ", ")
    }
}
