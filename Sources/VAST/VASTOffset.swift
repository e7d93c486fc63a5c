/// A position inside a linear creative: a clock time or a percentage of its duration.
///
/// Used by `skipoffset` on `Linear` and `offset` on `progress` tracking events.
public enum VASTOffset: Sendable, Hashable, CustomStringConvertible {
    /// Seconds from the start of the creative.
    case seconds(Double)
    /// Percent (0–100) of the creative's duration.
    case percent(Double)

    /// Parses `HH:MM:SS(.mmm)` (leniently, see ``VASTTime``) or `n%`; nil when neither.
    public init?(_ text: String) {
        let trimmed = text.trimmingXMLWhitespace()
        if trimmed.hasSuffix("%") {
            let number = String(trimmed.dropLast()).trimmingXMLWhitespace()
            guard !number.isEmpty, let value = Double(number), value.isFinite, value >= 0, value <= 100 else {
                return nil
            }
            self = .percent(value)
        } else if let seconds = VASTTime.seconds(from: trimmed) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    /// The offset in seconds for a creative of the given duration; nil for a percentage without one.
    public func seconds(duration: Double?) -> Double? {
        switch self {
        case .seconds(let seconds): return seconds
        case .percent(let percent): return duration.map { $0 * percent / 100 }
        }
    }

    public var description: String {
        switch self {
        case .seconds(let seconds): return VASTTime.format(seconds)
        case .percent(let percent):
            return VASTTime.formatNumber(percent) + "%"
        }
    }
}
