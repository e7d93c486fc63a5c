#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An append-only UTF-8 buffer that playlists serialize into.
///
/// A raw, growable allocation rather than an `Array`: every playlist response goes
/// through here, and appending to an array pays a uniqueness and capacity check per call.
/// Non-copyable, so the buffer has exactly one owner and is freed exactly once.
public struct PlaylistWriter: ~Copyable, @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    public private(set) var count = 0
    /// The last decimal written and where its text is, since segment durations repeat.
    private var lastDecimal = Double.nan
    private var lastDecimalStart = 0
    private var lastDecimalCount = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    public var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Lends the written bytes without copying them (to build a network buffer, say).
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    public mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let address = source.baseAddress else { return }
        reserve(source.count)
        (base + count).update(from: address, count: source.count)
        count += source.count
    }

    @inline(__always)
    public mutating func append(_ text: String) {
        // Native strings are contiguous UTF-8: no copy, no retain. Others take the slow path.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
        if done == nil {
            for byte in text.utf8 { append(byte: byte) }
        }
    }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func append(integer value: Int) {
        if value < 0 {
            append(byte: .minus)
            append(unsigned: UInt64(value.magnitude))
        } else {
            append(unsigned: UInt64(value))
        }
    }

    public mutating func append(unsigned value: UInt64) {
        reserve(20)
        if value < 10 {
            base[count] = .zero &+ UInt8(value)
            count += 1
            return
        }
        var digits = 0
        var v = value
        while v > 0 { digits += 1; v /= 10 }
        v = value
        var position = count + digits - 1
        while v > 0 {
            base[position] = .zero &+ UInt8(v % 10)
            v /= 10
            position -= 1
        }
        count += digits
    }

    /// Writes a decimal without exponent, as `DecimalNumber.format` describes.
    public mutating func append(decimal value: Double) {
        if value == lastDecimal {
            reserve(lastDecimalCount)
            (base + count).update(from: base + lastDecimalStart, count: lastDecimalCount)
            count += lastDecimalCount
            return
        }
        let start = count
        writeDecimal(value)
        lastDecimal = value
        lastDecimalStart = start
        lastDecimalCount = count - start
    }

    private mutating func writeDecimal(_ value: Double) {
        guard let (mantissa, fractionDigits, negative) = DecimalNumber.decompose(value) else {
            // Beyond 10^15 a Double has no fraction digits; past Int64's range it is written at
            // Int64's bound. The parser never lets such values in (PlaylistLimits): this only
            // keeps a value built in code from trapping.
            guard value.isFinite else { append("0"); return }
            append(integer: value >= 9.2e18 ? Int(Int64.max) : value <= -9.2e18 ? Int(Int64.min) : Int(value))
            return
        }
        if negative && mantissa != 0 { append(byte: .minus) }
        if fractionDigits == 0 {
            append(unsigned: mantissa)
            return
        }
        var divisor: UInt64 = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        append(unsigned: mantissa / divisor)
        reserve(fractionDigits + 1)
        base[count] = .dot
        var fraction = mantissa % divisor
        for i in stride(from: fractionDigits, to: 0, by: -1) {
            base[count + i] = .zero &+ UInt8(fraction % 10)
            fraction /= 10
        }
        count += fractionDigits + 1
    }

    @inline(__always)
    public mutating func newline() {
        append(byte: .lf)
    }
}
