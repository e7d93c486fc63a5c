/// `EXT-X-MAP`: the initialization section (fMP4 `moov`, TS PAT/PMT) the following segments need.
public struct MediaInitializationSection: AttributeTag {
    public var attributes: AttributeList

    public init(attributes: AttributeList) {
        self.attributes = attributes
    }

    public init(uri: String, byteRange: ByteRange? = nil) {
        attributes = AttributeList()
        self.uri = uri
        self.byteRange = byteRange
    }

    public var uri: String {
        get { attributes.string("URI") ?? "" }
        set { attributes.setString("URI", newValue) }
    }
    public var byteRange: ByteRange? {
        get { attributes.string("BYTERANGE").flatMap(ByteRange.init) }
        set { attributes.setString("BYTERANGE", newValue?.description) }
    }
}
