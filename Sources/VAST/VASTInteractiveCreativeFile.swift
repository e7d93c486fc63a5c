/// `InteractiveCreativeFile` (VAST 4.x): the interactive layer (e.g. SIMID) separated from the video,
/// which SSAI cannot run but a client SDK can.
public struct VASTInteractiveCreativeFile: Sendable, Hashable {
    public var type: String?
    public var apiFramework: String?
    public var variableDuration: Bool?
    public var url: String

    public init(type: String? = nil, apiFramework: String? = nil, variableDuration: Bool? = nil, url: String) {
        self.type = type
        self.apiFramework = apiFramework
        self.variableDuration = variableDuration
        self.url = url
    }
}
