/// Parsing and formatting of VAST clock values (`HH:MM:SS` and `HH:MM:SS.mmm`).
///
/// Parsing is lenient because ad servers are: surrounding whitespace, missing leading zeros,
/// `MM:SS`, bare seconds (`30`, `15.5`) and a decimal comma are all accepted. Negative, non-finite
/// and non-numeric values are not.
public enum VASTTime {
    /// Seconds represented by a VAST clock value, or nil when the text is not one.
    public static func seconds(from text: String) -> Double? {
        let trimmed = text.trimmingXMLWhitespace()
        guard !trimmed.isEmpty else { return nil }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard let value = number(part, allowFraction: isLast) else { return nil }
            total = total * 60 + value
        }
        guard total.isFinite else { return nil }
        return total
    }

    private static func number(_ part: Substring, allowFraction: Bool) -> Double? {
        guard !part.isEmpty, part.utf8.count <= 32 else { return nil }
        var sawDigit = false
        var sawSeparator = false
        var normalised = ""
        for character in part {
            if character.isASCII, character.isNumber {
                sawDigit = true
                normalised.append(character)
            } else if (character == "." || character == ",") && allowFraction && !sawSeparator {
                sawSeparator = true
                normalised.append(".")
            } else {
                return nil
            }
        }
        guard sawDigit else { return nil }
        if normalised.hasSuffix(".") { normalised.removeLast() }
        if normalised.hasPrefix(".") { normalised = "0" + normalised }
        return Double(normalised)
    }

    /// Formats seconds as `HH:MM:SS.mmm`, the form the `[ADPLAYHEAD]` and `[CONTENTPLAYHEAD]` macros use.
    public static func format(_ seconds: Double) -> String {
        // Clamp so the integer conversion below can never trap, whatever a caller passes.
        let clamped = seconds.isFinite ? min(max(0, seconds), maxFormattedSeconds) : 0
        let totalMilliseconds = Int64((clamped * 1000).rounded())
        let milliseconds = totalMilliseconds % 1000
        let totalSeconds = totalMilliseconds / 1000
        let hours = totalSeconds / 3600
        let minutes = (totalSeconds / 60) % 60
        let secs = totalSeconds % 60
        return pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(secs, 2) + "." + pad(milliseconds, 3)
    }

    /// About 31,700 years: more than any clock value, far below Int64 milliseconds.
    static let maxFormattedSeconds = 1.0e12

    /// A whole number without a fraction (`25`), any other number as Swift prints it (`12.5`).
    static func formatNumber(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1.0e15 { return String(Int64(value)) }
        return String(value)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
