/// Where a break sits in the content.
public enum BreakPosition: Sendable, Hashable, Codable {
    case preroll
    case midroll(seconds: Double)
    case postroll

    /// The position of a configured cue point (`ads.cuePoints`): `0` pre-roll, negative post-roll,
    /// anything else a mid-roll at that content second.
    public init(cuePoint seconds: Double) {
        self = seconds < 0 ? .postroll : (seconds == 0 ? .preroll : .midroll(seconds: seconds))
    }

    /// The cue point as the tracking JSON writes it: pre-roll `0`, post-roll `-1`, mid-rolls in seconds.
    public var cuePoint: Double {
        switch self {
        case .preroll: return 0
        case .midroll(let seconds): return seconds
        case .postroll: return -1
        }
    }

    /// IAB `[BREAKPOSITION]`: 1 pre-roll, 2 mid-roll, 3 post-roll.
    public var macroValue: Int {
        switch self {
        case .preroll: return 1
        case .midroll: return 2
        case .postroll: return 3
        }
    }

    /// The name the tracking JSON gives the position.
    public var name: String {
        switch self {
        case .preroll: return "preroll"
        case .midroll: return "midroll"
        case .postroll: return "postroll"
        }
    }
}
