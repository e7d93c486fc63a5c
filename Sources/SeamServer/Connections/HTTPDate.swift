import HLS

/// The `Date` header's IMF-fixdate (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`), kept
/// for the current second: a connection formats it once a second at most.
struct HTTPDate {
    private var second: Int = .min
    private var text = ""

    /// The date for `secondsSince1970` (whole seconds, UTC).
    mutating func text(at secondsSince1970: Int) -> String {
        if secondsSince1970 != second {
            second = secondsSince1970
            text = Self.format(secondsSince1970)
        }
        return text
    }

    static func format(_ seconds: Int) -> String {
        // The civil date as HLS writes program date-times (`YYYY-MM-DDThh:mm:ss.sssZ`).
        let iso = Array(DateTime(secondsSince1970: Double(seconds)).text.utf8)
        func field(_ from: Int, _ count: Int) -> String {
            from + count <= iso.count ? String(decoding: iso[from..<(from + count)], as: UTF8.self) : ""
        }
        let month = min(max(Int(field(5, 2)) ?? 1, 1), 12)
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let weekday = ((days % 7 + 7) % 7 + 4) % 7  // 1970-01-01 was a Thursday
        return "\(weekdays[weekday]), \(field(8, 2)) \(months[month - 1]) \(field(0, 4)) \(field(11, 8)) GMT"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
