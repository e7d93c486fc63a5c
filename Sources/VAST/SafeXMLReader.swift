import Foundation
import XMLSyntax

/// Reads bytes into an ``ElementNode`` tree, refusing hostile input before and while parsing.
///
/// Defences, in order: a size limit; an encoding check (only ASCII-compatible encodings, read as
/// UTF-8 after transcoding a declared single-byte one); then `XMLTokenizer`, which refuses any
/// `<!DOCTYPE` or `<!ENTITY` wherever it is, naming the line (no DTD means no entity expansion, no
/// billion laughs, no external entities), any entity but XML's five, bytes that are not UTF-8 and
/// nesting past the depth limit, and checks that every element is closed by its own name. No
/// namespace processing: undeclared prefixes such as `vmap:` or `xsi:` are common, and elements
/// are matched by local name.
struct SafeXMLReader {
    var options: VASTParsingOptions

    func read(_ bytes: [UInt8]) throws(VASTParseError) -> ElementNode {
        guard bytes.count <= options.maxInputBytes else {
            throw .inputTooLarge(size: bytes.count, limit: options.maxInputBytes)
        }
        let declaredEncoding = try SafeXMLReader.prescan(bytes)
        let input = try SafeXMLReader.utf8(bytes, declaredEncoding: declaredEncoding)
        let maxDepth = min(options.maxElementDepth, VASTParsingOptions.depthCeiling)
        var tokenizer = XMLTokenizer(bytes: input, maxDepth: maxDepth, documentName: "a VAST response")
        do {
            return try SafeXMLReader.tree(from: &tokenizer)
        } catch {
            switch error.kind {
            case .emptyInput: throw .emptyInput
            case .tooDeep(let element): throw .tooDeep(limit: maxDepth, element: element, line: error.line)
            case .forbiddenDeclaration(let kind): throw .forbiddenDeclaration(kind, line: error.line)
            case .malformed: throw .malformedXML(reason: error.reason, line: error.line, column: error.column)
            }
        }
    }

    /// The elements with their text and CDATA; comments and processing instructions are dropped,
    /// and text a comment splits is joined again.
    private static func tree(from tokenizer: inout XMLTokenizer) throws(XMLSyntaxError) -> ElementNode {
        var stack: [ElementNode] = []
        var root: ElementNode?
        func close(_ node: ElementNode) {
            if stack.isEmpty { root = node } else { stack[stack.count - 1].content.append(.element(node)) }
        }
        while let token = try tokenizer.next() {
            switch token {
            case .startElement(let name, let attributes, let isEmpty, let line):
                let node = ElementNode(qualifiedName: name, attributes: attributes, line: line)
                if isEmpty { close(node) } else { stack.append(node) }
            case .endElement:
                close(stack.removeLast())
            case .text(let text):
                guard !stack.isEmpty else { continue }
                let last = stack.count - 1
                if case .text(let previous)? = stack[last].content.last {
                    stack[last].content[stack[last].content.count - 1] = .text(previous + text)
                } else {
                    stack[last].content.append(.text(text))
                }
            case .cdata(let text):
                if !stack.isEmpty { stack[stack.count - 1].content.append(.cdata(text)) }
            case .declaration, .comment, .processingInstruction:
                continue
            }
        }
        guard let root else { throw tokenizer.fail("no root element found") }
        return root
    }

    // MARK: - Encodings

    /// The input as UTF-8: as it is when it is UTF-8 (declared or valid), transcoded from a
    /// declared single-byte encoding, and read as ISO-8859-1 when undeclared and not valid UTF-8
    /// (ad servers sometimes send Latin-1 without saying so; every byte is a Latin-1 character).
    static func utf8(_ bytes: [UInt8], declaredEncoding: String?) throws(VASTParseError) -> [UInt8] {
        // A UTF-8 byte order mark says UTF-8 whatever the declaration says (as libxml2 reads it).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return bytes }
        guard let declared = declaredEncoding?.lowercased() else {
            if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil { return bytes }
            return latin1(bytes) { _ in nil }
        }
        switch declared {
        case "utf-8", "utf8", "us-ascii", "ascii":
            return bytes
        case "iso-8859-1", "latin1", "iso-latin-1":
            return latin1(bytes) { _ in nil }
        case "iso-8859-15":
            // Latin-9: Latin-1 with eight characters replaced (the euro sign among them).
            return latin1(bytes) { latin9[$0] }
        default:
            let encoding: String.Encoding =
                switch declared {
                case "iso-8859-2": .isoLatin2
                case "windows-1250": .windowsCP1250
                case "windows-1251": .windowsCP1251
                default: .windowsCP1252
                }
            guard let text = String(bytes: bytes, encoding: encoding) else {
                throw .malformedXML(
                    reason: "bytes that are not \(declared), the encoding the XML declaration names", line: nil,
                    column: nil)
            }
            return Array(text.utf8)
        }
    }

    private static let latin9: [UInt8: Unicode.Scalar] = [
        0xA4: "\u{20AC}", 0xA6: "\u{160}", 0xA8: "\u{161}", 0xB4: "\u{17D}", 0xB8: "\u{17E}", 0xBC: "\u{152}",
        0xBD: "\u{153}", 0xBE: "\u{178}",
    ]

    /// Each byte as the Unicode character of the same number, unless `replacement` says otherwise.
    private static func latin1(_ bytes: [UInt8], replacement: (UInt8) -> Unicode.Scalar?) -> [UInt8] {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            scalars.append(byte < 0x80 ? Unicode.Scalar(byte) : replacement(byte) ?? Unicode.Scalar(byte))
        }
        return Array(String(scalars).utf8)
    }

    // MARK: - Pre-scan

    /// Refuses input that is not in an ASCII-compatible encoding, or does not start with markup,
    /// with words for each; returns the encoding the XML declaration names, if any. Document type
    /// and entity declarations are refused by the tokenizer wherever they are.
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
        return try checkDeclaredEncoding(bytes, from: first)
    }

    /// Encodings that are ASCII supersets with one byte per character, so that the markup reads
    /// the same before and after transcoding.
    private static let allowedEncodings: Set<String> = [
        "utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1", "iso-latin-1", "iso-8859-2", "iso-8859-15",
        "windows-1250", "windows-1251", "windows-1252", "cp1252",
    ]

    private static func checkDeclaredEncoding(_ bytes: [UInt8], from start: Int) throws(VASTParseError) -> String? {
        guard bytes[start...].starts(with: "<?xml".utf8) else { return nil }
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
}
