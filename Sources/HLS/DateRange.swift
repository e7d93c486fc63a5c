/// `EXT-X-DATERANGE`: a range of time with attributes, used for SCTE-35 signalling
/// (`SCTE35-OUT/IN/CMD`) and HLS Interstitials (`CLASS="com.apple.hls.interstitial"`).
public struct DateRange: AttributeTag, Codable {
    public var attributes: AttributeList

    public init(attributes: AttributeList) {
        self.attributes = attributes
    }

    public init(id: String, startDate: DateTime) {
        attributes = AttributeList()
        self.id = id
        self.startDate = startDate
    }

    /// The class that marks an HLS Interstitial.
    public static let interstitialClass = "com.apple.hls.interstitial"

    public var id: String {
        get { attributes.string("ID") ?? "" }
        set { attributes.setString("ID", newValue) }
    }
    public var dateRangeClass: String? {
        get { attributes.string("CLASS") }
        set { attributes.setString("CLASS", newValue) }
    }
    public var startDate: DateTime? {
        get { attributes.string("START-DATE").map(DateTime.init(text:)) }
        set { attributes.setString("START-DATE", newValue?.text) }
    }
    /// `CUE`: an enumerated list such as `PRE`, `POST`, `ONCE`.
    public var cue: [String] {
        get { attributes.string("CUE").map { $0.split(separator: ",").map(String.init) } ?? [] }
        set { attributes.setString("CUE", newValue.isEmpty ? nil : newValue.joined(separator: ",")) }
    }
    public var endDate: DateTime? {
        get { attributes.string("END-DATE").map(DateTime.init(text:)) }
        set { attributes.setString("END-DATE", newValue?.text) }
    }
    public var duration: Double? {
        get { attributes.longDuration("DURATION") }
        set { attributes.setDouble("DURATION", newValue) }
    }
    public var plannedDuration: Double? {
        get { attributes.longDuration("PLANNED-DURATION") }
        set { attributes.setDouble("PLANNED-DURATION", newValue) }
    }
    /// `SCTE35-CMD` as written (hexadecimal sequence).
    public var scte35Command: String? {
        get { attributes.enumerated("SCTE35-CMD") }
        set { attributes.setEnumerated("SCTE35-CMD", newValue) }
    }
    public var scte35Out: String? {
        get { attributes.enumerated("SCTE35-OUT") }
        set { attributes.setEnumerated("SCTE35-OUT", newValue) }
    }
    public var scte35In: String? {
        get { attributes.enumerated("SCTE35-IN") }
        set { attributes.setEnumerated("SCTE35-IN", newValue) }
    }
    public var endOnNext: Bool {
        get { attributes.boolean("END-ON-NEXT") ?? false }
        set { attributes.setBoolean("END-ON-NEXT", newValue ? true : nil) }
    }

    /// Client-defined `X-` attributes in playlist order.
    public var clientAttributes: [Attribute] {
        attributes.items.filter { $0.name.hasPrefix("X-") }
    }

    // MARK: HLS Interstitials

    public var isInterstitial: Bool { dateRangeClass == Self.interstitialClass }
    public var assetURI: String? { attributes.string("X-ASSET-URI") }
    public var assetList: String? { attributes.string("X-ASSET-LIST") }
    public var resumeOffset: Double? { attributes.longDuration("X-RESUME-OFFSET") }
    public var playoutLimit: Double? { attributes.longDuration("X-PLAYOUT-LIMIT") }
    /// `X-SNAP`: `OUT`, `IN`.
    public var snap: [String] { attributes.string("X-SNAP").map { $0.split(separator: ",").map(String.init) } ?? [] }
    /// `X-RESTRICT`: `SKIP`, `JUMP`.
    public var restrict: [String] {
        attributes.string("X-RESTRICT").map { $0.split(separator: ",").map(String.init) } ?? []
    }
    public var contentMayVary: Bool? { attributes.boolean("X-CONTENT-MAY-VARY") }
    public var timelineOccupies: String? { attributes.string("X-TIMELINE-OCCUPIES") }
    public var timelineStyle: String? { attributes.string("X-TIMELINE-STYLE") }
}
