/// The stable name of one break in interstitials mode: the `ID` of its `EXT-X-DATERANGE` and the
/// last path component of its asset-list URL. Players key everything on it (a reload that gives a
/// break a different id plays it twice; an id that names another break later skips one), so it
/// comes from what the break *is*, never from where it sits in a window:
/// - a break the origin signals with SCTE-35 takes the event's id (`scte-<segmentation event id>`),
///   which the encoder keeps for the life of the break;
/// - a live break the origin names another way (a date range `ID`, `EXT-X-CUE-OUT:ID=`, a
///   schedule period) takes that name: `cue-<name>` when it is at most 64 letters, digits and
///   `-`, else `cue-x<16 hex digits>` of its FNV-1a hash;
/// - otherwise its start on the content timeline: `pre`, `post`, or `mid-<content milliseconds>`
///   for a VOD mid-roll (`mid-600000` at 10:00); for a live break without a name, `at-<program
///   date-time in milliseconds since 1970>`, or `seq-<origin media sequence number>` when the
///   origin gives no program date-times.
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

    /// A live break of a session's timeline (see the type's rules).
    public init(liveBreak: LiveBreak) {
        if let signal = liveBreak.signalID, !signal.isEmpty {
            if let number = Self.number(signal.utf8[...]), number <= UInt64(UInt32.max) {
                self.init(scte35EventID: UInt32(number))
            } else if signal.utf8.count <= 64, signal.utf8.allSatisfy(Self.isNameByte) {
                self.init(text: "cue-" + signal)
            } else {
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in signal.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
                let hex = String(hash, radix: 16)
                self.init(text: "cue-x" + String(repeating: "0", count: 16 - hex.count) + hex)
            }
        } else if let date = liveBreak.programDateTime, date.isFinite, date >= 0, date * 1000 < Double(Self.maxNumber) {
            self.init(text: "at-" + String(UInt64((date * 1000).rounded())))
        } else {
            self.init(text: "seq-" + String(UInt64(max(0, min(liveBreak.startSequence, Int(Self.maxNumber))))))
        }
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }

    /// Largest number the text carries: 15 digits, so reading never overflows (a mid-roll 31,000
    /// years into a title is not one).
    static let maxNumber: UInt64 = 999_999_999_999_999

    /// Reads the text form back. Only what the initialisers write is accepted: `pre`, `post`,
    /// `mid-<n>`, `at-<n>`, `seq-<n>` or `scte-<n>` with a plain decimal (no sign, spaces or
    /// leading zeros), an event id within 32 bits; `cue-<name>` with 1 to 64 letters, digits and
    /// `-` (a name that is a plain decimal of 32 bits is written `scte-`, so it is refused here).
    public init?<Text: StringProtocol>(_ text: Text) {
        if text == "pre" { self = .preroll; return }
        if text == "post" { self = .postroll; return }
        let string = String(text)
        if string.hasPrefix("cue-") {
            let name = string.utf8.dropFirst(4)
            guard !name.isEmpty, name.count <= 64 || (name.first == UInt8(ascii: "x") && name.count == 17),
                  name.allSatisfy(Self.isNameByte) else { return nil }
            if let number = Self.number(name), number <= UInt64(UInt32.max) { return nil }
            self.init(text: string)
            return
        }
        for prefix in ["mid-", "scte-", "at-", "seq-"] where string.hasPrefix(prefix) {
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
