/// A `MediaFile`: one rendition of a linear creative.
public struct VASTMediaFile: Sendable, Hashable {
    public var id: String?
    public var delivery: VASTDelivery?
    /// MIME type as written, e.g. `video/mp4` or `application/x-mpegURL`.
    public var type: String
    public var width: Int?
    public var height: Int?
    /// `bitrate` in kbit/s (constant bitrate renditions).
    public var bitrate: Int?
    /// `minBitrate` in kbit/s (adaptive renditions).
    public var minBitrate: Int?
    /// `maxBitrate` in kbit/s (adaptive renditions).
    public var maxBitrate: Int?
    /// `codec` attribute (RFC 6381 string or free text, as written).
    public var codec: String?
    public var apiFramework: String?
    public var scalable: Bool?
    public var maintainAspectRatio: Bool?
    /// `fileSize` in bytes (VAST 4.1+).
    public var fileSize: Int?
    /// `mediaType` (VAST 4.1+, e.g. `2D`, `3D`, `360`).
    public var mediaType: String?
    /// The file's URL, trimmed.
    public var url: String

    public init(
        id: String? = nil, delivery: VASTDelivery? = nil, type: String, width: Int? = nil, height: Int? = nil,
        bitrate: Int? = nil, minBitrate: Int? = nil, maxBitrate: Int? = nil, codec: String? = nil,
        apiFramework: String? = nil, scalable: Bool? = nil, maintainAspectRatio: Bool? = nil,
        fileSize: Int? = nil, mediaType: String? = nil, url: String
    ) {
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.minBitrate = minBitrate
        self.maxBitrate = maxBitrate
        self.codec = codec
        self.apiFramework = apiFramework
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.url = url
    }

    /// The MIME types of HLS playlists, lowercased.
    public static let hlsMIMETypes: Set<String> = ["application/x-mpegurl", "application/vnd.apple.mpegurl"]

    /// True for a streaming HLS rendition, which SSAI can splice without transcoding.
    public var isHLS: Bool {
        delivery == .streaming && VASTMediaFile.hlsMIMETypes.contains(VASTMediaFile.baseMIMEType(type))
    }

    /// True for a streaming MPEG-DASH rendition (an MPD), which a DASH session splices as periods.
    public var isDASH: Bool {
        delivery == .streaming && VASTMediaFile.baseMIMEType(type) == "application/dash+xml"
    }

    /// The best bitrate figure the file gives (kbit/s): `bitrate`, else `maxBitrate`, else `minBitrate`.
    public var nominalBitrate: Int? { bitrate ?? maxBitrate ?? minBitrate }

    static func baseMIMEType(_ type: String) -> String {
        let base =
            type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? type
        return base.trimmingXMLWhitespace().lowercased()
    }
}

/// How a media file is delivered: `progressive` download or `streaming` (HLS, DASH...).
public enum VASTDelivery: Sendable, Hashable {
    case progressive
    case streaming
    /// Any other value, as written.
    case other(String)

    /// Reads the attribute value, ignoring case and surrounding whitespace.
    public init(_ text: String) {
        let trimmed = text.trimmingXMLWhitespace()
        switch trimmed.lowercased() {
        case "progressive": self = .progressive
        case "streaming": self = .streaming
        default: self = .other(trimmed)
        }
    }
}
