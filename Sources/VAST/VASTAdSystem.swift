/// `AdSystem`: the ad server that returned the ad, and its version.
public struct VASTAdSystem: Sendable, Hashable {
    public var name: String
    public var version: String?

    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}
