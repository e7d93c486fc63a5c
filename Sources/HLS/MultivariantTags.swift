/// `EXT-X-STREAM-INF` and the URI line after it: one variant stream.
public struct VariantStream: AttributeTag {
    public var attributes: AttributeList
    public var uri: String
    /// Unknown tags and comments that preceded the variant, verbatim.
    public var unknownLines: [String] = []

    public init(attributes: AttributeList) {
        self.attributes = attributes
        uri = ""
    }

    public init(uri: String, bandwidth: Int) {
        attributes = AttributeList()
        self.uri = uri
        self.bandwidth = bandwidth
    }

    public var bandwidth: Int {
        get { attributes.bandwidth("BANDWIDTH") ?? 0 }
        set { attributes.setInteger("BANDWIDTH", newValue) }
    }
    public var averageBandwidth: Int? { attributes.bandwidth("AVERAGE-BANDWIDTH") }
    public var score: Double? { attributes.double("SCORE") }
    /// `CODECS` split into its entries.
    public var codecs: [String] {
        attributes.string("CODECS").map { $0.split(separator: ",").map { String($0.drop(while: { $0 == " " })) } } ?? []
    }
    public var supplementalCodecs: String? { attributes.string("SUPPLEMENTAL-CODECS") }
    public var resolution: Resolution? { attributes.resolution("RESOLUTION") }
    public var frameRate: Double? { attributes.double("FRAME-RATE") }
    public var hdcpLevel: String? { attributes.enumerated("HDCP-LEVEL") }
    public var allowedCPC: String? { attributes.string("ALLOWED-CPC") }
    public var videoRange: String? { attributes.enumerated("VIDEO-RANGE") }
    public var requiredVideoLayout: String? { attributes.string("REQ-VIDEO-LAYOUT") }
    public var stableVariantID: String? { attributes.string("STABLE-VARIANT-ID") }
    public var audioGroup: String? { attributes.string("AUDIO") }
    public var videoGroup: String? { attributes.string("VIDEO") }
    public var subtitlesGroup: String? { attributes.string("SUBTITLES") }
    /// `CLOSED-CAPTIONS`: a group id, or `NONE` (unquoted).
    public var closedCaptions: AttributeValue? { attributes["CLOSED-CAPTIONS"] }
    public var pathwayID: String? { attributes.string("PATHWAY-ID") }
}

/// `EXT-X-I-FRAME-STREAM-INF`: an I-frame-only variant.
public struct IFrameVariant: AttributeTag {
    public var attributes: AttributeList
    public var unknownLines: [String] = []
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var uri: String {
        get { attributes.string("URI") ?? "" }
        set { attributes.setString("URI", newValue) }
    }
    public var bandwidth: Int { attributes.bandwidth("BANDWIDTH") ?? 0 }
    public var averageBandwidth: Int? { attributes.bandwidth("AVERAGE-BANDWIDTH") }
    public var codecs: [String] { attributes.string("CODECS").map { $0.split(separator: ",").map(String.init) } ?? [] }
    public var resolution: Resolution? { attributes.resolution("RESOLUTION") }
    public var videoGroup: String? { attributes.string("VIDEO") }
}

/// `EXT-X-MEDIA`: an alternative rendition (audio, video, subtitles, closed captions).
public struct Rendition: AttributeTag {
    public enum MediaType: String, Sendable, Hashable {
        case audio = "AUDIO"
        case video = "VIDEO"
        case subtitles = "SUBTITLES"
        case closedCaptions = "CLOSED-CAPTIONS"
    }

    public var attributes: AttributeList
    public var unknownLines: [String] = []
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var type: MediaType? { attributes.enumerated("TYPE").flatMap(MediaType.init(rawValue:)) }
    public var uri: String? {
        get { attributes.string("URI") }
        set { attributes.setString("URI", newValue) }
    }
    public var groupID: String { attributes.string("GROUP-ID") ?? "" }
    public var language: String? { attributes.string("LANGUAGE") }
    public var associatedLanguage: String? { attributes.string("ASSOC-LANGUAGE") }
    public var name: String { attributes.string("NAME") ?? "" }
    public var stableRenditionID: String? { attributes.string("STABLE-RENDITION-ID") }
    public var isDefault: Bool { attributes.boolean("DEFAULT") ?? false }
    public var autoselect: Bool { attributes.boolean("AUTOSELECT") ?? false }
    public var forced: Bool { attributes.boolean("FORCED") ?? false }
    public var instreamID: String? { attributes.string("INSTREAM-ID") }
    public var bitDepth: Int? { attributes.integer("BIT-DEPTH") }
    public var sampleRate: Int? { attributes.integer("SAMPLE-RATE") }
    public var characteristics: [String] {
        attributes.string("CHARACTERISTICS").map { $0.split(separator: ",").map(String.init) } ?? []
    }
    public var channels: String? { attributes.string("CHANNELS") }
}

/// `EXT-X-SESSION-DATA`: arbitrary session data.
public struct SessionData: AttributeTag {
    public var attributes: AttributeList
    public var unknownLines: [String] = []
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var dataID: String { attributes.string("DATA-ID") ?? "" }
    public var value: String? { attributes.string("VALUE") }
    public var uri: String? {
        get { attributes.string("URI") }
        set { attributes.setString("URI", newValue) }
    }
    /// `JSON` or `RAW`.
    public var format: String? { attributes.enumerated("FORMAT") }
    public var language: String? { attributes.string("LANGUAGE") }
}

/// `EXT-X-CONTENT-STEERING`: the steering server and initial pathway.
public struct ContentSteering: AttributeTag {
    public var attributes: AttributeList
    public init(attributes: AttributeList) { self.attributes = attributes }

    public var serverURI: String {
        get { attributes.string("SERVER-URI") ?? "" }
        set { attributes.setString("SERVER-URI", newValue) }
    }
    public var pathwayID: String? { attributes.string("PATHWAY-ID") }
}
