import SeamServer
import SCTE35

/// How the demo live channel marks its ad breaks, chosen by the URL (`/live/<word>/...`): one of
/// the SCTE-35 dialects Seam reads, or none at all for channels whose breaks come from a schedule.
package enum DemoLiveChannelDialect: Sendable, Hashable {
    case none
    case cues(CueDialect)

    /// Every dialect, `none` last.
    package static let all: [DemoLiveChannelDialect] = CueDialect.allCases.map { .cues($0) } + [.none]

    /// The URL word: `CueDialect`'s raw value, or `none`.
    package init?(word: String) {
        if word == "none" {
            self = .none
        } else if let dialect = CueDialect(rawValue: word) {
            self = .cues(dialect)
        } else {
            return nil
        }
    }

    package var word: String {
        switch self {
        case .none: return "none"
        case .cues(let dialect): return dialect.rawValue
        }
    }
}
