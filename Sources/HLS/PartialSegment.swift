/// `EXT-X-PART`: a Low-Latency HLS partial segment.
public struct PartialSegment: AttributeTag {
    public var attributes: AttributeList

    public init(attributes: AttributeList) {
        self.attributes = attributes
    }

    public init(uri: String, duration: Double, independent: Bool = false) {
        attributes = AttributeList()
        self.duration = duration
        self.uri = uri
        if independent { self.independent = true }
    }

    public var uri: String {
        get { attributes.string("URI") ?? "" }
        set { attributes.setString("URI", newValue) }
    }
    public var duration: Double {
        get { attributes.duration("DURATION") ?? 0 }
        set { attributes.setDouble("DURATION", newValue) }
    }
    public var independent: Bool {
        get { attributes.boolean("INDEPENDENT") ?? false }
        set { attributes.setBoolean("INDEPENDENT", newValue ? true : nil) }
    }
    public var byteRange: ByteRange? {
        get { attributes.string("BYTERANGE").flatMap(ByteRange.init) }
        set { attributes.setString("BYTERANGE", newValue?.description) }
    }
    public var gap: Bool {
        get { attributes.boolean("GAP") ?? false }
        set { attributes.setBoolean("GAP", newValue ? true : nil) }
    }
}
