/// Hexadecimal and base64 decoding for cue payloads; no Foundation.
public enum SCTE35Text {
    /// Decodes hexadecimal text, with or without a `0x`/`0X` prefix, in either case.
    /// Surrounding whitespace is ignored.
    public static func decodeHex(_ text: String) throws(SCTE35Error) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var start = 0
        var end = utf8.count
        while start < end, isSpace(utf8[start]) { start += 1 }
        while end > start, isSpace(utf8[end - 1]) { end -= 1 }
        if end - start >= 2, utf8[start] == 0x30, utf8[start + 1] == 0x78 || utf8[start + 1] == 0x58 {
            start += 2
        }
        guard end > start else { throw SCTE35Error(.emptyInput, at: start, "no hexadecimal digits") }
        guard (end - start) % 2 == 0 else {
            throw SCTE35Error(.invalidLength, at: end, "odd number of hexadecimal digits (\(end - start))")
        }
        var out: [UInt8] = []
        out.reserveCapacity((end - start) / 2)
        var index = start
        while index < end {
            guard let high = hexValue(utf8[index]) else {
                throw SCTE35Error(
                    .invalidCharacter, at: index, "'\(printable(utf8[index]))' is not a hexadecimal digit")
            }
            guard let low = hexValue(utf8[index + 1]) else {
                throw SCTE35Error(
                    .invalidCharacter, at: index + 1,
                    "'\(printable(utf8[index + 1]))' is not a hexadecimal digit")
            }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Decodes base64, standard (`+/`) or URL-safe (`-_`) alphabet, padded or not.
    /// Surrounding whitespace is ignored.
    public static func decodeBase64(_ text: String) throws(SCTE35Error) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var start = 0
        var end = utf8.count
        while start < end, isSpace(utf8[start]) { start += 1 }
        while end > start, isSpace(utf8[end - 1]) { end -= 1 }
        var padding = 0
        while end > start, utf8[end - 1] == 0x3D { end -= 1; padding += 1 }
        guard end > start else { throw SCTE35Error(.emptyInput, at: start, "no base64 characters") }
        let count = end - start
        guard padding <= 2 else {
            throw SCTE35Error(.invalidLength, at: end, "too much base64 padding (\(padding) '=')")
        }
        guard count % 4 != 1 else {
            throw SCTE35Error(.invalidLength, at: end, "base64 text of \(count) characters cannot be complete")
        }
        if padding > 0, (count + padding) % 4 != 0 {
            throw SCTE35Error(.invalidLength, at: end, "base64 padding does not complete a quantum")
        }
        var out: [UInt8] = []
        out.reserveCapacity(count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in start..<end {
            guard let value = base64Value(utf8[index]) else {
                throw SCTE35Error(
                    .invalidCharacter, at: index,
                    "'\(printable(utf8[index]))' is not a base64 character")
            }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return out
    }

    /// Hex when the text has a `0x` prefix or consists only of hexadecimal digits
    /// (a splice_info_section in base64 always starts with `/` or `_`), otherwise base64.
    public static func decode(_ text: String) throws(SCTE35Error) -> [UInt8] {
        let trimmed = text.utf8.drop(while: isSpace)
        if trimmed.count >= 2, trimmed.first == 0x30,
            let second = trimmed.dropFirst().first, second == 0x78 || second == 0x58
        {
            return try decodeHex(text)
        }
        if !trimmed.isEmpty, trimmed.allSatisfy({ hexValue($0) != nil || isSpace($0) }) {
            return try decodeHex(text)
        }
        return try decodeBase64(text)
    }

    /// Lower-case hexadecimal without prefix.
    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Standard base64 with padding.
    public static func base64<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let input = Array(bytes)
        var out: [UInt8] = []
        var index = 0
        while index < input.count {
            let b0 = UInt32(input[index])
            let b1 = index + 1 < input.count ? UInt32(input[index + 1]) : 0
            let b2 = index + 2 < input.count ? UInt32(input[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(index + 1 < input.count ? alphabet[Int(triple >> 6 & 63)] : 0x3D)
            out.append(index + 2 < input.count ? alphabet[Int(triple & 63)] : 0x3D)
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    static func base64Value(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x41...0x5A: return c - 0x41
        case 0x61...0x7A: return c - 0x61 + 26
        case 0x30...0x39: return c - 0x30 + 52
        case 0x2B, 0x2D: return 62  // '+' or '-'
        case 0x2F, 0x5F: return 63  // '/' or '_'
        default: return nil
        }
    }

    static func printable(_ c: UInt8) -> String {
        (0x20..<0x7F).contains(c) ? String(UnicodeScalar(c)) : "\\u{\(String(c, radix: 16))}"
    }
}
