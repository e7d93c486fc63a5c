/// `Mezzanine` (VAST 4.x): the raw, high-quality creative an SSAI vendor transcodes into renditions.
public struct VASTMezzanine: Sendable, Hashable {
    public var id: String?
    public var delivery: VASTDelivery?
    public var type: String?
    public var width: Int?
    public var height: Int?
    public var codec: String?
    public var fileSize: Int?
    public var mediaType: String?
    public var url: String

    public init(
        id: String? = nil, delivery: VASTDelivery? = nil, type: String? = nil, width: Int? = nil, height: Int? = nil,
        codec: String? = nil, fileSize: Int? = nil, mediaType: String? = nil, url: String
    ) {
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.codec = codec
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.url = url
    }
}
