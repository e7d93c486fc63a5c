import HLS

/// Which variants a session's rendition filter (`RenditionFilter`, the API's vocabulary) lets
/// through: the rule, here with the rest of the engine.
extension RenditionFilter {
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

    /// Whether `variant` passes, read from its `BANDWIDTH`, `RESOLUTION`, `FRAME-RATE` and `CODECS`.
    public func admits(_ variant: VariantStream) -> Bool {
        admits(
            bandwidth: variant.bandwidth, height: variant.resolution?.height, frameRate: variant.frameRate,
            codecs: variant.codecs)
    }
}
