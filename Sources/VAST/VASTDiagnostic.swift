/// A problem the lenient parser stepped over instead of rejecting the document.
///
/// Ad servers send imperfect VAST; Seam plays what it can and records what it skipped, so a
/// `validate` command or a log line can tell an ad ops engineer what to fix.
public struct VASTDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the element concerned, when known.
    public var line: Int?
    /// The element concerned (local name, e.g. `Duration`).
    public var element: String
    /// What was wrong and what the parser did about it.
    public var message: String

    public init(line: Int?, element: String, message: String) {
        self.line = line
        self.element = element
        self.message = message
    }

    public var description: String {
        (line.map { "line \($0): " } ?? "") + "<\(element)>: \(message)"
    }
}
