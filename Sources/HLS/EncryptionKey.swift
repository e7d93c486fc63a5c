/// `EXT-X-KEY` (and `EXT-X-SESSION-KEY`): how the following segments are encrypted.
public struct EncryptionKey: AttributeTag {
    public var attributes: AttributeList

    public init(attributes: AttributeList) {
        self.attributes = attributes
    }

    public init(
        method: Method, uri: String? = nil, iv: String? = nil, keyFormat: String? = nil,
        keyFormatVersions: String? = nil
    ) {
        attributes = AttributeList()
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
    }

    public enum Method: Sendable, Hashable, CustomStringConvertible {
        case none, aes128, sampleAES, sampleAESCTR
        case other(String)

        public init(_ text: String) {
            switch text {
            case "NONE": self = .none
            case "AES-128": self = .aes128
            case "SAMPLE-AES": self = .sampleAES
            case "SAMPLE-AES-CTR": self = .sampleAESCTR
            default: self = .other(text)
            }
        }

        public var description: String {
            switch self {
            case .none: return "NONE"
            case .aes128: return "AES-128"
            case .sampleAES: return "SAMPLE-AES"
            case .sampleAESCTR: return "SAMPLE-AES-CTR"
            case .other(let s): return s
            }
        }
    }

    public var method: Method {
        get { attributes.enumerated("METHOD").map(Method.init) ?? .other("") }
        set { attributes.setEnumerated("METHOD", newValue.description) }
    }
    public var uri: String? {
        get { attributes.string("URI") }
        set { attributes.setString("URI", newValue) }
    }
    /// The initialization vector as written (`0x...`).
    public var iv: String? {
        get { attributes.enumerated("IV") }
        set { attributes.setEnumerated("IV", newValue) }
    }
    public var keyFormat: String? {
        get { attributes.string("KEYFORMAT") }
        set { attributes.setString("KEYFORMAT", newValue) }
    }
    public var keyFormatVersions: String? {
        get { attributes.string("KEYFORMATVERSIONS") }
        set { attributes.setString("KEYFORMATVERSIONS", newValue) }
    }
}
