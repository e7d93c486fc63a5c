/// `<length>[@<offset>]`, as in `EXT-X-BYTERANGE` and the `BYTERANGE` attributes.
/// Without an offset the range starts where the previous one of the same resource ended.
public struct ByteRange: Sendable, Hashable, CustomStringConvertible {
    public var length: Int
    public var offset: Int?

    public init(length: Int, offset: Int? = nil) {
        self.length = length
        self.offset = offset
    }

    /// Parses `<length>[@<offset>]`; nil for anything else, or for numbers outside
    /// `PlaylistLimits.maxByteCount` (so sums of ranges can never overflow).
    public init?(_ text: String) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let length = DecimalNumber.parseInteger(String(parts[0])), PlaylistLimits.isByteCount(length) else {
            return nil
        }
        self.length = length
        if parts.count == 2 {
            guard let offset = DecimalNumber.parseInteger(String(parts[1])), PlaylistLimits.isByteCount(offset) else {
                return nil
            }
            self.offset = offset
        } else {
            offset = nil
        }
    }

    public var description: String {
        if let offset { return "\(length)@\(offset)" }
        return "\(length)"
    }
}
