/// Reads big-endian bit fields from a byte array, bounded by `end`; every read is checked.
struct BitReader {
    let bytes: [UInt8]
    /// Absolute bit position.
    private(set) var bitPosition: Int
    /// Absolute byte index one past the last readable byte.
    let end: Int

    init(_ bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.bitPosition = start * 8
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var byteOffset: Int { bitPosition / 8 }
    var bitsRemaining: Int { max(0, end * 8 - bitPosition) }
    var bytesRemaining: Int { bitsRemaining / 8 }
    var isByteAligned: Bool { bitPosition % 8 == 0 }

    /// Reads `count` (≤ 64) bits as an unsigned integer.
    mutating func bits(_ count: Int, _ field: String) throws(SCTE35Error) -> UInt64 {
        precondition(count >= 0 && count <= 64)
        guard count <= bitsRemaining else {
            throw SCTE35Error(
                .truncated, at: byteOffset,
                "\(field) needs \(count) bits but only \(bitsRemaining) remain")
        }
        var value: UInt64 = 0
        var remaining = count
        while remaining > 0 {
            let byte = bytes[bitPosition >> 3]
            let bitInByte = bitPosition & 7
            let available = 8 - bitInByte
            let take = min(available, remaining)
            let shifted = UInt64(byte) >> UInt64(available - take)
            let mask: UInt64 = (1 << UInt64(take)) - 1
            value = (value << UInt64(take)) | (shifted & mask)
            remaining -= take
            bitPosition += take
        }
        return value
    }

    mutating func flag(_ field: String) throws(SCTE35Error) -> Bool {
        try bits(1, field) == 1
    }

    mutating func uint8(_ field: String) throws(SCTE35Error) -> UInt8 {
        UInt8(truncatingIfNeeded: try bits(8, field))
    }

    mutating func uint16(_ field: String) throws(SCTE35Error) -> UInt16 {
        UInt16(truncatingIfNeeded: try bits(16, field))
    }

    mutating func uint32(_ field: String) throws(SCTE35Error) -> UInt32 {
        UInt32(truncatingIfNeeded: try bits(32, field))
    }

    mutating func skip(_ count: Int, _ field: String) throws(SCTE35Error) {
        guard count <= bitsRemaining else {
            throw SCTE35Error(
                .truncated, at: byteOffset,
                "\(field) needs \(count) bits but only \(bitsRemaining) remain")
        }
        bitPosition += count
    }

    /// Reads `count` whole bytes (the reader must be byte aligned).
    mutating func bytes(_ count: Int, _ field: String) throws(SCTE35Error) -> [UInt8] {
        guard isByteAligned else {
            throw SCTE35Error(.invalidValue, at: byteOffset, "\(field) is not byte aligned")
        }
        guard count >= 0, count <= bytesRemaining else {
            throw SCTE35Error(
                .truncated, at: byteOffset,
                "\(field) needs \(count) bytes but only \(bytesRemaining) remain")
        }
        let start = byteOffset
        bitPosition += count * 8
        return Array(bytes[start..<start + count])
    }

    /// A reader over the next `length` bytes; this reader moves past them.
    mutating func subReader(
        _ length: Int, _ field: String,
        _ kind: SCTE35Error.Kind = .truncated
    ) throws(SCTE35Error) -> BitReader {
        guard isByteAligned else {
            throw SCTE35Error(.invalidValue, at: byteOffset, "\(field) is not byte aligned")
        }
        guard length >= 0, length <= bytesRemaining else {
            throw SCTE35Error(
                kind, at: byteOffset,
                "\(field) is \(length) bytes but only \(bytesRemaining) remain")
        }
        let start = byteOffset
        bitPosition += length * 8
        return BitReader(bytes, start: start, end: start + length)
    }
}
