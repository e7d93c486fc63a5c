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
