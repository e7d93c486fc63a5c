/// Breaks at fixed times for a live channel whose stream carries no SCTE-35 cues: from `offsetSeconds`
/// on, one break of `durationSeconds` every `everySeconds` (on the stream's clock). Written in
/// configuration (`live.schedules`) as `"<channel URL prefix> every=300 offset=60 duration=30"`.
package struct LiveSchedule: Sendable, Hashable, Codable {
    /// Playlist URLs that start with this get the schedule.
    package var channelPrefix: String
    package var everySeconds: Double
    package var offsetSeconds: Double
    package var durationSeconds: Double

    package init(channelPrefix: String, everySeconds: Double, offsetSeconds: Double = 0, durationSeconds: Double) {
        self.channelPrefix = channelPrefix
        self.everySeconds = everySeconds
        self.offsetSeconds = offsetSeconds
        self.durationSeconds = durationSeconds
    }

    /// Whether the schedule applies to the playlist at `url`. Scheme and host compare in any
    /// letter case (`HTTPS://Origin.example/live/` matches `https://origin.example/live/`).
    package func matches(_ url: String) -> Bool {
        UpstreamURL.lowercasingSchemeAndAuthority(url).hasPrefix(
            UpstreamURL.lowercasingSchemeAndAuthority(channelPrefix))
    }

    /// The entry as configuration writes it; `parse` reads it back to the same value.
    package var text: String {
        "\(channelPrefix) every=\(ConfigurationKey.format(everySeconds)) offset=\(ConfigurationKey.format(offsetSeconds)) duration=\(ConfigurationKey.format(durationSeconds))"
    }

    static let example = "http://origin.example/live/ch1/ every=300 offset=60 duration=30"

    /// Reads one `live.schedules` entry. `offset` may be left out (0); the others are required.
    /// Every error quotes the entry and says what is wrong with it.
    package static func parse(_ text: String) throws(ConfigurationError) -> LiveSchedule {
        func fail(_ problem: String, _ kind: ConfigurationError.Kind = .invalidValue) -> ConfigurationError {
            ConfigurationError(
                kind, key: "live.schedules", source: "schedule \"\(text)\"",
                message: "\(problem); write entries like \"\(example)\"")
        }
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let prefix = words.first, !prefix.contains("=") else {
            throw fail("the entry must start with the channel's URL prefix")
        }
        guard UpstreamURL.hasHTTPScheme(prefix) else {
            throw fail("the channel prefix \"\(prefix)\" must be an http(s) URL prefix")
        }
        var values: [String: Double] = [:]
        for word in words.dropFirst() {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw fail("\"\(word)\" is not name=seconds") }
            let name = parts[0].lowercased()
            guard ["every", "offset", "duration"].contains(name) else {
                throw fail("\"\(parts[0])\" is not a schedule field; the fields are every, offset and duration")
            }
            guard values[name] == nil else { throw fail("\(name) is given twice") }
            guard let seconds = Double(parts[1]), seconds.isFinite else {
                throw fail("\(name)=\(parts[1]) is not a number of seconds")
            }
            // As every other time in configuration: at most a day (a break of 10^300 s would fill
            // its slate for ever).
            guard seconds <= 86_400 else { throw fail("\(name)=\(parts[1]) is more than 86400 seconds", .outOfRange) }
            values[name] = seconds
        }
        guard let every = values["every"] else {
            throw fail("every=<seconds> (time from one break to the next) is missing")
        }
        guard let duration = values["duration"] else {
            throw fail("duration=<seconds> (length of each break) is missing")
        }
        let offset = values["offset"] ?? 0
        guard duration > 0 else { throw fail("duration must be more than 0 seconds", .outOfRange) }
        guard every > duration else {
            throw fail(
                "every (\(ConfigurationKey.format(every)) s) must be longer than duration (\(ConfigurationKey.format(duration)) s), or breaks would overlap",
                .outOfRange)
        }
        guard offset >= 0, offset < every else {
            throw fail(
                "offset must be at least 0 and less than every (\(ConfigurationKey.format(every)) s)", .outOfRange)
        }
        return LiveSchedule(
            channelPrefix: prefix, everySeconds: every, offsetSeconds: offset, durationSeconds: duration)
    }
}
