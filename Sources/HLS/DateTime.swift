/// An ISO 8601 date-time as written in the playlist (`EXT-X-PROGRAM-DATE-TIME`,
/// `START-DATE`, ...). The text is kept so that a round trip changes nothing;
/// `secondsSince1970` reads it when arithmetic is needed.
public struct DateTime: Sendable, Hashable, CustomStringConvertible {
    public var text: String

    public init(text: String) {
        self.text = text
    }

    /// Latest instant `init(secondsSince1970:)` writes: 9999-12-31T23:59:59.999Z. Earlier than
    /// 0000-01-01 or later than this is clamped (and not a NaN trap): playlist dates of a real
    /// stream are nowhere near either end.
    static let latestSeconds = 253_402_300_799.999
    static let earliestSeconds = -62_167_219_200.0

    /// Builds the canonical form `YYYY-MM-DDThh:mm:ss.sssZ` from a POSIX time, clamped to the
    /// years 0000–9999 (a non-finite time gives the epoch).
    public init(secondsSince1970 seconds: Double) {
        let clamped = seconds.isFinite ? min(max(seconds, Self.earliestSeconds), Self.latestSeconds) : 0
        let millis = Int64((clamped * 1000).rounded())
        var days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let msOfDay = millis - days * 86_400_000
        // Civil-from-days (Howard Hinnant).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        var year = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        if month <= 2 { year += 1 }
        let h = msOfDay / 3_600_000, m = (msOfDay / 60000) % 60, s = (msOfDay / 1000) % 60, ms = msOfDay % 1000
        // Written digit by digit into the 24 bytes of the form: a live render dates every ad
        // segment it lists, on every reload.
        text = String(unsafeUninitializedCapacity: 24) { bytes in
            var at = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8?) {
                var divisor: Int64 = 1
                for _ in 1..<width { divisor *= 10 }
                var rest = value
                while divisor > 0 {
                    bytes[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (rest / divisor) % 10)
                    rest %= divisor
                    divisor /= 10
                    at += 1
                }
                if let separator {
                    bytes[at] = separator
                    at += 1
                }
            }
            put(year, 4, then: UInt8(ascii: "-"))
            put(month, 2, then: UInt8(ascii: "-"))
            put(day, 2, then: UInt8(ascii: "T"))
            put(h, 2, then: UInt8(ascii: ":"))
            put(m, 2, then: UInt8(ascii: ":"))
            put(s, 2, then: UInt8(ascii: "."))
            put(ms, 3, then: UInt8(ascii: "Z"))
            return at
        }
    }

    public var description: String { text }

    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is not ISO 8601.
    public var secondsSince1970: Double? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard b[i].isDigit else { return nil }
                v = v * 10 + Int(b[i] - .zero)
            }
            return v
        }
        guard b.count >= 19, let year = num(0, 4), b[4] == .minus, let month = num(5, 2), b[7] == .minus,
            let day = num(8, 2), b[10] == 0x54 || b[10] == 0x74 || b[10] == .space,
            let hour = num(11, 2), b[13] == .colon, let minute = num(14, 2), b[16] == .colon,
            let second = num(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == .dot || b[i] == .comma {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i].isDigit {
                fraction += Double(b[i] - .zero) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        var offsetSeconds = 0
        if i < b.count {
            if b[i] == 0x5A || b[i] == 0x7A {
                i += 1
            } else if b[i] == .plus || b[i] == .minus {
                let sign = b[i] == .minus ? -1 : 1
                guard let oh = num(i + 1, 2) else { return nil }
                var om = 0
                if i + 3 < b.count {
                    if b[i + 3] == .colon {
                        guard let v = num(i + 4, 2) else { return nil }
                        om = v
                        i += 6
                    } else {
                        guard let v = num(i + 3, 2) else { return nil }
                        om = v
                        i += 5
                    }
                } else {
                    i += 3
                }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        // Days-from-civil (Howard Hinnant).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
    }
}
