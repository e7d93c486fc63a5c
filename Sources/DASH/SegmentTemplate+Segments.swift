/// One media segment a `SegmentTemplate` addresses: its number, its time (in the template's
/// `timescale`, and in seconds from the period's start), and its URL as the template writes it
/// (relative; resolve against the `BaseURL`s).
public struct DASHSegment: Sendable, Equatable {
    public var number: Int
    /// Start in `timescale` units, as `$Time$` writes it.
    public var time: UInt64
    /// Length in `timescale` units.
    public var length: UInt64
    /// Start, seconds from the period's start (`presentationTimeOffset` taken off).
    public var start: Double
    /// Seconds.
    public var duration: Double
    public var url: String

    public init(number: Int, time: UInt64, length: UInt64, start: Double, duration: Double, url: String) {
        self.number = number
        self.time = time
        self.length = length
        self.start = start
        self.duration = duration
        self.url = url
    }
}

extension SegmentTemplate {
    /// Most segments listed for one representation: a day of 1 s segments is 86,400.
    public static let maxSegments = 100_000

    /// The segments of a representation in a period of `periodDuration` seconds (needed for
    /// fixed-length `duration` templates and for a last timeline entry repeating `r="-1"`;
    /// nil lists what the timeline states and no fixed-length segment). At most `maxSegments`.
    /// - Parameter addressed: false leaves each segment's `url` empty (its times and number are
    ///   what a caller rewriting the template needs; the substitution is most of the cost).
    public func segments(
        representationID: String, bandwidth: Int?, periodDuration: Double?, addressed: Bool = true
    ) -> [DASHSegment] {
        let timescale = UInt64(max(1, self.timescale ?? 1))
        let offset = UInt64(max(0, presentationTimeOffset ?? 0))
        let first = startNumber ?? 1
        var result: [DASHSegment] = []
        // Saturating: a hostile duration or offset must not trap.
        let end = periodDuration.map { seconds -> UInt64 in
            let scaled = seconds.isFinite ? min(max(0, seconds) * Double(timescale), 9e18) : 0
            let (sum, overflow) = UInt64(scaled).addingReportingOverflow(offset)
            return overflow ? .max : sum
        }
        func add(_ time: UInt64, _ length: UInt64) {
            let (sum, overflow) = first.addingReportingOverflow(result.count)
            let number = overflow ? Int.max : sum
            result.append(
                DASHSegment(
                    number: number, time: time, length: length,
                    start: Double(time >= offset ? time - offset : 0) / Double(timescale),
                    duration: Double(length) / Double(timescale),
                    url: addressed
                        ? Self.substitute(
                            media ?? "", representationID: representationID, number: number, time: time,
                            bandwidth: bandwidth) : ""))
        }
        if let timeline {
            var time: UInt64 = timeline.first?.t ?? offset
            for (index, entry) in timeline.enumerated() {
                if let t = entry.t { time = t }
                guard entry.d > 0 else { continue }
                var repeats = entry.r
                if repeats < 0 {
                    // Until the next entry's start, else the period's end (else just this one).
                    if let until = timeline[safe: index + 1]?.t ?? end, until > time {
                        let count = (until - time) / entry.d + ((until - time) % entry.d == 0 ? 0 : 1)
                        repeats = Int(min(count, UInt64(Self.maxSegments))) - 1
                    } else {
                        repeats = 0
                    }
                }
                for _ in 0...max(0, repeats) {
                    guard result.count < Self.maxSegments else { return result }
                    add(time, entry.d)
                    let (next, overflow) = time.addingReportingOverflow(entry.d)
                    guard !overflow else { return result }
                    time = next
                }
            }
            return result
        }
        guard let duration, duration > 0, let end else { return result }
        var time = offset
        while time < end, result.count < Self.maxSegments {
            add(time, UInt64(duration))
            let (next, overflow) = time.addingReportingOverflow(UInt64(duration))
            guard !overflow else { break }
            time = next
        }
        return result
    }

    /// How many segments `segments(...)` would list, without building them (at most
    /// `maxSegments + 1`): what a cost limit checks before anything is built.
    public func segmentCount(periodDuration: Double?) -> Int {
        let timescale = Double(max(1, self.timescale ?? 1))
        let offset = Double(max(0, presentationTimeOffset ?? 0))
        let end = periodDuration.map { max(0, $0) * timescale + offset }
        if let timeline {
            var count = 0
            var time = Double(timeline.first?.t ?? UInt64(offset))
            for (index, entry) in timeline.enumerated() {
                if let t = entry.t { time = Double(t) }
                guard entry.d > 0 else { continue }
                var repeats = Double(max(0, entry.r))
                if entry.r < 0 {
                    let until = timeline[safe: index + 1]?.t.map(Double.init) ?? end
                    repeats = until.map { $0 > time ? ((($0 - time) / Double(entry.d)).rounded(.up) - 1) : 0 } ?? 0
                }
                count += Int(min(repeats + 1, Double(Self.maxSegments + 1)))
                time += Double(entry.d) * (repeats + 1)
                if count > Self.maxSegments { return Self.maxSegments + 1 }
            }
            return count
        }
        guard let duration, duration > 0, let periodDuration, periodDuration > 0, periodDuration.isFinite else {
            return 0
        }
        return Int(min((periodDuration * timescale / Double(duration)).rounded(.up), Double(Self.maxSegments + 1)))
    }

    /// `template` with DASH's identifiers filled in: `$RepresentationID$`, `$Number$`, `$Time$`,
    /// `$Bandwidth$` (each number optionally with a width, `$Number%05d$`), and `$$` for `$`.
    /// An identifier it does not know is left as written.
    public static func substitute(
        _ template: String, representationID: String, number: Int, time: UInt64, bandwidth: Int?
    ) -> String {
        fill(template, representationID: representationID, number: number, time: time, bandwidth: bandwidth)
    }

    /// `template` with the representation's identifiers (`$RepresentationID$`, `$Bandwidth$`)
    /// filled in and the segment's (`$Number$`, `$Time$`, `$$`) left as written: the template of
    /// one representation when it moves to another id or another place.
    public static func bindingRepresentation(_ template: String, representationID: String, bandwidth: Int?) -> String {
        fill(template, representationID: representationID, number: nil, time: nil, bandwidth: bandwidth)
    }

    /// Nil `number` and `time`: their identifiers (and `$$`) stay as written.
    static func fill(
        _ template: String, representationID: String, number: Int?, time: UInt64?, bandwidth: Int?
    ) -> String {
        // `$` is ASCII: the scans run over UTF-8 bytes, whose indices are the text's boundaries.
        let dollar = UInt8(ascii: "$")
        guard template.utf8.contains(dollar) else { return template }
        var output = ""
        output.reserveCapacity(template.utf8.count + representationID.utf8.count + 16)
        var rest = template[...]
        while let open = rest.utf8.firstIndex(of: dollar) {
            output += rest[..<open]
            let afterOpen = rest.utf8.index(after: open)
            guard let close = rest.utf8[afterOpen...].firstIndex(of: dollar) else {
                output += rest[open...]
                return output
            }
            let identifier = rest[afterOpen..<close]
            rest = rest[rest.utf8.index(after: close)...]
            if identifier.isEmpty {
                output += number == nil ? "$$" : "$"
                continue
            }
            let name = identifier.prefix { $0 != "%" }
            let format = identifier.dropFirst(name.count)
            var width = 0
            if format.hasPrefix("%0"), format.hasSuffix("d"), let value = Int(format.dropFirst(2).dropLast()),
                value <= 32
            {
                width = value
            }
            func padded(_ text: String) -> String {
                text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
            }
            switch name {
            case "RepresentationID" where format.isEmpty: output += representationID
            case "Number" where number != nil: output += padded(String(number ?? 0))
            case "Time" where time != nil: output += padded(String(time ?? 0))
            case "Bandwidth": output += padded(String(bandwidth ?? 0))
            default: output += "$" + identifier + "$"
            }
        }
        output += rest
        return output
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}
