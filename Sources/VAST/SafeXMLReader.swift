import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads bytes into an ``ElementNode`` tree, refusing hostile input before and while parsing.
///
/// Defences, in order: a size limit; an encoding check (only ASCII-compatible encodings, so the
/// byte scan that follows sees what libxml2 will see); a scan that refuses `<!DOCTYPE` and
/// `<!ENTITY` outside comments and CDATA (no DTD means no entity expansion, no billion laughs,
/// no external entities); `XMLParser` with external entities off and namespace processing off
/// (undeclared prefixes such as `vmap:` or `xsi:` are common); a depth limit checked per element;
/// and our own tag balancing, because `XMLParser` on Linux can report success after a fatal error.
struct SafeXMLReader {
    var options: VASTParsingOptions

    func read(_ bytes: [UInt8]) throws(VASTParseError) -> ElementNode {
        guard bytes.count <= options.maxInputBytes else {
            throw .inputTooLarge(size: bytes.count, limit: options.maxInputBytes)
        }
        let declaredEncoding = try SafeXMLReader.prescan(bytes)
        var input = bytes
        // Ad servers sometimes send Latin-1 without saying so; read undeclared, invalid UTF-8 as
        // ISO-8859-1 rather than refusing it (every byte is a valid Latin-1 character).
        if declaredEncoding == nil, String(validating: bytes, as: UTF8.self) == nil {
            input = Array(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })).utf8)
        }
        let builder = TreeBuilder(maxDepth: min(options.maxElementDepth, VASTParsingOptions.depthCeiling))
        let parser = XMLParser(data: Data(input))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = builder
        let succeeded = parser.parse()
        parser.delegate = nil
        if let failure = builder.failure { throw failure }
        if !succeeded {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw .malformedXML(
                reason: SafeXMLReader.describe(libxmlCode: code), line: positive(parser.lineNumber),
                column: positive(parser.columnNumber))
        }
        if let open = builder.stack.last {
            throw .malformedXML(
                reason: "element <\(open.qualifiedName)> opened on line \(open.line) is never closed",
                line: positive(parser.lineNumber), column: nil)
        }
        guard let root = builder.root else {
            throw .malformedXML(reason: "no root element found", line: nil, column: nil)
        }
        return root
    }

    private func positive(_ value: Int) -> Int? { value > 0 ? value : nil }

    // MARK: - Pre-scan

    /// Refuses encodings the byte scan cannot read, then DOCTYPE/ENTITY declarations.
    /// Returns the encoding named in the XML declaration, if any.
    @discardableResult
    static func prescan(_ bytes: [UInt8]) throws(VASTParseError) -> String? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw .unsupportedEncoding("UTF-16 byte order mark")
        }
        if bytes.contains(0) {
            throw .unsupportedEncoding("NUL bytes found; UTF-16 or UTF-32 input, or binary data")
        }
        var first = start
        while first < bytes.count, isXMLSpace(bytes[first]) { first += 1 }
        guard first < bytes.count else { throw .emptyInput }
        guard bytes[first] == UInt8(ascii: "<") else {
            throw .malformedXML(
                reason: "document does not start with '<' (is this XML?)", line: lineNumber(in: bytes, at: first),
                column: nil)
        }
        let declaredEncoding = try checkDeclaredEncoding(bytes, from: first)

        var index = first
        var line = lineNumber(in: bytes, at: first)
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1; index += 1; continue }
            guard byte == UInt8(ascii: "<") else { index += 1; continue }
            if matches(bytes, at: index, "<!--") {
                index = skip(bytes, from: index + 4, past: "-->", line: &line)
            } else if matches(bytes, at: index, "<![CDATA[") {
                index = skip(bytes, from: index + 9, past: "]]>", line: &line)
            } else if matches(bytes, at: index, "<?") {
                // A processing instruction without data (`<?x?>`) reaches FoundationXML's
                // callback as a NULL string, which it reads with strlen: a crash of the whole
                // process (found by fuzzing). No ad server needs one.
                var end = index + 2
                while end < count, !isXMLSpace(bytes[end]), !matches(bytes, at: end, "?>") { end += 1 }
                var data = end
                while data < count, isXMLSpace(bytes[data]) { data += 1 }
                if matches(bytes, at: data, "?>") {
                    let target = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                    throw .malformedXML(
                        reason: "processing instruction <?\(target)?> has no data", line: line, column: nil)
                }
                index = skip(bytes, from: index + 2, past: "?>", line: &line)
            } else if matches(bytes, at: index, "<!DOCTYPE", caseInsensitive: true) {
                throw .forbiddenDeclaration("DOCTYPE", line: line)
            } else if matches(bytes, at: index, "<!ENTITY", caseInsensitive: true) {
                throw .forbiddenDeclaration("ENTITY", line: line)
            } else {
                index += 1
            }
        }
        return declaredEncoding
    }

    /// Encodings that are ASCII supersets, so the byte scan above sees the markup libxml2 sees.
    private static let allowedEncodings: Set<String> = [
        "utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1", "iso-latin-1", "iso-8859-2", "iso-8859-15",
        "windows-1250", "windows-1251", "windows-1252", "cp1252",
    ]

    private static func checkDeclaredEncoding(_ bytes: [UInt8], from start: Int) throws(VASTParseError) -> String? {
        guard matches(bytes, at: start, "<?xml") else { return nil }
        var end = start
        while end < bytes.count, end - start < 512, bytes[end] != UInt8(ascii: ">") { end += 1 }
        let declaration = String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let name = rest.dropFirst().prefix { $0 != quote }
        if !allowedEncodings.contains(name.lowercased()) {
            throw .unsupportedEncoding("declared encoding \"\(name)\"")
        }
        return String(name)
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func lineNumber(in bytes: [UInt8], at index: Int) -> Int {
        1 + bytes[..<index].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    private static func matches(
        _ bytes: [UInt8], at index: Int, _ literal: StaticString, caseInsensitive: Bool = false
    ) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { pattern in
            for offset in 0..<count {
                var a = bytes[index + offset], b = pattern[offset]
                if caseInsensitive {
                    if a >= 0x61 && a <= 0x7A { a -= 0x20 }
                    if b >= 0x61 && b <= 0x7A { b -= 0x20 }
                }
                if a != b { return false }
            }
            return true
        }
    }

    /// Index just past `terminator`, or the end of input when it never comes; counts newlines.
    private static func skip(_ bytes: [UInt8], from start: Int, past terminator: StaticString, line: inout Int) -> Int {
        var index = start
        while index < bytes.count {
            if matches(bytes, at: index, terminator) { return index + terminator.utf8CodeUnitCount }
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        return index
    }

    // MARK: - libxml2 error codes

    /// Words for the libxml2 error codes that `XMLParser` reports without a message on Linux.
    static func describe(libxmlCode code: Int) -> String {
        let known: [Int: String] = [
            4: "document is empty or does not start with markup",
            5: "extra content after the end of the root element, or the document ends too early",
            9: "invalid character",
            23: "entity reference is missing its ';'",
            26: "undeclared entity (only &amp; &lt; &gt; &quot; &apos; and character references are allowed)",
            31: "unknown encoding",
            32: "unsupported encoding",
            38: "'<' is not allowed in an attribute value",
            39: "attribute value is not quoted",
            40: "attribute value is not closed",
            41: "attribute has no value",
            42: "attribute appears twice on one element",
            45: "comment is not closed",
            63: "CDATA section is not closed",
            68: "a name was expected",
            73: "'>' expected",
            76: "closing tag does not match the open element",
            77: "premature end of data: a tag is not finished",
            85: "document is not well balanced",
            86: "extra content at the end of the document",
            108: "unsupported XML version in the XML declaration",
        ]
        return (known[code] ?? "XML error") + " (libxml2 code \(code))"
    }
}

/// The `XMLParser` delegate: builds the tree, counts depth, balances tags, records the first error.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    let maxDepth: Int
    var stack: [ElementNode] = []
    var root: ElementNode?
    var failure: VASTParseError?

    /// libxml2 warning codes: XML_WAR_CATALOG_PI, _UNKNOWN_VERSION, _LANG_VALUE, _NS_URI,
    /// _NS_URI_RELATIVE, _SPACE_VALUE, _NS_COLUMN.
    static let libxmlWarnings: Set<Int> = [93, 97, 98, 99, 100, 102, 106]

    init(maxDepth: Int) { self.maxDepth = maxDepth }

    private func fail(_ error: VASTParseError, _ parser: XMLParser) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        let line = max(parser.lineNumber, 0)
        if root != nil && stack.isEmpty {
            fail(
                .malformedXML(
                    reason: "a second root element <\(elementName)> follows the first", line: line, column: nil), parser
            )
            return
        }
        if stack.count >= maxDepth {
            fail(.tooDeep(limit: maxDepth, element: elementName, line: line), parser)
            return
        }
        // XMLParser hands attributes over as a dictionary; sort for a deterministic order.
        let attributes = attributeDict.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        stack.append(ElementNode(qualifiedName: elementName, attributes: attributes, line: line))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard failure == nil else { return }
        guard let node = stack.popLast(), node.qualifiedName == elementName else {
            fail(
                .malformedXML(
                    reason: "closing tag </\(elementName)> does not match the open element", line: parser.lineNumber,
                    column: nil), parser)
            return
        }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].content.append(.element(node))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, !stack.isEmpty else { return }
        let last = stack.count - 1
        if case .text(let previous)? = stack[last].content.last {
            stack[last].content[stack[last].content.count - 1] = .text(previous + string)
        } else {
            stack[last].content.append(.text(string))
        }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard failure == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].content.append(.cdata(String(decoding: CDATABlock, as: UTF8.self)))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        let code = (parseError as NSError).code
        // 200..<300 are libxml2 namespace errors (undeclared prefixes such as `vmap:` or `xsi:`),
        // and a few codes are warnings (relative namespace URI, XML version 1.1...): neither breaks
        // well-formedness, and both are common in real responses. Everything else is fatal.
        if (200..<300).contains(code) || TreeBuilder.libxmlWarnings.contains(code) { return }
        fail(
            .malformedXML(
                reason: SafeXMLReader.describe(libxmlCode: code), line: parser.lineNumber > 0 ? parser.lineNumber : nil,
                column: parser.columnNumber > 0 ? parser.columnNumber : nil), parser)
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {}

    // Defence in depth: the pre-scan already refuses DTDs, but never accept an entity declaration.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(.forbiddenDeclaration("ENTITY", line: parser.lineNumber), parser)
    }

    func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {
        fail(.forbiddenDeclaration("ENTITY", line: parser.lineNumber), parser)
    }

    // With no DTD allowed, the only entities that reach here are undeclared references such as `&nbsp;`.
    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(
            .malformedXML(
                reason:
                    "undeclared entity &\(name); (only &amp; &lt; &gt; &quot; &apos; and character references are allowed)",
                line: parser.lineNumber > 0 ? parser.lineNumber : nil, column: nil), parser)
        return nil
    }
}
