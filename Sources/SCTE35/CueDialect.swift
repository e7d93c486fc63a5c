import HLS

/// One ad-opportunity signal read from a playlist cue, whatever dialect carried it.
public struct AdOpportunitySignal: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// A break starts (cue out / splice out / ad or placement opportunity start).
        case out
        /// Inside a break (`EXT-X-CUE-OUT-CONT`, `CUE-OUT=CONT`): a viewer joining mid-break.
        case `continue`
        /// The break ends (cue in / return to network / ad or placement opportunity end); before
        /// the planned duration this is an early return.
        case `in`
    }

    public var kind: Kind
    public var dialect: CueDialect
    /// Planned break duration in seconds.
    public var plannedDuration: Double?
    /// Seconds of the break already elapsed (`-CONT` forms).
    public var elapsed: Double?
    /// The dialect's own identifier (`ID=`, DATERANGE `ID`), else the SCTE-35 event id in decimal.
    public var id: String?
    /// Adobe `TIME=` (seconds) when present.
    public var time: Double?
    /// The decoded splice_info_section, when the cue carried one that decoded.
    public var section: SpliceInfoSection?
    /// Why a carried SCTE-35 payload did not decode (the signal is still reported when the
    /// dialect itself says what it is).
    public var payloadError: SCTE35Error?

    public init(
        kind: Kind, dialect: CueDialect, plannedDuration: Double? = nil, elapsed: Double? = nil,
        id: String? = nil, time: Double? = nil, section: SpliceInfoSection? = nil,
        payloadError: SCTE35Error? = nil
    ) {
        self.kind = kind
        self.dialect = dialect
        self.plannedDuration = plannedDuration
        self.elapsed = elapsed
        self.id = id
        self.time = time
        self.section = section
        self.payloadError = payloadError
    }

    /// Seconds left in the break, when both the planned duration and the elapsed time are known.
    public var remaining: Double? {
        guard let plannedDuration, let elapsed else { return nil }
        return max(0, plannedDuration - elapsed)
    }
}

/// The cue dialects found in HLS playlists, and readers turning them into `AdOpportunitySignal`s.
public enum CueDialect: String, Sendable, Hashable, CaseIterable {
    /// `EXT-X-CUE-OUT` / `-CONT` / `-IN` (Elemental, Wowza, AWS).
    case cueOutIn
    /// `EXT-OATCLS-SCTE35:<base64>`.
    case oatcls
    /// `EXT-X-SCTE35:CUE="...",...` (Anvato, Uplynk).
    case scte35
    /// `EXT-X-SPLICEPOINT-SCTE35:<base64>`.
    case splicepoint
    /// Adobe `EXT-X-CUE:ID=,TYPE=,DURATION=,TIME=`.
    case adobe
    /// `EXT-X-DATERANGE` with `SCTE35-OUT`, `SCTE35-IN` or `SCTE35-CMD`.
    case dateRange

    /// Reads one cue tag. Nil when the tag carries no ad-break meaning (`EXT-X-ASSET`, a
    /// splice_null heartbeat, a program boundary, an undecodable payload with nothing else to go on).
    public static func signal(
        from cue: CueTag,
        options: SCTE35DecodingOptions = .strict
    ) -> AdOpportunitySignal? {
        switch cue.kind {
        case .cueOut:
            return AdOpportunitySignal(
                kind: .out, dialect: .cueOutIn,
                plannedDuration: cueOutDuration(cue.value))
        case .cueOutCont:
            return cueOutCont(cue.value, options: options)
        case .cueIn:
            return AdOpportunitySignal(kind: .in, dialect: .cueOutIn)
        case .oatclsSCTE35:
            return fromPayload(cue.value, dialect: .oatcls, options: options)
        case .splicepointSCTE35:
            return fromPayload(cue.value, dialect: .splicepoint, options: options)
        case .scte35:
            return scte35Tag(cue.attributes, options: options)
        case .adobeCue:
            return adobe(cue.attributes, options: options)
        case .asset:
            return nil
        }
    }

    /// Reads the SCTE-35 attributes of a date range: an out (with `PLANNED-DURATION`, `DURATION`
    /// or the section's duration), an in, or a command read from its section. A range with both
    /// `SCTE35-OUT` and `SCTE35-IN` gives both signals, out first.
    public static func signals(
        from dateRange: DateRange,
        options: SCTE35DecodingOptions = .strict
    ) -> [AdOpportunitySignal] {
        var result: [AdOpportunitySignal] = []
        let id = dateRange.id.isEmpty ? nil : dateRange.id
        if let out = dateRange.scte35Out {
            let (section, error) = decode(out, options: options)
            result.append(
                AdOpportunitySignal(
                    kind: .out, dialect: .dateRange,
                    plannedDuration: policyDuration(dateRange.plannedDuration ?? dateRange.duration)
                        ?? section?.breakDurationSeconds,
                    id: id ?? section?.eventID.map { String($0) }, section: section, payloadError: error))
        }
        if let cmd = dateRange.scte35Command {
            // A command that does not decode, or that is no break event, says nothing about a break.
            if let section = decode(cmd, options: options).0, let kind = kind(of: section) {
                result.append(
                    AdOpportunitySignal(
                        kind: kind, dialect: .dateRange,
                        plannedDuration: kind == .out
                            ? policyDuration(dateRange.plannedDuration ?? dateRange.duration)
                                ?? section.breakDurationSeconds : nil,
                        id: id ?? section.eventID.map { String($0) }, section: section))
            }
        }
        if let inValue = dateRange.scte35In {
            let (section, error) = decode(inValue, options: options)
            result.append(
                AdOpportunitySignal(
                    kind: .in, dialect: .dateRange,
                    id: id ?? section?.eventID.map { String($0) },
                    section: section, payloadError: error))
        }
        return result
    }

    // MARK: Dialects

    /// `EXT-X-CUE-OUT:30`, `:30.000`, `:DURATION=30`, `:Duration=30,...`.
    static func cueOutDuration(_ value: String?) -> Double? {
        guard let value = value?.trimmingSpaces, !value.isEmpty else { return nil }
        if let seconds = DecimalNumber.parseDouble(value) { return policyDuration(seconds) }
        let attributes = AttributeList(parsing: value)
        for item in attributes.items where item.name.uppercased() == "DURATION" {
            return seconds(item.value.text)
        }
        return nil
    }

    /// A duration within the numbers policy (`PlaylistLimits`), else nil: a cue claiming a break
    /// of 10^20 seconds says nothing usable about its length.
    static func policyDuration(_ value: Double?) -> Double? {
        guard let value, PlaylistLimits.isDuration(value) else { return nil }
        return value
    }

    static func seconds(_ text: String) -> Double? {
        policyDuration(DecimalNumber.parseDouble(text))
    }

    /// `EXT-X-CUE-OUT-CONT:ElapsedTime=10,Duration=30,SCTE35=...` or `:10/30`.
    static func cueOutCont(_ value: String?, options: SCTE35DecodingOptions) -> AdOpportunitySignal {
        var signal = AdOpportunitySignal(kind: .continue, dialect: .cueOutIn)
        guard let value = value?.trimmingSpaces, !value.isEmpty else { return signal }
        if !value.contains("="), let slash = value.firstIndex(of: "/") {
            signal.elapsed = seconds(String(value[..<slash]).trimmingSpaces)
            signal.plannedDuration = seconds(String(value[value.index(after: slash)...]).trimmingSpaces)
            return signal
        }
        for item in AttributeList(parsing: value).items {
            switch item.name.uppercased() {
            case "ELAPSEDTIME", "ELAPSED": signal.elapsed = seconds(item.value.text)
            case "DURATION": signal.plannedDuration = seconds(item.value.text)
            case "SCTE35":
                let (section, error) = decode(item.value.text, options: options)
                signal.section = section
                signal.payloadError = error
            default: break
            }
        }
        if signal.plannedDuration == nil { signal.plannedDuration = signal.section?.breakDurationSeconds }
        return signal
    }

    /// A bare base64/hex payload (`EXT-OATCLS-SCTE35`, `EXT-X-SPLICEPOINT-SCTE35`): the section says
    /// whether it is an out or an in.
    static func fromPayload(
        _ value: String?, dialect: CueDialect,
        options: SCTE35DecodingOptions
    ) -> AdOpportunitySignal? {
        guard let value else { return nil }
        let (section, _) = decode(value, options: options)
        guard let section, let kind = kind(of: section) else { return nil }
        return AdOpportunitySignal(
            kind: kind, dialect: dialect,
            plannedDuration: kind == .out ? section.breakDurationSeconds : nil,
            id: section.eventID.map { String($0) }, section: section)
    }

    /// `EXT-X-SCTE35:CUE="...",ID="...",CUE-OUT=YES|NO|CONT,CUE-IN=YES,DURATION=..,ELAPSED=..,TIME=..`
    static func scte35Tag(_ attributes: AttributeList, options: SCTE35DecodingOptions) -> AdOpportunitySignal? {
        var section: SpliceInfoSection?
        var error: SCTE35Error?
        if let cue = attributes.string("CUE") { (section, error) = decode(cue, options: options) }
        let cueOut = attributes.enumerated("CUE-OUT")?.uppercased()
        let kind: AdOpportunitySignal.Kind?
        if cueOut == "YES" {
            kind = .out
        } else if cueOut == "CONT" {
            kind = .continue
        } else if attributes.enumerated("CUE-IN")?.uppercased() == "YES" {
            kind = .in
        } else {
            kind = section.flatMap(Self.kind(of:))
        }
        guard let kind else { return nil }
        return AdOpportunitySignal(
            kind: kind, dialect: .scte35,
            plannedDuration: kind == .in ? nil : attributes.duration("DURATION") ?? section?.breakDurationSeconds,
            elapsed: attributes.duration("ELAPSED"),
            id: attributes.string("ID") ?? section?.eventID.map { String($0) },
            time: attributes.double("TIME"), section: section, payloadError: error)
    }

    /// Adobe `EXT-X-CUE:ID="..",TYPE="SpliceOut",DURATION=30,TIME=1234.5[,CUE="..."]`.
    static func adobe(_ attributes: AttributeList, options: SCTE35DecodingOptions) -> AdOpportunitySignal? {
        var section: SpliceInfoSection?
        var error: SCTE35Error?
        if let cue = attributes.string("CUE") { (section, error) = decode(cue, options: options) }
        let type = attributes.string("TYPE")?.lowercased() ?? ""
        let kind: AdOpportunitySignal.Kind?
        if type.hasSuffix("out") || type == "start" {
            kind = .out
        } else if type.hasSuffix("in") || type == "end" {
            kind = .in
        } else if let section {
            kind = Self.kind(of: section)
        } else {
            // Without TYPE, an Adobe cue with a duration announces a break.
            kind = attributes.contains("DURATION") ? .out : nil
        }
        guard let kind else { return nil }
        return AdOpportunitySignal(
            kind: kind, dialect: .adobe,
            plannedDuration: kind == .in ? nil : attributes.duration("DURATION") ?? section?.breakDurationSeconds,
            elapsed: attributes.duration("ELAPSED"),
            id: attributes.string("ID") ?? section?.eventID.map { String($0) },
            time: attributes.double("TIME"), section: section, payloadError: error)
    }

    // MARK: Helpers

    /// The break meaning of a section: out, in, or nil (null, cancellation, program boundaries ...).
    public static func kind(of section: SpliceInfoSection) -> AdOpportunitySignal.Kind? {
        if section.isCancellation { return nil }
        if section.isAdStart { return .out }
        if section.isAdEnd { return .in }
        return nil
    }

    static func decode(_ text: String, options: SCTE35DecodingOptions) -> (SpliceInfoSection?, SCTE35Error?) {
        do {
            return (try SpliceInfoSection(text, options: options), nil)
        } catch {
            return (nil, error)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

extension CueDialect {
    /// Every signal attached to a segment: its cue tags in order, then its date ranges.
    public static func signals(
        in segment: MediaSegment,
        options: SCTE35DecodingOptions = .strict
    ) -> [AdOpportunitySignal] {
        segment.cues.compactMap { signal(from: $0, options: options) }
            + segment.dateRanges.flatMap { signals(from: $0, options: options) }
    }
}
