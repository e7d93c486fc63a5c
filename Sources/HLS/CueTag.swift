/// An SCTE-35 / ad cue tag in one of the dialects found in the wild. The value after
/// the colon is kept verbatim; the SCTE35 module interprets it.
public struct CueTag: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `#EXT-X-CUE-OUT[:duration | :DURATION=...]` (Elemental, Wowza, ...)
        case cueOut = "EXT-X-CUE-OUT"
        /// `#EXT-X-CUE-OUT-CONT:ElapsedTime=..,Duration=..,SCTE35=..` or `:elapsed/duration`
        case cueOutCont = "EXT-X-CUE-OUT-CONT"
        case cueIn = "EXT-X-CUE-IN"
        /// `#EXT-OATCLS-SCTE35:<base64>`
        case oatclsSCTE35 = "EXT-OATCLS-SCTE35"
        /// `#EXT-X-ASSET:CAID=...`
        case asset = "EXT-X-ASSET"
        /// `#EXT-X-SCTE35:CUE="..."` (Anvato, Uplynk)
        case scte35 = "EXT-X-SCTE35"
        /// `#EXT-X-SPLICEPOINT-SCTE35:<base64>`
        case splicepointSCTE35 = "EXT-X-SPLICEPOINT-SCTE35"
        /// Adobe `#EXT-X-CUE:ID=..,TYPE=..,DURATION=..,TIME=..`
        case adobeCue = "EXT-X-CUE"
    }

    public var kind: Kind
    /// Text after the colon, nil when the tag had none.
    public var value: String?

    public init(_ kind: Kind, value: String? = nil) {
        self.kind = kind
        self.value = value
    }

    /// The value read as an attribute list (for the dialects that use one).
    public var attributes: AttributeList {
        guard let value else { return AttributeList() }
        return AttributeList(parsing: value)
    }
}
