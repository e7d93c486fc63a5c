import HLS

/// What a player's audio decoder sees of one audio track: its codec, its channel count and its
/// language. An ad's audio is only spliced into a content audio rendition when a decoder set up
/// for the content can play it, so both sides are described the same way.
///
/// HLS does not put CODECS on `EXT-X-MEDIA`: a rendition's codec is the audio part of the CODECS
/// of the variants that name its GROUP-ID in `AUDIO`. A muxed variant's audio codec is the audio
/// part of its own CODECS.
public struct AudioTrackProfile: Sendable, Hashable {
    /// The audio codecs (`mp4a.40.2`, `ec-3`, ...), lowercased, sorted, without duplicates.
    /// Empty when the playlist does not say (no variant of the group declares CODECS).
    public var codecs: [String]
    /// The channel count (`CHANNELS="6"` → 6, `"16/JOC"` → 16); nil when not declared.
    public var channels: Int?
    /// `LANGUAGE`, as written; nil when not declared.
    public var language: String?
    /// The rendition's `GROUP-ID`; empty for a muxed variant.
    public var groupID: String

    public init(codecs: [String], channels: Int?, language: String?, groupID: String) {
        self.codecs = Array(Set(codecs.map { $0.lowercased() })).sorted()
        self.channels = channels
        self.language = language
        self.groupID = groupID
    }

    /// The profile of an audio rendition of `multivariant`.
    public init(rendition: Rendition, in multivariant: MultivariantPlaylist) {
        let codecs = multivariant.variants
            .filter { $0.audioGroup == rendition.groupID }
            .flatMap { Self.audioCodecs(in: $0.codecs) }
        self.init(
            codecs: codecs, channels: Self.channelCount(rendition.channels),
            language: rendition.language, groupID: rendition.groupID)
    }

    /// The audio a muxed variant carries in its own segments. A variant whose `AUDIO` group
    /// lists renditions without URI (the audio is in the variant) takes their `CHANNELS` and
    /// `LANGUAGE` (the DEFAULT one's, else the first's).
    public init(muxedVariant variant: VariantStream, in multivariant: MultivariantPlaylist) {
        let described = variant.audioGroup.map { multivariant.renditions(inGroup: $0, type: .audio) } ?? []
        let main = described.first(where: \.isDefault) ?? described.first
        self.init(
            codecs: Self.audioCodecs(in: variant.codecs), channels: Self.channelCount(main?.channels),
            language: main?.language, groupID: variant.audioGroup ?? "")
    }

    /// Codec families that are audio (RFC 6381 sample entries and the names HLS uses for them).
    static let audioFamilies: Set<String> = [
        "mp4a", "ac-3", "ec-3", "ac-4", "opus", "flac", "alac", "mp3",
        "dtsc", "dtse", "dtsh", "dtsl", "dtsx", "dtsy", "mha1", "mha2", "mhm1", "mhm2", "ipcm", "fpcm",
    ]

    /// The audio entries of a CODECS list, trimmed and lowercased (`"avc1.77.30, mp4a.40.2"` →
    /// `["mp4a.40.2"]`).
    public static func audioCodecs(in codecs: [String]) -> [String] {
        codecs.compactMap { entry in
            let codec = trimmed(entry).lowercased()
            let family = String(codec.prefix { $0 != "." })
            return audioFamilies.contains(family) && !codec.isEmpty ? codec : nil
        }
    }

    /// The count in a `CHANNELS` value: its first slash-separated parameter, a decimal integer.
    public static func channelCount(_ channels: String?) -> Int? {
        guard let channels, let first = channels.split(separator: "/", omittingEmptySubsequences: false).first,
            !first.isEmpty, first.count <= 4, first.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(first)
    }

    /// How this track reads in a skip reason: `mp4a.40.2, 2 channels, "sv"`.
    var summary: String {
        var parts = [codecs.isEmpty ? "undeclared codec" : codecs.joined(separator: "+")]
        if let channels { parts.append(channels == 1 ? "1 channel" : "\(channels) channels") }
        if let language { parts.append("\"\(language)\"") }
        return parts.joined(separator: ", ")
    }

    /// `text` without leading and trailing spaces and tabs (CODECS lists are written
    /// `"avc1.77.30, mp4a.40.2"` as often as without the space).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[start...end])
    }
}
