/// The stable name of one break in interstitials mode: the `ID` of its `EXT-X-DATERANGE` and the
/// last path component of its asset-list URL. Players key everything on it (a reload that gives a
/// break a different id plays it twice; an id that names another break later skips one), so it
/// comes from what the break *is*, never from where it sits in a window:
/// - a live break the origin signals with SCTE-35 takes the event's id and its start
///   (`scte-<segmentation event id>-<when>`): the encoder keeps the id for the life of the break,
///   and the start tells it from a later break an encoder gives the same id (they count from 1
///   again after a restart); `<when>` is the break's program date-time in milliseconds since 1970,
///   or `s<origin media sequence number>` without program date-times;
/// - a live break the origin names another way (a date range `ID`, `EXT-X-CUE-OUT:ID=`, a
///   schedule period) takes that name and its start: `cue-<name>-<when>` when the name is at most
///   64 letters, digits and `-`, else `cue-x<16 hex digits of its FNV-1a hash>-<when>`;
/// - a live session's own pre-roll (`live.prerollMaxSeconds`): `pre-<when>`;
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
        // Where the break starts: its program date-time in milliseconds, else `s<sequence>`.
        let when: String
        if let date = liveBreak.programDateTime, date.isFinite, date >= 0, date * 1000 < Double(Self.maxNumber) {
            when = String(UInt64((date * 1000).rounded()))
        } else {
            when = "s" + String(UInt64(max(0, min(liveBreak.startSequence, Int(Self.maxNumber)))))
        }
        if liveBreak.isPreroll {
            self.init(text: "pre-" + when)
        } else if let signal = liveBreak.signalID, !signal.isEmpty {
            // The origin's name for the break, then its start: encoders reuse event ids (a restart
            // counts from 1 again), and a reused id must not name a player's earlier break.
            if let number = Self.number(signal.utf8[...]), number <= UInt64(UInt32.max) {
                self.init(text: "scte-" + String(number) + "-" + when)
            } else if signal.utf8.count <= Self.maxNameLength, signal.utf8.allSatisfy(Self.isNameByte) {
                self.init(text: "cue-" + signal + "-" + when)
            } else {
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in signal.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
                let hex = String(hash, radix: 16)
                self.init(text: "cue-x" + String(repeating: "0", count: 16 - hex.count) + hex + "-" + when)
            }
        } else if when.hasPrefix("s") {
            self.init(text: "seq-" + when.dropFirst())
        } else {
            self.init(text: "at-" + when)
        }
    }

    /// Longest origin cue name kept as written (longer ones are hashed).
    static let maxNameLength = 64

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }

    /// Largest number the text carries: 15 digits, so reading never overflows (a mid-roll 31,000
    /// years into a title is not one).
    static let maxNumber: UInt64 = 999_999_999_999_999

    /// Reads the text form back. Only what the initialisers write is accepted: `pre`, `post`,
    /// `mid-<n>`, `at-<n>`, `seq-<n>`, `scte-<n>` or `scte-<n>-<when>` with plain decimals (no
    /// sign, spaces or leading zeros, an event id within 32 bits), `pre-<when>`, and `cue-<name>-<when>` with
    /// letters, digits and `-`; `<when>` is `<n>` or `s<n>`.
    public init?<Text: StringProtocol>(_ text: Text) {
        if text == "pre" { self = .preroll; return }
        if text == "post" { self = .postroll; return }
        let string = String(text)
        if string.hasPrefix("cue-") {
            // `<name>-<when>`: a name Seam keeps (or `x<hash>`), then the start.
            let name = string.utf8.dropFirst(4)
            guard !name.isEmpty, name.count <= Self.maxNameLength + 18, name.allSatisfy(Self.isNameByte),
                let dash = name.lastIndex(of: UInt8(ascii: "-")), dash != name.startIndex,
                Self.when(name[name.index(after: dash)...])
            else { return nil }
            self.init(text: string)
            return
        }
        if string.hasPrefix("pre-") {
            // A live session's pre-roll: `pre-<when>`.
            guard Self.when(string.utf8.dropFirst(4)) else { return nil }
            self.init(text: string)
            return
        }
        if string.hasPrefix("scte-") {
            let rest = string.utf8.dropFirst(5)
            let dash = rest.firstIndex(of: UInt8(ascii: "-"))
            guard let number = Self.number(rest[..<(dash ?? rest.endIndex)]), number <= UInt64(UInt32.max) else {
                return nil
            }
            if let dash, !Self.when(rest[rest.index(after: dash)...]) { return nil }
            self.init(text: string)
            return
        }
        for prefix in ["mid-", "at-", "seq-"] where string.hasPrefix(prefix) {
            guard Self.number(string.utf8.dropFirst(prefix.utf8.count)) != nil else { return nil }
            self.init(text: string)
            return
        }
        return nil
    }

    /// A break's start as ids write it: milliseconds, or `s` and a sequence number.
    private static func when(_ text: String.UTF8View.SubSequence) -> Bool {
        if text.first == UInt8(ascii: "s") { return number(text.dropFirst()) != nil }
        return number(text) != nil
    }

    private static func number(_ digits: String.UTF8View.SubSequence) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 15, digits.first != UInt8(ascii: "0") || digits.count == 1,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
    }

    public var description: String { text }

    public static func < (lhs: InterstitialBreakID, rhs: InterstitialBreakID) -> Bool { lhs.text < rhs.text }
}
