/// `xs:duration` as MPDs write it (`PT30S`, `PT1H2M3.5S`, `P1DT2H`), in seconds. Years and
/// months have no fixed length, so a duration naming them is not read (nil), nor is a negative one.
public enum DASHDuration {
    public static func seconds(_ text: String) -> Double? {
        var rest = Substring(text.trimmedSpaces)
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var sawComponent = false
        var number = ""
        for character in rest {
            switch character {
            case "T":
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
            case "0"..."9", ".":
                number.append(character)
            default:
                guard let value = Double(number), value.isFinite else { return nil }
                switch (character, inTime) {
                case ("D", false): total += value * 86_400
                case ("H", true): total += value * 3_600
                case ("M", true): total += value * 60
                case ("S", true): total += value
                default: return nil
                }
                number = ""
                sawComponent = true
            }
        }
        guard number.isEmpty, sawComponent, total.isFinite else { return nil }
        return total
    }

    /// `seconds` as `PT…S`, to the millisecond (what Seam writes into the MPDs it makes).
    /// Seconds past 9e12 (285,000 years), or not finite, are written as that bound: an MPD's
    /// numbers are the origin's, and writing one must never trap.
    public static func text(_ seconds: Double) -> String {
        let bounded = seconds.isFinite ? min(max(0, seconds), 9e12) : (seconds > 0 ? 9e12 : 0)
        let millis = Int64((bounded * 1000).rounded())
        let whole = millis / 1000
        let fraction = millis % 1000
        guard fraction > 0 else { return "PT\(whole)S" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "PT\(whole).\(digits)S"
    }
}

extension String {
    var trimmedSpaces: Substring {
        var text = self[...]
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
