/// Decimal number reading and writing for playlist values without Foundation.
///
/// HLS numbers are plain decimals (no exponent). Reading takes the exact fast path
/// (mantissa below 2^53, scale at most 10^22, one correctly rounded division) and
/// falls back to the standard library otherwise. Writing gives the shortest decimal
/// with at most nine fraction digits that reads back to the same value.
public enum DecimalNumber {
    /// 10^k for k in 0...22, exact in a Double. Multiplying up is cheaper than any table for the
    /// few fraction digits playlists have, and every step is exact.
    @inline(__always)
    static func powerOfTen(_ k: Int) -> Double {
        var value = 1.0
        var i = 0
        while i < k {
            value *= 10
            i += 1
        }
        return value
    }

    /// Parses `[-+]digits[.digits]`; nil for anything else.
    public static func parseDouble(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parseDouble($0) }
    }

    static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = bytes.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        if bytes[0] == .minus { negative = true; i = 1 } else if bytes[0] == .plus { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawDot = false
        while i < n {
            let digit = bytes[i] &- .zero
            if digit < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
                digits += 1
                if sawDot { fractionDigits += 1 }
            } else if bytes[i] == .dot && !sawDot {
                sawDot = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if digits <= 19, mantissa < (1 << 53), fractionDigits <= 22 {
            let value = Double(mantissa) / powerOfTen(fractionDigits)
            return negative ? -value : value
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Parses an optionally signed decimal integer.
    public static func parseInteger(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { parseInteger($0) }
    }

    static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        if bytes[0] == .minus { negative = true; i = 1 }
        guard i < n else { return nil }
        var value = 0
        while i < n {
            let b = bytes[i]
            guard b.isDigit else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(b &- .zero))
            if o1 || o2 { return nil }
            value = a
            i += 1
        }
        return negative ? -value : value
    }

    /// Formats a value as a plain decimal: `10`, `6.006`, `-2.5`.
    public static func format(_ value: Double) -> String {
        var writer = PlaylistWriter(capacity: 24)
        writer.append(decimal: value)
        return writer.string
    }

    /// Splits a finite value into an integer mantissa and a count of fraction digits.
    static func decompose(_ value: Double) -> (mantissa: UInt64, fractionDigits: Int, negative: Bool)? {
        guard value.isFinite else { return nil }
        let negative = value < 0
        let magnitude = negative ? -value : value
        guard magnitude < 1e15 else { return nil }
        // Truncating conversion plus a half rounds to nearest without a libm call. The scaled
        // value must stay below 2^64 (a large value with many fraction digits would trap), so
        // the digits stop where it would not: the most that fit, at most nine.
        var scale = 1.0
        var closest: (mantissa: UInt64, fractionDigits: Int) = (0, 0)
        for k in 0...9 {
            let product = magnitude * scale + 0.5
            guard product < 18_446_744_073_709_549_568 else { break }
            let scaled = UInt64(product)
            if Double(scaled) / scale == magnitude {
                return (scaled, k, negative)
            }
            closest = (scaled, k)
            scale *= 10
        }
        // No short form reads back exactly: the rounded digits, without trailing zeros, so that
        // the written text reads back to a value that writes the same text again.
        var (mantissa, digits) = closest
        while digits > 0, mantissa % 10 == 0 {
            mantissa /= 10
            digits -= 1
        }
        return (mantissa, digits, negative)
    }
}
