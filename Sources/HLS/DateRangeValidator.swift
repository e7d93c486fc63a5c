/// The rules of `EXT-X-DATERANGE` (draft-pantos-hls-rfc8216bis 4.4.5.1) and of HLS Interstitials
/// (Appendix D) that one media playlist can show. `PlaylistValidator` gathers the date ranges
/// with their lines and asks here; the reload and rendition checks reuse `mergedByID` and
/// `meaningAttributes` so that all three agree on what one date range is.
///
/// A date range may be written more than once with the same `ID` (an SCTE-35 out and its in, a
/// live break whose end becomes known): the tags describe one range, their attributes merged,
/// and an attribute in two of them must have one value (4.4.5.1). So value checks run per tag,
/// and the checks on what a range must carry (`START-DATE`, an interstitial's asset) run on the
/// merged range, reported at its first tag.
public enum DateRangeValidator {
    /// One `EXT-X-DATERANGE` tag and the line it is on (nil without line records).
    public struct Located: Sendable {
        public var range: DateRange
        public var line: Int?

        public init(_ range: DateRange, line: Int?) {
            self.range = range
            self.line = line
        }
    }

    /// The attributes that say which break (or event) a date range is and what plays there:
    /// a later tag or reload that changes one of them describes another range under the same ID.
    public static let meaningAttributes = ["START-DATE", "CLASS", "X-ASSET-URI", "X-ASSET-LIST", "CUE"]

    /// `CUE` trigger identifiers (4.4.5.1).
    static let cueValues: Set<String> = ["PRE", "POST", "ONCE"]
    /// Enumerations of the interstitial attributes (Appendix D.2): name → allowed values, and
    /// whether the value is a list.
    static let interstitialEnumerations: [(name: String, values: Set<String>, list: Bool)] = [
        ("X-RESTRICT", ["SKIP", "JUMP"], true),
        ("X-SNAP", ["OUT", "IN"], true),
        ("X-TIMELINE-OCCUPIES", ["POINT", "RANGE"], false),
        ("X-TIMELINE-STYLE", ["HIGHLIGHT", "PRIMARY"], false),
        ("X-CONTENT-MAY-VARY", ["YES", "NO"], false),
    ]

    /// The date ranges of one playlist, one per ID in order of first appearance, with the
    /// attributes of every tag of that ID merged (a later value replaces an earlier one, as
    /// players merge them) and the line of the first tag.
    public static func mergedByID(_ ranges: [Located]) -> [Located] {
        var order: [String] = []
        var merged: [String: Located] = [:]
        for located in ranges {
            let id = located.range.id
            if var existing = merged[id] {
                for attribute in located.range.attributes.items {
                    existing.range.attributes[attribute.name] = attribute.value
                }
                merged[id] = existing
            } else {
                order.append(id)
                merged[id] = located
            }
        }
        return order.compactMap { merged[$0] }
    }

    /// Every finding for the date ranges of one playlist. `hasProgramDateTime`: whether the
    /// playlist carries at least one `EXT-X-PROGRAM-DATE-TIME`.
    public static func check(_ ranges: [Located], hasProgramDateTime: Bool) -> [PlaylistDiagnostic] {
        guard !ranges.isEmpty else { return [] }
        var out: [PlaylistDiagnostic] = []
        func error(_ rule: PlaylistRule, _ line: Int?, _ message: String) {
            out.append(PlaylistDiagnostic(.error, rule, line: line, message))
        }
        if !hasProgramDateTime {
            error(
                .dateRangeWithoutProgramDateTime, ranges[0].line,
                "#EXT-X-DATERANGE ID=\"\(ranges[0].range.id)\" in a playlist without #EXT-X-PROGRAM-DATE-TIME: add one (to the first segment) so players can place the date range"
            )
        }

        // Per tag: repeats that disagree, and every value against its type.
        var first: [String: Located] = [:]
        for located in ranges {
            let range = located.range
            let line = located.line
            if let previous = first[range.id] {
                for attribute in range.attributes.items {
                    if let other = previous.range.attributes[attribute.name], other != attribute.value {
                        let at = previous.line.map { " on line \($0)" } ?? ""
                        error(
                            .duplicateDateRangeID, line,
                            "#EXT-X-DATERANGE ID=\"\(range.id)\" repeats the ID of the date range\(at) with a different \(attribute.name) (\(describe(other)) then \(describe(attribute.value))); a repeated ID must keep every value it repeats"
                        )
                        break
                    }
                }
            } else {
                first[range.id] = located
            }
            out += checkValues(range, line: line)
        }

        // Per date range, its tags merged.
        for located in mergedByID(ranges) {
            out += checkMerged(located.range, line: located.line)
        }
        return out
    }

    /// Value checks of one tag.
    static func checkValues(_ range: DateRange, line: Int?) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        func error(_ rule: PlaylistRule, _ message: String) {
            out.append(PlaylistDiagnostic(.error, rule, line: line, message))
        }
        let name = "#EXT-X-DATERANGE ID=\"\(range.id)\""
        let attributes = range.attributes

        for quoted in ["ID", "CLASS", "START-DATE", "END-DATE", "CUE"] {
            if let value = attributes[quoted], !value.isQuoted {
                error(
                    .dateRangeInvalid, "\(name): \(quoted) must be a quoted-string; write \(quoted)=\"\(value.text)\"")
            }
        }
        if let start = range.startDate, start.secondsSince1970 == nil {
            error(.dateRangeInvalid, "#EXT-X-DATERANGE START-DATE \"\(start.text)\" is not an ISO 8601 date")
        }
        if let end = range.endDate, end.secondsSince1970 == nil {
            error(.dateRangeInvalid, "\(name): END-DATE \"\(end.text)\" is not an ISO 8601 date")
        }
        for number in ["DURATION", "PLANNED-DURATION"] {
            guard let value = attributes[number] else { continue }
            if let seconds = DecimalNumber.parseDouble(value.text), !value.isQuoted {
                if seconds < 0 { error(.dateRangeInvalid, "#EXT-X-DATERANGE \(number) must not be negative") }
            } else {
                error(
                    .dateRangeInvalid,
                    "\(name): \(number) must be a decimal number of seconds, found \(describe(value))")
            }
        }
        if let value = attributes["END-ON-NEXT"], value != .unquoted("YES") {
            error(
                .dateRangeInvalid,
                "\(name): END-ON-NEXT can only be YES (unquoted), found \(describe(value)); leave it out instead")
        }
        for scte in ["SCTE35-CMD", "SCTE35-OUT", "SCTE35-IN"] {
            if let value = attributes[scte], value.isQuoted || !isHexadecimalSequence(value.text) {
                error(
                    .dateRangeInvalid, "\(name): \(scte) must be a hexadecimal-sequence (0x…), found \(describe(value))"
                )
            }
        }
        if let cue = attributes["CUE"] {
            let values = cue.text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let unknown = values.filter { !cueValues.contains($0) }
            if !unknown.isEmpty {
                error(
                    .dateRangeCue,
                    "\(name): CUE=\"\(cue.text)\" has \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); the trigger identifiers are PRE, POST and ONCE, comma-separated without spaces"
                )
            }
            if values.contains("PRE") && values.contains("POST") {
                error(
                    .dateRangeCue,
                    "\(name): CUE must not hold both PRE and POST; write two date ranges, one before the content and one after"
                )
            }
        }
        for attribute in attributes.items where attribute.name.hasPrefix("X-") {
            if case .unquoted(let text) = attribute.value, !isHexadecimalSequence(text),
                DecimalNumber.parseDouble(text) == nil
            {
                error(
                    .clientAttributeInvalid,
                    "\(name): \(attribute.name)=\(text) is neither a quoted-string, a hexadecimal-sequence nor a number; quote it: \(attribute.name)=\"\(text)\""
                )
            }
        }
        if range.isInterstitial {
            out += checkInterstitialValues(range, line: line)
        }
        return out
    }

    /// Value checks of the Appendix D attributes of one interstitial tag.
    static func checkInterstitialValues(_ range: DateRange, line: Int?) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        func error(_ message: String) {
            out.append(PlaylistDiagnostic(.error, .interstitialAttribute, line: line, message))
        }
        let name = "interstitial ID=\"\(range.id)\""
        let attributes = range.attributes
        for uri in ["X-ASSET-URI", "X-ASSET-LIST"] {
            guard let value = attributes[uri] else { continue }
            if !value.isQuoted {
                error("\(name): \(uri) must be a quoted-string URI; write \(uri)=\"\(value.text)\"")
            } else if value.text.isEmpty {
                error("\(name): \(uri) is empty")
            } else if !URIReference.isAbsolute(value.text) {
                out.append(
                    PlaylistDiagnostic(
                        .warning, .interstitialRelativeURI, line: line,
                        "\(name): \(uri)=\"\(value.text)\" is relative; players disagree on what it is relative to (some resolve against the page), so make it absolute"
                    ))
            }
        }
        if let value = attributes["X-RESUME-OFFSET"] {
            if value.isQuoted || !isDecimalFloatingPoint(value.text) {
                error(
                    "\(name): X-RESUME-OFFSET must be a decimal-floating-point number of seconds (0 or more, unquoted), found \(describe(value))"
                )
            }
        }
        if let value = attributes["X-PLAYOUT-LIMIT"] {
            if value.isQuoted || !isDecimalFloatingPoint(value.text)
                || (DecimalNumber.parseDouble(value.text) ?? 0) <= 0
            {
                error(
                    "\(name): X-PLAYOUT-LIMIT must be a positive decimal-floating-point number of seconds (unquoted), found \(describe(value))"
                )
            }
        }
        for number in ["X-SKIP-CONTROL-OFFSET", "X-SKIP-CONTROL-DURATION"] {
            if let value = attributes[number], value.isQuoted || !isDecimalFloatingPoint(value.text) {
                error("\(name): \(number) must be a number of seconds, 0 or more, unquoted, found \(describe(value))")
            }
        }
        if let label = attributes["X-SKIP-CONTROL-LABEL-ID"],
            !label.isQuoted || label.text.isEmpty
                || !label.text.utf8.allSatisfy({ $0.isLetter || $0 == .minus || $0 == 0x5F })
        {
            error(
                "\(name): X-SKIP-CONTROL-LABEL-ID must be a quoted-string of letters, '-' and '_', found \(describe(label))"
            )
        }
        for (attribute, allowed, list) in interstitialEnumerations {
            guard let value = attributes[attribute] else { continue }
            let expected = allowed.sorted().joined(separator: list ? ", " : " or ")
            if !value.isQuoted {
                error("\(name): \(attribute) must be a quoted-string; write \(attribute)=\"\(value.text)\"")
                continue
            }
            let items =
                list
                ? value.text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [value.text]
            let unknown = items.filter { !allowed.contains($0) }
            if !unknown.isEmpty {
                let kind = list ? "a comma-separated list of" : "one of"
                error(
                    "\(name): \(attribute)=\"\(value.text)\" has \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); it is \(kind) \(expected)"
                )
            }
        }
        return out
    }

    /// Checks of what a date range, all its tags merged, must carry.
    static func checkMerged(_ range: DateRange, line: Int?) -> [PlaylistDiagnostic] {
        var out: [PlaylistDiagnostic] = []
        func error(_ rule: PlaylistRule, _ message: String) {
            out.append(PlaylistDiagnostic(.error, rule, line: line, message))
        }
        let name = "#EXT-X-DATERANGE ID=\"\(range.id)\""
        if range.startDate == nil {
            error(.dateRangeInvalid, "\(name) needs START-DATE")
        }
        let start = range.startDate?.secondsSince1970
        let end = range.endDate?.secondsSince1970
        if let end, let start, end < start {
            error(.dateRangeInvalid, "#EXT-X-DATERANGE ID=\"\(range.id)\" ends before it starts")
        }
        if let end, let start, let duration = range.duration, duration >= 0, end >= start,
            abs(start + duration - end) > 0.001
        {
            error(
                .dateRangeEndMismatch,
                "\(name): END-DATE is \(DecimalNumber.format(end - start)) s after START-DATE but DURATION=\(DecimalNumber.format(duration)); END-DATE must be START-DATE plus DURATION"
            )
        }
        if range.endOnNext {
            if range.dateRangeClass == nil {
                error(.dateRangeInvalid, "#EXT-X-DATERANGE with END-ON-NEXT=YES needs a CLASS")
            }
            if range.duration != nil || range.endDate != nil {
                error(.dateRangeInvalid, "#EXT-X-DATERANGE with END-ON-NEXT=YES must not have DURATION or END-DATE")
            }
        }
        if range.isInterstitial {
            let uri = range.attributes.contains("X-ASSET-URI")
            let list = range.attributes.contains("X-ASSET-LIST")
            if uri && list {
                error(
                    .interstitialAsset,
                    "interstitial ID=\"\(range.id)\" has both X-ASSET-URI and X-ASSET-LIST; keep one: X-ASSET-URI for one asset, X-ASSET-LIST for a list"
                )
            } else if !uri && !list {
                error(
                    .interstitialAsset,
                    "interstitial ID=\"\(range.id)\" has neither X-ASSET-URI nor X-ASSET-LIST: there is nothing to play"
                )
            }
        }
        return out
    }

    /// `0x` or `0X` and at least one hexadecimal digit.
    static func isHexadecimalSequence(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 2, bytes[0] == .zero, bytes[1] == 0x78 || bytes[1] == 0x58 else { return false }
        return bytes.dropFirst(2).allSatisfy { $0.isDigit || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Digits with at most one dot, no sign (4.2 decimal-floating-point).
    static func isDecimalFloatingPoint(_ text: String) -> Bool {
        guard let first = text.utf8.first, first != .minus, first != .plus else { return false }
        return DecimalNumber.parseDouble(text) != nil
    }

    static func describe(_ value: AttributeValue) -> String {
        switch value {
        case .quoted(let text): return "\"\(text)\""
        case .unquoted(let text): return text
        }
    }
}
