/// A parsed VMAP 1.0 playlist: where in the content the ad breaks go and where their ads come from.
public struct VMAPDocument: Sendable, Equatable {
    /// The `version` attribute as written (e.g. `"1.0"`).
    public var version: String?
    /// Ad breaks in document order.
    public var adBreaks: [VMAPAdBreak]
    /// VMAP-level `Extensions`, raw.
    public var extensions: [VASTExtension]
    /// Problems the lenient parser stepped over (e.g. a break with an unreadable `timeOffset`).
    public var diagnostics: [VASTDiagnostic]

    public init(
        version: String? = nil, adBreaks: [VMAPAdBreak] = [], extensions: [VASTExtension] = [],
        diagnostics: [VASTDiagnostic] = []
    ) {
        self.version = version
        self.adBreaks = adBreaks
        self.extensions = extensions
        self.diagnostics = diagnostics
    }

    /// Parses a VMAP document with the default limits. See ``VMAPParser``.
    public init(parsing data: [UInt8]) throws(VASTParseError) {
        self = try VMAPParser().parse(data)
    }
}
