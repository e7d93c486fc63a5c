/// The numbers policy: the ranges a real stream's numbers fall in.
///
/// A playlist is text anyone can write, and a number in it can be anything a decimal can spell:
/// `#EXTINF:9223372036854775808` or a media sequence of 20 digits. Swift traps on a conversion or
/// an addition that overflows, so one such number would stop the whole server. Values outside
/// these ranges are therefore malformed values: the parser reports them with their line
/// (`value-out-of-range`, an error for `seam validate`), keeps the tag the way players keep it
/// but not the value (the typed accessors answer nil or the tag's default), and the proxy refuses
/// a playlist that has them (`ORIGIN_INVALID_PLAYLIST`, or the last good window of a live stream).
///
/// The bounds are far beyond any stream and far below where arithmetic on them could overflow:
/// sums of a few million durations, byte counts or sequence numbers stay exact and finite.
public enum PlaylistLimits {
    /// Longest duration in seconds (segment, part, target, cue, live hold-backs): one day.
    /// A real segment lasts seconds; a single-segment VOD playlist a few hours at most.
    public static let maxDurationSeconds: Double = 86_400

    /// Longest span in seconds for values that describe a programme rather than media: an
    /// `EXT-X-DATERANGE` duration (a multi-day event is legal), an `EXT-X-START` offset (a week of
    /// catch-up), HLS Interstitials' resume offset and playout limit. About 31 years: no trap,
    /// and no real playlist refused.
    public static let maxLongDurationSeconds: Double = 1_000_000_000

    /// Largest sequence number, part index or segment count: 2^53 - 1,
    /// the largest integer a `Double` (and a JavaScript player) holds exactly. Sequence numbers
    /// derived from a clock in milliseconds (about 1.8 × 10^12) fit with room to spare.
    public static let maxSequenceNumber: Int = (1 << 53) - 1

    /// Largest byte-range length or offset: 2^48 bytes (256 TiB).
    public static let maxByteCount: Int = 1 << 48

    /// Largest bandwidth in bit/s (`BANDWIDTH`, `AVERAGE-BANDWIDTH`): 10^12, a terabit.
    /// `EXT-X-BITRATE` (kbit/s) is held to the same rate.
    public static let maxBandwidth: Int = 1_000_000_000_000

    /// True for a finite duration whose magnitude is at most `maxDurationSeconds`. Negative
    /// durations are a separate, milder finding (`negative-duration`); they are in range here.
    @inlinable
    public static func isDuration(_ value: Double) -> Bool {
        value.isFinite && value.magnitude <= maxDurationSeconds
    }

    @inlinable
    /// (Negative values are in range here: they are a separate finding, `negative-sequence`.)
    public static func isSequenceNumber(_ value: Int) -> Bool {
        value.magnitude <= UInt(maxSequenceNumber)
    }

    @inlinable
    public static func isByteCount(_ value: Int) -> Bool {
        value >= 0 && value <= maxByteCount
    }

    @inlinable
    public static func isBandwidth(_ value: Int) -> Bool {
        value >= 0 && value <= maxBandwidth
    }

    /// A duration rounded to whole seconds (as `EXT-X-TARGETDURATION` needs it), held to
    /// `-maxDurationSeconds...maxDurationSeconds`; NaN gives 0. For values built in code as well
    /// as parsed ones, so no rounding of a duration can trap.
    public static func wholeSeconds(_ duration: Double) -> Int {
        guard duration.isFinite else {
            return duration.isNaN ? 0 : (duration > 0 ? Int(maxDurationSeconds) : -Int(maxDurationSeconds))
        }
        return Int(min(max(duration, -maxDurationSeconds), maxDurationSeconds).rounded())
    }

    /// True for a finite span whose magnitude is at most `maxLongDurationSeconds`.
    @inlinable
    public static func isLongDuration(_ value: Double) -> Bool {
        value.isFinite && value.magnitude <= maxLongDurationSeconds
    }

    /// The kind of number an attribute holds, for the attributes the policy covers.
    enum AttributeKind {
        case duration
        case longDuration
        case sequenceNumber
        case byteCount
        case byteRange
        case bandwidth

        /// The policy's attribute names, across every tag that has them (`DURATION` is a
        /// segment's on `EXT-X-PART`, a programme's on `EXT-X-DATERANGE`).
        static func of(_ name: String, in tag: TagName) -> AttributeKind? {
            switch name {
            case "DURATION", "PLANNED-DURATION":
                return tag == .dateRange ? .longDuration : .duration
            case "TIME-OFFSET", "X-RESUME-OFFSET", "X-PLAYOUT-LIMIT":
                return .longDuration
            case "PART-TARGET", "CAN-SKIP-UNTIL", "HOLD-BACK", "PART-HOLD-BACK":
                return .duration
            case "LAST-MSN", "LAST-PART", "SKIPPED-SEGMENTS":
                return .sequenceNumber
            case "BYTERANGE-START", "BYTERANGE-LENGTH":
                return .byteCount
            case "BYTERANGE":
                return .byteRange
            case "BANDWIDTH", "AVERAGE-BANDWIDTH":
                return .bandwidth
            default:
                return nil
            }
        }

        /// True when `text` is a number of this kind outside the policy's range. Text that is not
        /// a number at all is not judged here (other rules report it).
        func isOutOfRange(_ text: String) -> Bool {
            switch self {
            case .duration:
                guard let value = DecimalNumber.parseDouble(text) else { return false }
                return !PlaylistLimits.isDuration(value)
            case .longDuration:
                guard let value = DecimalNumber.parseDouble(text) else { return false }
                return !PlaylistLimits.isLongDuration(value)
            case .sequenceNumber:
                return Self.integerOutOfRange(text) { PlaylistLimits.isSequenceNumber($0) }
            case .byteCount:
                return Self.integerOutOfRange(text) { PlaylistLimits.isByteCount($0) }
            case .bandwidth:
                return Self.integerOutOfRange(text) { PlaylistLimits.isBandwidth($0) }
            case .byteRange:
                let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
                return parts.contains { Self.integerOutOfRange(String($0)) { PlaylistLimits.isByteCount($0) } }
            }
        }

        var range: String {
            switch self {
            case .duration: return "at most 86400 seconds"
            case .longDuration: return "at most 10^9 seconds"
            case .sequenceNumber: return "magnitude at most 2^53-1"
            case .byteCount, .byteRange: return "0 to 2^48 bytes"
            case .bandwidth: return "0 to 10^12 bit/s"
            }
        }

        /// Digits only, but too many for an `Int` or outside `accepts`.
        private static func integerOutOfRange(_ text: String, accepts: (Int) -> Bool) -> Bool {
            if let value = DecimalNumber.parseInteger(text) { return !accepts(value) }
            let digits = text.utf8.drop { $0 == .minus }
            return !digits.isEmpty && digits.allSatisfy(\.isDigit)
        }
    }
}

extension PlaylistLimits {
    /// The first duration in a cue tag's value that the policy refuses, described, or nil.
    /// Cue values are `30`, `10/30` or attribute lists (`DURATION=30,ElapsedTime=10`), in any case.
    /// A byte scan: every live reload with a cue passes here.
    static func outOfRangeCueNumber(_ value: String) -> String? {
        var value = value
        return value.withUTF8 { bytes -> String? in
            let n = bytes.count
            let isAttributeList = bytes.contains(.equals)
            var start = 0
            while start < n {
                var end = start
                while end < n, bytes[end] != .comma, isAttributeList || bytes[end] != .slash { end += 1 }
                var numberStart = start
                var named = !isAttributeList
                if isAttributeList {
                    var equals = start
                    while equals < end, bytes[equals] != .equals { equals += 1 }
                    named = equals < end && isCueDurationName(bytes.slice(start, equals))
                    numberStart = equals + 1
                }
                if named {
                    var from = numberStart, to = end
                    while from < to, bytes[from] == .space || bytes[from] == .quote { from += 1 }
                    while to > from, bytes[to - 1] == .space || bytes[to - 1] == .quote { to -= 1 }
                    if let number = DecimalNumber.parseDouble(bytes.slice(from, to)), !isDuration(number) {
                        return String(decoding: bytes.slice(start, min(end, start + 40)), as: UTF8.self)
                    }
                }
                start = end + 1
            }
            return nil
        }
    }

    /// `DURATION`, `PLANNED-DURATION`, `ELAPSEDTIME` or `ELAPSED`, in any case, spaces around allowed.
    private static func isCueDurationName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        var from = 0, to = name.count
        while from < to, name[from] == .space { from += 1 }
        while to > from, name[to - 1] == .space { to -= 1 }
        func equals(_ literal: StaticString) -> Bool {
            guard to - from == literal.utf8CodeUnitCount else { return false }
            for i in 0..<(to - from) where name[from + i] | 0x20 != literal.utf8Start[i] | 0x20 { return false }
            return true
        }
        return equals("DURATION") || equals("PLANNED-DURATION") || equals("ELAPSEDTIME") || equals("ELAPSED")
    }
}

extension TagName {
    /// Whether the tag's attribute list has numbers the policy covers (`AttributeKind`), so the
    /// parser checks only those lists (an `EXT-X-KEY` has none).
    var hasPolicyNumbers: Bool {
        switch self {
        case .dateRange, .part, .map, .preloadHint, .renditionReport, .serverControl, .partInf, .skip, .start,
            .streamInf, .iFrameStreamInf:
            return true
        default:
            return false
        }
    }
}

extension AttributeList {
    /// A duration attribute within `PlaylistLimits.maxDurationSeconds`, else nil.
    public func duration(_ name: String) -> Double? {
        double(name).flatMap { PlaylistLimits.isDuration($0) ? $0 : nil }
    }

    /// A programme span (`PlaylistLimits.isLongDuration`), else nil.
    public func longDuration(_ name: String) -> Double? {
        double(name).flatMap { PlaylistLimits.isLongDuration($0) ? $0 : nil }
    }

    /// A sequence number or count within `PlaylistLimits.maxSequenceNumber`, else nil.
    public func sequenceNumber(_ name: String) -> Int? {
        integer(name).flatMap { PlaylistLimits.isSequenceNumber($0) ? $0 : nil }
    }

    /// A byte count within `PlaylistLimits.maxByteCount`, else nil.
    public func byteCount(_ name: String) -> Int? {
        integer(name).flatMap { PlaylistLimits.isByteCount($0) ? $0 : nil }
    }

    /// A bandwidth within `PlaylistLimits.maxBandwidth`, else nil.
    public func bandwidth(_ name: String) -> Int? {
        integer(name).flatMap { PlaylistLimits.isBandwidth($0) ? $0 : nil }
    }

    /// Descriptions of the attributes whose numbers the policy refuses, for a diagnostic.
    func outOfRangeNumbers(in tag: TagName) -> [String] {
        var found: [String] = []
        for item in items {
            guard let kind = PlaylistLimits.AttributeKind.of(item.name, in: tag), kind.isOutOfRange(item.value.text)
            else { continue }
            let shown = item.value.text.utf8.count > 40 ? String(item.value.text.prefix(40)) + "…" : item.value.text
            found.append(
                "\(item.name)=\(shown) is outside what a stream can carry (\(kind.range)); the value is ignored")
        }
        return found
    }
}
