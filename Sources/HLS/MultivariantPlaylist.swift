/// A multivariant ("master") playlist: the variants and renditions of one title.
///
/// Serialization order is: header tags, session data and keys, renditions, variants,
/// I-frame variants. Unknown tags travel with the element they preceded.
public struct MultivariantPlaylist: Sendable, Hashable {
    public var version: Int?
    public var independentSegments: Bool
    public var start: StartPoint?
    public var defines: [VariableDefinition]
    public var contentSteering: ContentSteering?
    /// Unknown tags and comments before the first element.
    public var headerLines: [String]
    public var sessionData: [SessionData]
    public var sessionKeys: [EncryptionKey]
    public var renditions: [Rendition]
    public var variants: [VariantStream]
    public var iFrameVariants: [IFrameVariant]
    /// Unknown tags and comments after the last element.
    public var trailingLines: [String]

    public init(
        version: Int? = nil,
        renditions: [Rendition] = [],
        variants: [VariantStream] = [],
        iFrameVariants: [IFrameVariant] = []
    ) {
        self.version = version
        independentSegments = false
        start = nil
        defines = []
        contentSteering = nil
        headerLines = []
        sessionData = []
        sessionKeys = []
        self.renditions = renditions
        self.variants = variants
        self.iFrameVariants = iFrameVariants
        trailingLines = []
    }

    /// Renditions of one group, in playlist order.
    public func renditions(inGroup groupID: String, type: Rendition.MediaType) -> [Rendition] {
        renditions.filter { $0.groupID == groupID && $0.type == type }
    }
}

/// Either kind of playlist, for callers that do not know in advance.
public enum Playlist: Sendable, Hashable {
    case media(MediaPlaylist)
    case multivariant(MultivariantPlaylist)
}
