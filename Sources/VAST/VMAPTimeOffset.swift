/// A VMAP `timeOffset`: where in the content an ad break plays.
public enum VMAPTimeOffset: Sendable, Hashable, CustomStringConvertible {
    /// `start`: pre-roll.
    case start
    /// `end`: post-roll.
    case end
    /// `HH:MM:SS(.mmm)`: a mid-roll at this many seconds of content.
    case time(Double)
    /// `n%`: at this percentage of the content's duration.
    case percent(Double)
    /// `#n`: the n-th (1-based) cue point or ad opportunity of the content.
    case position(Int)

    /// Parses every VMAP form, ignoring case and surrounding whitespace; nil when none fits.
    public init?(_ text: String) {
        let trimmed = text.trimmingXMLWhitespace()
        switch trimmed.lowercased() {
        case "start": self = .start
        case "end": self = .end
        default:
            if trimmed.hasPrefix("#") {
                guard let position = LenientValues.int(String(trimmed.dropFirst())), position >= 1 else { return nil }
                self = .position(position)
            } else if trimmed.hasSuffix("%") {
                let number = String(trimmed.dropLast()).trimmingXMLWhitespace()
                guard !number.isEmpty, let value = Double(number), value.isFinite, value >= 0, value <= 100 else {
                    return nil
                }
                self = .percent(value)
            } else if let seconds = VASTTime.seconds(from: trimmed) {
                self = .time(seconds)
            } else {
                return nil
            }
        }
    }

    /// Seconds into the content, when it can be known: `start` is 0, `end` and percentages need
    /// the content duration, positions need the cue points and so give nil.
    public func seconds(contentDuration: Double?) -> Double? {
        switch self {
        case .start: return 0
        case .end: return contentDuration
        case .time(let seconds): return seconds
        case .percent(let percent): return contentDuration.map { $0 * percent / 100 }
        case .position: return nil
        }
    }

    /// The `[BREAKPOSITION]` macro value for this break.
    public var breakPosition: VASTBreakPosition {
        switch self {
        case .start: return .preRoll
        case .end: return .postRoll
        case .time(let seconds): return seconds == 0 ? .preRoll : .midRoll
        case .percent(let percent): return percent == 0 ? .preRoll : (percent == 100 ? .postRoll : .midRoll)
        case .position: return .midRoll
        }
    }

    public var description: String {
        switch self {
        case .start: return "start"
        case .end: return "end"
        case .time(let seconds): return VASTTime.format(seconds)
        case .percent(let percent): return VASTOffset.percent(percent).description
        case .position(let position): return "#\(position)"
        }
    }
}
