/// Why a VAST or VMAP document was rejected, and where.
///
/// Every case names the problem in words a person fixing the ad server response can act on, and
/// carries the line number when the XML parser knows it. ``vastErrorCode`` maps the error to the
/// IAB code that belongs in the `[ERRORCODE]` macro of the `Error` beacons.
public enum VASTParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is larger than ``VASTParsingOptions/maxInputBytes``.
    case inputTooLarge(size: Int, limit: Int)
    /// The input holds no XML at all (empty or only whitespace).
    case emptyInput
    /// The bytes are not in an encoding the safe pre-scan can read (UTF-16/32, EBCDIC, UTF-7, ...).
    case unsupportedEncoding(String)
    /// A `<!DOCTYPE` or `<!ENTITY` declaration: refused because entity expansion is an attack vector.
    case forbiddenDeclaration(String, line: Int)
    /// Elements nest deeper than ``VASTParsingOptions/maxElementDepth``.
    case tooDeep(limit: Int, element: String, line: Int)
    /// The XML is not well-formed.
    case malformedXML(reason: String, line: Int?, column: Int?)
    /// The root element is not the one expected (`VAST` or `VMAP`).
    case unexpectedRootElement(found: String, expected: String, line: Int)
    /// The `version` attribute names a VAST version this module does not read (VAST 1, VAST 5+...).
    case unsupportedVersion(String, line: Int)

    /// The IAB VAST error code a player or server reports for this failure.
    public var vastErrorCode: VASTErrorCode {
        switch self {
        case .unexpectedRootElement: return .schemaValidationError
        case .unsupportedVersion: return .versionNotSupported
        default: return .xmlParsingError
        }
    }

    /// The 1-based line the problem was found on, when known.
    public var line: Int? {
        switch self {
        case .inputTooLarge, .emptyInput, .unsupportedEncoding: return nil
        case .forbiddenDeclaration(_, let line): return line
        case .tooDeep(_, _, let line): return line
        case .malformedXML(_, let line, _): return line
        case .unexpectedRootElement(_, _, let line): return line
        case .unsupportedVersion(_, let line): return line
        }
    }

    public var description: String {
        switch self {
        case let .inputTooLarge(size, limit):
            return
                "input is \(size) bytes, more than the limit of \(limit) bytes; raise VASTParsingOptions.maxInputBytes if this response is legitimate"
        case .emptyInput:
            return "input is empty: expected an XML document"
        case let .unsupportedEncoding(what):
            return "unsupported encoding (\(what)): send the document as UTF-8, US-ASCII or ISO-8859-x"
        case let .forbiddenDeclaration(kind, line):
            return
                "line \(line): <!\(kind) declarations are not accepted (entity expansion is refused for safety); remove the \(kind) declaration"
        case let .tooDeep(limit, element, line):
            return "line \(line): element <\(element)> nests deeper than \(limit) levels"
        case let .malformedXML(reason, line, column):
            var location = ""
            if let line { location = "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " }
            return "\(location)malformed XML: \(reason)"
        case let .unexpectedRootElement(found, expected, line):
            return "line \(line): root element is <\(found)>, expected <\(expected)>"
        case let .unsupportedVersion(version, line):
            return "line \(line): VAST version \"\(version)\" is not supported (VAST 2.0 to 4.3 are)"
        }
    }
}
