import Foundation

/// Parses VAST 2.0–4.3 responses into ``VASTDocument`` values. Pure: no I/O, no shared state.
///
/// Lenient where ad servers are sloppy (namespace prefixes, capitalisation of names and attribute
/// values, whitespace around CDATA, missing optional elements, VAST 2 `VASTAdTagURL`), and strict
/// where input is dangerous (see ``VASTParsingOptions`` and ``VASTParseError``): it never crashes
/// and throws a typed error that names the problem and its line.
public struct VASTParser: Sendable, Equatable {
    public var options: VASTParsingOptions

    public init(options: VASTParsingOptions = VASTParsingOptions()) {
        self.options = options
    }

    /// Parses a response body as received (any ASCII-compatible encoding; see ``VASTParseError``).
    public func parse(_ bytes: [UInt8]) throws(VASTParseError) -> VASTDocument {
        let root = try SafeXMLReader(options: options).read(bytes)
        var builder = VASTDocumentBuilder()
        return try builder.document(from: root)
    }

    /// Parses XML text (sent to the XML parser as UTF-8).
    public func parse(_ string: String) throws(VASTParseError) -> VASTDocument {
        try parse(Array(string.utf8))
    }

    /// Parses a response body held in `Data`.
    public func parse(_ data: Data) throws(VASTParseError) -> VASTDocument {
        try parse([UInt8](data))
    }
}
