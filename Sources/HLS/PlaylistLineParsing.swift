/// What both playlist parsers share: the header check and the walk over lines. A parser says
/// what each kind of line means to it; the walk is written once so the two cannot drift (a
/// binary byte, a blank line, stray whitespace and a `#` comment are treated alike in both).
protocol PlaylistLineParsing {
    var diagnostics: [PlaylistDiagnostic] { get set }
    var whitespace: StrayWhitespace { get set }
    /// A line starting `#EXT`.
    mutating func tag(_ tagLine: TagLine, line: UnsafeBufferPointer<UInt8>, number: Int)
    /// A line starting `#` that is not a tag: a comment, kept where it stands.
    mutating func comment(_ text: String, number: Int)
    /// Any other non-blank line.
    mutating func uri(_ text: String, number: Int)
}

extension PlaylistLineParsing {
    /// Checks the header, then hands on every non-blank line; the number of the last line.
    @inline(__always)
    mutating func parseLines(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) -> Int {
        var scanner = LineScanner(bytes)
        diagnostics = try PlaylistHeader.check(&scanner)
        while let line = scanner.next() {
            if scanner.sawBinary { throw .binaryData(line: scanner.lineNumber) }
            if line.isEmpty { continue }
            let number = scanner.lineNumber
            if scanner.trimmedWhitespace { whitespace.note(line: number) }
            if line[0] == .hash {
                if line.hasPrefix("#EXT") {
                    tag(TagLine(line), line: line, number: number)
                } else {
                    comment(line.text, number: number)
                }
            } else {
                uri(line.text, number: number)
            }
        }
        return scanner.lineNumber
    }
}

extension PlaylistLineParsing {
    mutating func warn(_ rule: PlaylistRule, _ line: Int, _ message: String) {
        diagnostics.append(PlaylistDiagnostic(.warning, rule, line: line, message))
    }

    /// A tag's attribute list, with a warning for each problem in it: none given, malformed,
    /// a number out of the range the tag allows, a `required` attribute missing.
    mutating func attributes(
        _ value: UnsafeBufferPointer<UInt8>?, _ tag: TagName, _ number: Int, required: [String] = []
    ) -> AttributeList {
        guard let value else {
            warn(.malformedTag, number, "#\(tag.rawValue) needs an attribute list")
            return AttributeList()
        }
        var problems: [String] = []
        let list = AttributeList.parse(value) { problems.append($0) }
        for problem in problems { warn(.malformedAttribute, number, "#\(tag.rawValue): \(problem)") }
        if tag.hasPolicyNumbers {
            for problem in list.outOfRangeNumbers(in: tag) {
                warn(.valueOutOfRange, number, "#\(tag.rawValue): \(problem)")
            }
        }
        for name in required where !list.contains(name) {
            warn(.missingAttribute, number, "#\(tag.rawValue) lacks the required attribute \(name)")
        }
        return list
    }
}
