/// Why an MPD cannot be read, in words that name the fix: where in the document (line and column
/// for the XML, the element path such as `MPD/Period[2]/AdaptationSet[1]` for the MPD's own
/// rules) and what is wrong there.
public enum DASHParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is larger than the reader accepts.
    case inputTooLarge(size: Int, limit: Int)
    case emptyInput
    /// The document is not well-formed XML, or uses what the reader refuses (a DTD, an entity
    /// other than XML's five, an encoding other than UTF-8).
    case malformedXML(reason: String, line: Int, column: Int)
    /// Elements nest deeper than the reader accepts.
    case tooDeep(limit: Int, line: Int)
    /// Well-formed XML that breaks an MPD rule Seam relies on.
    case invalidMPD(path: String, reason: String)

    public var description: String {
        switch self {
        case .inputTooLarge(let size, let limit):
            return "the MPD is \(size) bytes, over the \(limit) bytes Seam reads"
        case .emptyInput:
            return "the MPD is empty"
        case .malformedXML(let reason, let line, let column):
            return "the MPD is not well-formed XML at line \(line), column \(column): \(reason)"
        case .tooDeep(let limit, let line):
            return "the MPD nests elements deeper than \(limit) levels (line \(line))"
        case .invalidMPD(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
