/// `EXT-X-PRELOAD-HINT`: a resource the client may request before it is listed.
public struct PreloadHint: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    /// `PART` or `MAP`.
    public var type: String {
        get { attributes.enumerated("TYPE") ?? "" }
        set { attributes.setEnumerated("TYPE", newValue) }
    }
    public var uri: String {
        get { attributes.string("URI") ?? "" }
        set { attributes.setString("URI", newValue) }
    }
    public var byteRangeStart: Int? { attributes.byteCount("BYTERANGE-START") }
    public var byteRangeLength: Int? { attributes.byteCount("BYTERANGE-LENGTH") }
}

/// `EXT-X-RENDITION-REPORT`: where another rendition's live edge is.
public struct RenditionReport: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var uri: String {
        get { attributes.string("URI") ?? "" }
        set { attributes.setString("URI", newValue) }
    }
    public var lastMediaSequence: Int? { attributes.sequenceNumber("LAST-MSN") }
    public var lastPart: Int? { attributes.sequenceNumber("LAST-PART") }
}

/// `EXT-X-SERVER-CONTROL`: delivery directives the server supports.
public struct ServerControl: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var canSkipUntil: Double? { attributes.duration("CAN-SKIP-UNTIL") }
    public var canSkipDateRanges: Bool { attributes.boolean("CAN-SKIP-DATERANGES") ?? false }
    public var holdBack: Double? { attributes.duration("HOLD-BACK") }
    public var partHoldBack: Double? { attributes.duration("PART-HOLD-BACK") }
    public var canBlockReload: Bool { attributes.boolean("CAN-BLOCK-RELOAD") ?? false }
}

/// `EXT-X-PART-INF`: the part target duration.
public struct PartInformation: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var partTarget: Double? { attributes.duration("PART-TARGET") }
}

/// `EXT-X-SKIP`: segments left out of a delta playlist update.
public struct SkipInformation: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var skippedSegments: Int { attributes.sequenceNumber("SKIPPED-SEGMENTS") ?? 0 }
    public var recentlyRemovedDateRanges: [String]? {
        attributes.string("RECENTLY-REMOVED-DATERANGES").map { $0.split(separator: "\t").map(String.init) }
    }
}

/// `EXT-X-START`: where playback should begin.
public struct StartPoint: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var timeOffset: Double? { attributes.longDuration("TIME-OFFSET") }
    public var precise: Bool { attributes.boolean("PRECISE") ?? false }
}

/// `EXT-X-DEFINE`: a variable for `{$name}` substitution.
public struct VariableDefinition: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var name: String? { attributes.string("NAME") }
    public var value: String? { attributes.string("VALUE") }
    /// `IMPORT`: takes the value from the multivariant playlist.
    public var importName: String? { attributes.string("IMPORT") }
    /// `QUERYPARAM`: takes the value from the playlist URL's query.
    public var queryParameter: String? { attributes.string("QUERYPARAM") }
    /// The name this definition makes available, whichever form it has.
    public var definedName: String? { name ?? importName ?? queryParameter }
}
