import SeamServer
import Foundation

extension Date {
    /// The IMF-fixdate form HTTP uses for `Last-Modified` (`Sun, 06 Nov 1994 08:49:37 GMT`).
    /// Written out by hand: it is fixed-format English, and a locale-aware formatter is the wrong tool.
    var httpDate: String {
        var seconds = time_t(timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return
            "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// ISO 8601 with milliseconds in UTC, the form the beacon log uses for `at`.
    var iso8601Milliseconds: String {
        formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
