/// The stable name of one break in interstitials mode: the `ID` of its `EXT-X-DATERANGE` and the
/// last path component of its asset-list URL. Players key everything on it (a reload that gives a
/// break a different id plays it twice; an id that names another break later skips one), so it
/// comes from what the break *is*, never from where it sits in a window:
/// - a break the origin signals with SCTE-35 takes the event's id (`scte-<segmentation event id>`),
///   which the encoder keeps for the life of the break;
/// - otherwise its start on the content timeline: `pre`, `post`, or `mid-<content milliseconds>`
///   for a VOD mid-roll (`mid-600000` at 10:00).
///
/// Only letters, digits and `-`: safe in a URL path and in a quoted attribute. Only this type
/// writes or reads the text, so a route never accepts an id a playlist would not have carried.
public struct InterstitialBreakID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let text: String

    private init(text: String) {
        self.text = text
    }

    public static let preroll = InterstitialBreakID(text: "pre")
    public static let postroll = InterstitialBreakID(text: "post")

    /// A VOD break by its position: mid-rolls by their content time in whole milliseconds
    /// (rounded; a negative or non-finite time, which no plan holds, counts as 0).
    public init(position: BreakPosition) {
        switch position {
        case .preroll: self = .preroll
        case .postroll: self = .postroll
        case .midroll(let seconds):
            let millis = seconds.isFinite ? max(0, min((seconds * 1000).rounded(), Double(Self.maxNumber))) : 0
            self.init(text: "mid-" + String(UInt64(millis)))
        }
    }

    /// A break the origin signals with SCTE-35: its `segmentation_event_id` (or `splice_event_id`).
    public init(scte35EventID: UInt32) {
        self.init(text: "scte-" + String(scte35EventID))
    }

    /// Largest number the text carries: 15 digits, so reading never overflows (a mid-roll 31,000
    /// years into a title is not one).
    static let maxNumber: UInt64 = 999_999_999_999_999

    /// Reads the text form back. Only what the initialisers write is accepted: `pre`, `post`,
    /// `mid-<n>` or `scte-<n>` with a plain decimal (no sign, spaces or leading zeros), an event
    /// id within 32 bits.
    public init?<Text: StringProtocol>(_ text: Text) {
        if text == "pre" { self = .preroll; return }
        if text == "post" { self = .postroll; return }
        let string = String(text)
        for prefix in ["mid-", "scte-"] where string.hasPrefix(prefix) {
            guard let number = Self.number(string.utf8.dropFirst(prefix.utf8.count)) else { return nil }
            if prefix == "scte-", number > UInt64(UInt32.max) { return nil }
            self.init(text: string)
            return
        }
        return nil
    }

    private static func number(_ digits: String.UTF8View.SubSequence) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 15, digits.first != UInt8(ascii: "0") || digits.count == 1,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
    }

    public var description: String { text }

    public static func < (lhs: InterstitialBreakID, rhs: InterstitialBreakID) -> Bool { lhs.text < rhs.text }
}
