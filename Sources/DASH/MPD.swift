/// A DASH Media Presentation Description, kept whole as its XML tree (`document`) — so every
/// element and attribute, known or not, serializes back as it came — with typed views of what a
/// stitcher reads: periods, adaptation sets, representations, segment templates and timelines,
/// base URLs, event streams. Reading checks the rules Seam relies on and names the element
/// (`MPD/Period[2]/AdaptationSet[1]/Representation[3]`) of any that is broken.
public struct MPD: Sendable, Equatable {
    public var document: XMLDocument

    public init(document: XMLDocument) throws(DASHParseError) {
        self.document = document
        try validate()
    }

    /// An MPD a stitcher wrote from MPDs it already read (their periods cut and put together),
    /// without reading its rules again: on a live session's every reload they cost as much as
    /// the rest of the answer.
    public init(written document: XMLDocument) {
        self.document = document
    }

    public init(parsing bytes: [UInt8], reader: XMLReader = XMLReader()) throws(DASHParseError) {
        try self.init(document: reader.read(bytes))
    }

    public init(parsing text: String, reader: XMLReader = XMLReader()) throws(DASHParseError) {
        try self.init(parsing: Array(text.utf8), reader: reader)
    }

    public func serialized() -> String { XMLWriter.write(document) }

    /// The MPD's text as UTF-8 bytes, what a server sends (`serialized()` without the `String`).
    public func serializedBytes() -> [UInt8] { XMLWriter.bytes(document) }

    public var root: XMLElement { document.root }

    /// `type="dynamic"`: a live presentation, reloaded every `minimumUpdatePeriod`.
    public var isDynamic: Bool { root[attribute: "type"] == "dynamic" }

    public var availabilityStartTime: String? { root[attribute: "availabilityStartTime"] }
    public var publishTime: String? { root[attribute: "publishTime"] }
    /// Seconds.
    public var mediaPresentationDuration: Double? {
        root[attribute: "mediaPresentationDuration"].flatMap(DASHDuration.seconds)
    }
    /// Seconds.
    public var minimumUpdatePeriod: Double? { root[attribute: "minimumUpdatePeriod"].flatMap(DASHDuration.seconds) }
    /// The MPD-level `BaseURL`s, in order.
    public var baseURLs: [String] { root.elements(named: "BaseURL").map(\.text) }

    public var periods: [Period] {
        root.elements(named: "Period").enumerated().map { Period(element: $1, path: "MPD/Period[\($0 + 1)]") }
    }

    // MARK: Rules

    func validate() throws(DASHParseError) {
        guard root.localName == "MPD" else {
            throw .invalidMPD(path: root.name, reason: "the root element is <\(root.name)>, not <MPD>")
        }
        if let type = root[attribute: "type"], type != "static", type != "dynamic" {
            throw .invalidMPD(path: "MPD", reason: "type=\"\(type)\" is neither static nor dynamic")
        }
        for name in ["mediaPresentationDuration", "minimumUpdatePeriod", "timeShiftBufferDepth", "minBufferTime"] {
            if let value = root[attribute: name], DASHDuration.seconds(value) == nil {
                throw .invalidMPD(path: "MPD", reason: "\(name)=\"\(value)\" is not an xs:duration such as PT30S")
            }
        }
        let periods = self.periods
        guard !periods.isEmpty else { throw .invalidMPD(path: "MPD", reason: "no <Period>") }
        for period in periods { try period.validate() }
    }
}

/// One `Period`: a stretch of the presentation with its own adaptation sets.
public struct Period: Sendable, Equatable {
    public var element: XMLElement
    /// Where it is in the MPD, for errors and reports.
    public var path: String

    public init(element: XMLElement, path: String) {
        self.element = element
        self.path = path
    }

    public var id: String? { element[attribute: "id"] }
    /// `start`, seconds from the presentation's start; nil when not given.
    public var start: Double? { element[attribute: "start"].flatMap(DASHDuration.seconds) }
    /// `duration`, seconds; nil when not given.
    public var duration: Double? { element[attribute: "duration"].flatMap(DASHDuration.seconds) }
    public var baseURLs: [String] { element.elements(named: "BaseURL").map(\.text) }
    /// The period's own `SegmentTemplate` (its adaptation sets and representations inherit it).
    public var segmentTemplate: SegmentTemplate? {
        element.elements(named: "SegmentTemplate").first.map(SegmentTemplate.init)
    }

    public var adaptationSets: [AdaptationSet] {
        element.elements(named: "AdaptationSet").enumerated().map {
            AdaptationSet(element: $1, path: path + "/AdaptationSet[\($0 + 1)]", inherited: segmentTemplate)
        }
    }

    public var eventStreams: [EventStream] {
        element.elements(named: "EventStream").enumerated().map {
            EventStream(element: $1, path: path + "/EventStream[\($0 + 1)]")
        }
    }

    func validate() throws(DASHParseError) {
        for name in ["start", "duration"] {
            if let value = element[attribute: name], DASHDuration.seconds(value) == nil {
                throw .invalidMPD(path: path, reason: "\(name)=\"\(value)\" is not an xs:duration such as PT30S")
            }
        }
        try SegmentTemplate.validate(element.elements(named: "SegmentTemplate").first, path: path + "/SegmentTemplate")
        for set in adaptationSets { try set.validate() }
        for stream in eventStreams { try stream.validate() }
    }
}

/// One `AdaptationSet`: interchangeable encodings of one component (video, an audio language, …).
public struct AdaptationSet: Sendable, Equatable {
    public var element: XMLElement
    public var path: String
    /// The period's `SegmentTemplate`, which this set's own refines.
    var inherited: SegmentTemplate?

    public var id: String? { element[attribute: "id"] }
    public var mimeType: String? { element[attribute: "mimeType"] }
    public var codecs: String? { element[attribute: "codecs"] }
    public var lang: String? { element[attribute: "lang"] }
    /// `contentType`, else the type of `mimeType` (`video/mp4` → `video`), else that of its first
    /// representation's `mimeType`.
    public var contentType: String? {
        if let type = element[attribute: "contentType"] { return type }
        let mime = mimeType ?? element.elements(named: "Representation").first?[attribute: "mimeType"]
        return mime.map { String($0.prefix { $0 != "/" }) }
    }
    /// The `Role` values (`main`, `alternate`, `commentary`, …) of the `urn:mpeg:dash:role:2011` scheme.
    public var roles: [String] {
        // Packagers write the scheme's letters in either case (`urn:mpeg:DASH:role:2011`).
        element.elements(named: "Role").filter {
            $0[attribute: "schemeIdUri"]?.lowercased() == "urn:mpeg:dash:role:2011"
        }
        .compactMap { $0[attribute: "value"] }
    }
    /// Whether it, or one of its representations, carries `ContentProtection` (Seam passes it
    /// through as it is).
    public var isProtected: Bool {
        !element.elements(named: "ContentProtection").isEmpty
            || element.elements(named: "Representation").contains { !$0.elements(named: "ContentProtection").isEmpty }
    }
    public var baseURLs: [String] { element.elements(named: "BaseURL").map(\.text) }

    /// The set's `SegmentTemplate`, refining the period's.
    public var segmentTemplate: SegmentTemplate? {
        SegmentTemplate.merged(
            element.elements(named: "SegmentTemplate").first.map(SegmentTemplate.init), over: inherited)
    }

    public var representations: [Representation] {
        let template = segmentTemplate
        return element.elements(named: "Representation").enumerated().map {
            Representation(
                element: $1, path: path + "/Representation[\($0 + 1)]", inheritedTemplate: template,
                inheritedCodecs: codecs, inheritedMimeType: mimeType)
        }
    }

    func validate() throws(DASHParseError) {
        try SegmentTemplate.validate(
            element.elements(named: "SegmentTemplate").first, path: path + "/SegmentTemplate")
        let representations = self.representations
        guard !representations.isEmpty else { throw .invalidMPD(path: path, reason: "no <Representation>") }
        for representation in representations { try representation.validate() }
    }
}

/// One `Representation`: one encoding, its segments addressed by its template, list or base.
public struct Representation: Sendable, Equatable {
    public var element: XMLElement
    public var path: String
    var inheritedTemplate: SegmentTemplate?
    var inheritedCodecs: String?
    var inheritedMimeType: String?

    public var id: String? { element[attribute: "id"] }
    /// Bits per second.
    public var bandwidth: Int? { element[attribute: "bandwidth"].flatMap { Int($0) } }
    /// Its own `codecs`, else its adaptation set's.
    public var codecs: String? { element[attribute: "codecs"] ?? inheritedCodecs }
    public var mimeType: String? { element[attribute: "mimeType"] ?? inheritedMimeType }
    public var width: Int? { element[attribute: "width"].flatMap { Int($0) } }
    public var height: Int? { element[attribute: "height"].flatMap { Int($0) } }
    public var baseURLs: [String] { element.elements(named: "BaseURL").map(\.text) }
    /// Its `SegmentTemplate` refining its adaptation set's and period's; nil when its segments are
    /// addressed otherwise (`SegmentBase`, `SegmentList`).
    public var segmentTemplate: SegmentTemplate? {
        SegmentTemplate.merged(
            element.elements(named: "SegmentTemplate").first.map(SegmentTemplate.init), over: inheritedTemplate)
    }
    /// Whether it is addressed by `SegmentBase` (one file, byte ranges) or `SegmentList` (listed URLs).
    public var hasSegmentBase: Bool { !element.elements(named: "SegmentBase").isEmpty }
    public var hasSegmentList: Bool { !element.elements(named: "SegmentList").isEmpty }

    func validate() throws(DASHParseError) {
        guard let id, !id.isEmpty else { throw .invalidMPD(path: path, reason: "no id") }
        guard bandwidth != nil else {
            throw .invalidMPD(
                path: path,
                reason:
                    "bandwidth=\"\(element[attribute: "bandwidth"] ?? "")\" is not a whole number of bits per second")
        }
        try SegmentTemplate.validate(
            element.elements(named: "SegmentTemplate").first, path: path + "/SegmentTemplate")
    }
}

/// A `SegmentTemplate`: segment URLs from `$Number$` or `$Time$`, fixed-length segments
/// (`duration`) or a `SegmentTimeline`.
public struct SegmentTemplate: Sendable, Equatable {
    public var media: String?
    public var initialization: String?
    public var startNumber: Int?
    public var timescale: Int?
    /// Segment length in `timescale` units (without a timeline).
    public var duration: Int?
    public var presentationTimeOffset: Int?
    public var timeline: [SegmentTimelineEntry]?

    public init(_ element: XMLElement) {
        media = element[attribute: "media"]
        initialization = element[attribute: "initialization"]
        startNumber = element[attribute: "startNumber"].flatMap { Int($0) }
        timescale = element[attribute: "timescale"].flatMap { Int($0) }
        duration = element[attribute: "duration"].flatMap { Int($0) }
        presentationTimeOffset = element[attribute: "presentationTimeOffset"].flatMap { Int($0) }
        timeline = element.elements(named: "SegmentTimeline").first.map { timeline in
            timeline.elements(named: "S").map(SegmentTimelineEntry.init)
        }
    }

    /// `own`'s attributes over `inherited`'s (DASH's inheritance: a lower level refines a higher one).
    public static func merged(_ own: SegmentTemplate?, over inherited: SegmentTemplate?) -> SegmentTemplate? {
        guard var merged = inherited else { return own }
        guard let own else { return merged }
        merged.media = own.media ?? merged.media
        merged.initialization = own.initialization ?? merged.initialization
        merged.startNumber = own.startNumber ?? merged.startNumber
        merged.timescale = own.timescale ?? merged.timescale
        merged.duration = own.duration ?? merged.duration
        merged.presentationTimeOffset = own.presentationTimeOffset ?? merged.presentationTimeOffset
        merged.timeline = own.timeline ?? merged.timeline
        return merged
    }

    /// The template element's rules, read from its attributes as written.
    static func validate(_ element: XMLElement?, path: String) throws(DASHParseError) {
        guard let element else { return }
        for name in ["startNumber", "timescale", "duration", "presentationTimeOffset"] {
            guard let value = element[attribute: name] else { continue }
            guard let number = Int(value), number >= 0 else {
                throw .invalidMPD(path: path, reason: "\(name)=\"\(value)\" is not a whole number of 0 or more")
            }
            if name == "timescale", number == 0 {
                throw .invalidMPD(path: path, reason: "timescale=\"0\"; use 1 or more")
            }
        }
        let entries = element.elements(named: "SegmentTimeline").first?.elements(named: "S") ?? []
        for (index, s) in entries.enumerated() {
            let where_ = path + "/SegmentTimeline/S[\(index + 1)]"
            guard let d = s[attribute: "d"], let length = UInt64(d), length > 0 else {
                throw .invalidMPD(
                    path: where_, reason: "d=\"\(s[attribute: "d"] ?? "")\" is not a segment length of 1 or more")
            }
            if let t = s[attribute: "t"], UInt64(t) == nil {
                throw .invalidMPD(path: where_, reason: "t=\"\(t)\" is not a whole number of 0 or more")
            }
            if let r = s[attribute: "r"], Int(r).map({ $0 < -1 }) ?? true {
                throw .invalidMPD(path: where_, reason: "r=\"\(r)\" is not a repeat count of -1 or more")
            }
        }
    }
}

/// One `S` of a `SegmentTimeline`: segments of length `d` from time `t`, `r` more of them
/// (`-1`: until the next `S` or the period's end).
public struct SegmentTimelineEntry: Sendable, Equatable {
    public var t: UInt64?
    public var d: UInt64
    public var r: Int

    public init(t: UInt64? = nil, d: UInt64, r: Int = 0) {
        self.t = t
        self.d = d
        self.r = r
    }

    init(_ element: XMLElement) {
        t = element[attribute: "t"].flatMap { UInt64($0) }
        d = element[attribute: "d"].flatMap { UInt64($0) } ?? 0
        r = element[attribute: "r"].flatMap { Int($0) } ?? 0
    }
}

/// An `EventStream` of a period: timed events such as SCTE-35 splice information
/// (`urn:scte:scte35:2013:xml`, `urn:scte:scte35:2014:xml+bin`).
public struct EventStream: Sendable, Equatable {
    public var element: XMLElement
    public var path: String

    public var schemeIdUri: String? { element[attribute: "schemeIdUri"] }
    public var value: String? { element[attribute: "value"] }
    public var timescale: Int { element[attribute: "timescale"].flatMap { Int($0) } ?? 1 }

    public struct Event: Sendable, Equatable {
        public var element: XMLElement
        /// In the stream's `timescale` units, from the period's start (less `presentationTimeOffset`).
        public var presentationTime: UInt64
        public var duration: UInt64?
        public var id: String?
    }

    public var events: [Event] {
        element.elements(named: "Event").map {
            Event(
                element: $0, presentationTime: $0[attribute: "presentationTime"].flatMap { UInt64($0) } ?? 0,
                duration: $0[attribute: "duration"].flatMap { UInt64($0) }, id: $0[attribute: "id"])
        }
    }

    func validate() throws(DASHParseError) {
        guard let scheme = schemeIdUri, !scheme.isEmpty else { throw .invalidMPD(path: path, reason: "no schemeIdUri") }
        if let timescale = element[attribute: "timescale"], (Int(timescale) ?? 0) < 1 {
            throw .invalidMPD(path: path, reason: "timescale=\"\(timescale)\"; use 1 or more")
        }
    }
}
