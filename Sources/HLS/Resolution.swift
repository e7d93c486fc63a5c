/// A `RESOLUTION` attribute value, `<width>x<height>`.
public struct Resolution: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2,
            let w = DecimalNumber.parseInteger(String(parts[0])),
            let h = DecimalNumber.parseInteger(String(parts[1]))
        else { return nil }
        width = w
        height = h
    }

    public var description: String { "\(width)x\(height)" }
    public var pixels: Int { width * height }
}
