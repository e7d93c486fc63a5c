/// An append-only UTF-8 buffer that playlists serialize into.
public struct PlaylistWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    @inline(__always)
    public mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    @inline(__always)
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func append(integer value: Int) {
        if value < 0 {
            bytes.append(.minus)
            append(unsigned: UInt64(value.magnitude))
        } else {
            append(unsigned: UInt64(value))
        }
    }

    public mutating func append(unsigned value: UInt64) {
        if value < 10 {
            bytes.append(.zero &+ UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while v > 0 {
                buffer[count] = .zero &+ UInt8(v % 10)
                v /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) {
                bytes.append(buffer[i])
            }
        }
    }

    /// Writes a decimal without exponent, as `DecimalNumber.format` describes.
    public mutating func append(decimal value: Double) {
        guard let (mantissa, fractionDigits, negative) = DecimalNumber.decompose(value) else {
            append(value.isFinite ? String(Int64(value)) : "0")
            return
        }
        if negative && mantissa != 0 { bytes.append(.minus) }
        if fractionDigits == 0 {
            append(unsigned: mantissa)
            return
        }
        var divisor: UInt64 = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        append(unsigned: mantissa / divisor)
        bytes.append(.dot)
        var fraction = mantissa % divisor
        var scale = divisor / 10
        for _ in 0..<fractionDigits {
            bytes.append(.zero &+ UInt8(fraction / scale))
            fraction %= scale
            scale /= 10
        }
    }

    @inline(__always)
    public mutating func newline() {
        bytes.append(.lf)
    }
}
