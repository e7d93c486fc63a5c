/// Names one rendition of a session: which list of the multivariant playlist it comes from and
/// its index there. Its path form (`v0`, `a1`, `s2`, `m3`) is what session URLs, stored
/// playlists and beacons carry; only this type spells or reads it, so a route can never accept a
/// name a playlist would not have written.
public struct RenditionKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// An `EXT-X-STREAM-INF` variant (or the single media playlist of a title without a multivariant).
        case variant
        /// An `EXT-X-MEDIA` rendition of `TYPE=AUDIO`.
        case audio
        /// An `EXT-X-MEDIA` rendition of `TYPE=SUBTITLES`.
        case subtitles
        /// An `EXT-X-MEDIA` rendition of `TYPE=VIDEO` (an alternate angle).
        case alternateVideo

        /// The letter the path form starts with.
        var letter: UInt8 {
            switch self {
            case .variant: return UInt8(ascii: "v")
            case .audio: return UInt8(ascii: "a")
            case .subtitles: return UInt8(ascii: "s")
            case .alternateVideo: return UInt8(ascii: "m")
            }
        }
    }

    public var kind: Kind
    /// The index in the multivariant playlist's variants (for `.variant`) or renditions (the others).
    public var index: Int

    /// Longest index the path form may carry: far more renditions than any playlist lists (the
    /// session cost limits stop well before), short enough that parsing never overflows.
    public static let maxIndex = 999_999

    public init(_ kind: Kind, _ index: Int) {
        self.kind = kind
        self.index = index
    }

    /// The path form, e.g. `v0`.
    public var path: String {
        String(decoding: [kind.letter], as: UTF8.self) + String(index)
    }

    public var description: String { path }

    /// Reads a path form. Only what `path` writes is accepted: one of the four letters and a
    /// decimal index without sign, leading zeros or anything after it.
    public init?<Text: StringProtocol>(_ text: Text) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.count <= 7,
            let kind = Kind.allCases.first(where: { $0.letter == bytes[0] })
        else { return nil }
        let digits = bytes.dropFirst()
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            digits.first != UInt8(ascii: "0") || digits.count == 1
        else { return nil }
        let index = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard index <= Self.maxIndex else { return nil }
        self.init(kind, index)
    }

    /// Variants first, then renditions in playlist order: the order a title's renditions are listed in.
    public static func < (lhs: RenditionKey, rhs: RenditionKey) -> Bool {
        let left = lhs.kind == .variant ? 0 : 1
        let right = rhs.kind == .variant ? 0 : 1
        return left != right ? left < right : lhs.index < rhs.index
    }
}
