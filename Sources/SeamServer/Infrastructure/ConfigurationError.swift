/// Why Seam's configuration cannot be used. Each message names the key, where the value came from
/// and what would be accepted, so an operator can fix it without reading the source.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// A key that no field of `SeamConfiguration` has.
        case unknownKey
        /// A value that does not parse as the key's type.
        case invalidValue
        /// A value of the right type that Seam cannot work with (a port above 65535, ...).
        case outOfRange
        /// The configuration file cannot be read or is not YAML.
        case unreadableFile
    }

    package var kind: Kind
    /// The dotted key (`server.port`), when the problem is about one key.
    package var key: String?
    /// Where the value came from: `config file seam.yaml line 3`, `environment variable SEAM_SERVER_PORT`, ...
    package var source: String
    package var message: String

    package init(_ kind: Kind, key: String?, source: String, message: String) {
        self.kind = kind
        self.key = key
        self.source = source
        self.message = message
    }

    package var description: String {
        if let key {
            return "configuration error in \(key) (\(source)): \(message)"
        }
        return "configuration error (\(source)): \(message)"
    }
}
