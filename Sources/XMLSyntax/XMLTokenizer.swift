/// Reads UTF-8 XML one piece at a time, checking as it goes what Seam needs of every document it
/// reads, MPDs and VAST responses alike: one root; every element closed by its own name; quoted
/// attribute values, none twice on an element; no document type declaration or entity
/// declaration anywhere (so no entity is expanded or fetched, whatever the input); only XML's
/// five entities and character references; UTF-8 without the control characters XML forbids;
/// nesting no deeper than a limit. It is more lenient than a validating parser where real
/// documents are sloppy and nothing is at stake (a `]]>` in text, `--` in a comment, what
/// bytes a name holds). Each format builds its own tree from the tokens, and neither needs
/// libxml2 (whose Foundation wrapper cost a VAST answer most of its reading time, and whose
/// attribute dictionary loses the order an MPD round trip keeps).
///
/// A pull tokenizer rather than callbacks: the owner asks for the next token and keeps its own
/// stack, so nothing is generic or escaping and the loop stays in one function.
package struct XMLTokenizer {
    private let bytes: [UInt8]
    private let maxDepth: Int
    /// How messages name the document ("an MPD", "a VAST response").
    private let documentName: String
    private var index = 0
    /// Names of the open elements, outermost first.
    private var open: [String] = []
    private var sawRoot = false
    private var started = false
    /// Newlines counted up to `lineCountedTo`, for the line of each start tag without a rescan.
    private var linesBefore = 1
    private var lineCountedTo = 0

    package init(bytes: [UInt8], maxDepth: Int, documentName: String) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.documentName = documentName
    }

    /// How many elements are open after the last token (0 before the root and after it).
    package var depth: Int { open.count }

    /// The next token, nil at the end of a complete document.
    package mutating func next() throws(XMLSyntaxError) -> XMLToken? {
        if !started { return try start() }
        if open.isEmpty { return try outside() }
        return try inside()
    }

    // MARK: Document level

    private mutating func start() throws(XMLSyntaxError) -> XMLToken? {
        started = true
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw fail("UTF-16 is not read; serve \(documentName) as UTF-8")
        }
        skipSpace()
        guard index < bytes.count else { throw XMLSyntaxError(kind: .emptyInput, reason: "the document is empty") }
        if starts(with: "<?xml"), index + 5 < bytes.count, Self.isSpace(bytes[index + 5]) {
            return try declaration()
        }
        return try outside()
    }

    /// Before and after the root: comments, processing instructions and space.
    private mutating func outside() throws(XMLSyntaxError) -> XMLToken? {
        skipSpace()
        guard index < bytes.count else {
            guard sawRoot else { throw fail("no root element") }
            return nil
        }
        if starts(with: "<!--") { return try comment() }
        if starts(with: "<?") { return try processingInstruction() }
        if let declaration = forbiddenDeclaration() { throw declaration }
        if starts(with: "<") {
            guard !sawRoot else { throw fail("a second root element; \(documentName) has one") }
            sawRoot = true
            return try startTag()
        }
        throw fail("text outside the root element")
    }

    private mutating func declaration() throws(XMLSyntaxError) -> XMLToken {
        let start = index
        guard let end = find("?>", from: index) else { throw fail("the XML declaration is not closed with ?>") }
        var encoding: String?
        if let name = find("encoding", from: start), name < end {
            var at = name + 8
            while at < end, bytes[at] == UInt8(ascii: " ") || bytes[at] == UInt8(ascii: "=") || bytes[at] == 0x09 {
                at += 1
            }
            if at < end, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") {
                let quote = bytes[at]
                let value = bytes[(at + 1)..<end].prefix { $0 != quote }
                encoding = String(decoding: value, as: UTF8.self).lowercased()
            }
        }
        index = end + 2
        return .declaration(encoding: encoding)
    }

    /// The error for a `<!DOCTYPE` or `<!ENTITY` here, in any case of letters; nil for anything
    /// else. Neither is ever read: no entity is expanded, none is fetched.
    private func forbiddenDeclaration() -> XMLSyntaxError? {
        for (keyword, what) in [("DOCTYPE", "a document type declaration"), ("ENTITY", "an entity declaration")] {
            let word = keyword.utf8
            guard index + 2 + word.count <= bytes.count, bytes[index] == UInt8(ascii: "<"),
                bytes[index + 1] == UInt8(ascii: "!"),
                zip(bytes[(index + 2)...], word).allSatisfy({ $0 & 0xDF == $1 })
            else { continue }
            return fail(
                "\(what) (<!\(keyword)>) is refused: \(documentName) needs none",
                kind: .forbiddenDeclaration(keyword))
        }
        return nil
    }

    // MARK: Inside the root

    private mutating func inside() throws(XMLSyntaxError) -> XMLToken {
        guard index < bytes.count else {
            throw fail("<\(open[open.count - 1])> is never closed with </\(open[open.count - 1])>")
        }
        if bytes[index] != UInt8(ascii: "<") {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            return .text(try resolve(start..<index, attribute: false))
        }
        if starts(with: "</") {
            index += 2
            let name = try self.name()
            let expected = open[open.count - 1]
            guard name == expected else { throw fail("</\(name)> closes <\(expected)>") }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                throw fail("expected > after </\(name)")
            }
            index += 1
            open.removeLast()
            return .endElement(name: name)
        }
        if starts(with: "<!--") { return try comment() }
        if starts(with: "<![CDATA[") {
            return .cdata(try enclosed(openerLength: 9, closer: "]]>", what: "a CDATA section"))
        }
        if starts(with: "<?") { return try processingInstruction() }
        if starts(with: "<!") {
            throw forbiddenDeclaration()
                ?? fail("a declaration (<!…>) inside <\(open[open.count - 1])> is refused")
        }
        return try startTag()
    }

    private mutating func startTag() throws(XMLSyntaxError) -> XMLToken {
        let line = self.line(at: index)
        index += 1  // <
        let name = try self.name()
        guard open.count < maxDepth else {
            throw XMLSyntaxError(
                kind: .tooDeep(element: name), reason: "elements nest deeper than \(maxDepth) levels", line: line,
                column: position(at: index).column)
        }
        var attributes: [(name: String, value: String)] = []
        var seen: Set<String>?
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw fail("<\(name)> is not closed") }
            if bytes[index] == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw fail("expected /> to close <\(name)>")
                }
                index += 2
                return .startElement(name: name, attributes: attributes, isEmpty: true, line: line)
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                open.append(name)
                return .startElement(name: name, attributes: attributes, isEmpty: false, line: line)
            }
            guard hadSpace else { throw fail("expected a space before the attributes of <\(name)>") }
            let attribute = try self.name()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw fail("attribute \(attribute) of <\(name)> has no value (write \(attribute)=\"…\")")
            }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw fail("the value of \(attribute) on <\(name)> is not quoted")
            }
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "<") { throw fail("'<' in the value of \(attribute) on <\(name)>") }
                index += 1
            }
            guard index < bytes.count else { throw fail("the value of \(attribute) on <\(name)> is not closed") }
            let value = try resolve(start..<index, attribute: true)
            index += 1
            // A set once there are many, so that a start tag of a hundred thousand attributes costs
            // no more than their reading.
            let repeated =
                seen != nil
                ? seen?.insert(attribute).inserted == false : attributes.contains { $0.name == attribute }
            guard !repeated else { throw fail("attribute \(attribute) appears twice on <\(name)>") }
            attributes.append((attribute, value))
            if seen == nil, attributes.count == 16 { seen = Set(attributes.map(\.name)) }
        }
    }

    private mutating func comment() throws(XMLSyntaxError) -> XMLToken {
        .comment(try enclosed(openerLength: 4, closer: "-->", what: "a comment"))
    }

    private mutating func processingInstruction() throws(XMLSyntaxError) -> XMLToken {
        .processingInstruction(try enclosed(openerLength: 2, closer: "?>", what: "a processing instruction"))
    }

    /// What lies between the opener at the current place and the next `closer` (comments,
    /// processing instructions, CDATA: no references, line breaks read as XML says); moves past it.
    private mutating func enclosed(
        openerLength: Int, closer: StaticString, what: String
    ) throws(XMLSyntaxError) -> String {
        index += openerLength
        guard let end = find(closer, from: index) else { throw fail("\(what) is not closed with \(closer)") }
        let text = try characters(index..<end, references: false)
        index = end + closer.utf8CodeUnitCount
        return text
    }

    /// A name: letters, digits and `_ : . -` (any byte of a multi-byte UTF-8 character too), not
    /// starting with a digit, `.` or `-`.
    private mutating func name() throws(XMLSyntaxError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start else { throw fail("expected a name") }
        let first = bytes[start]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39) {
            throw fail("a name may not start with '\(Character(Unicode.Scalar(first)))'")
        }
        return try characters(start..<index, references: false)
    }

    // MARK: Character data

    /// The bytes of `range` as text, references resolved; in an attribute value, tabs and line
    /// breaks become spaces (XML's attribute-value normalization).
    private func resolve(_ range: Range<Int>, attribute: Bool) throws(XMLSyntaxError) -> String {
        try characters(range, references: true, attribute: attribute)
    }

    /// The bytes of `range` as a string, as XML reads them: line breaks normalized (CR LF and a
    /// lone CR are one LF; in an attribute value each tab and line break is a space),
    /// references resolved when `references`, refused when they are not UTF-8 or hold a control
    /// character XML does not allow.
    private func characters(
        _ range: Range<Int>, references: Bool, attribute: Bool = false
    ) throws(XMLSyntaxError) -> String {
        // One pass decides whether the bytes can be taken as they are (the usual case: ASCII
        // without references or CRs), and refuses the control characters XML forbids.
        var rewrite = false
        var ascii = true
        for at in range {
            let byte = bytes[at]
            if byte >= 0x80 {
                ascii = false
            } else if byte < 0x20 {
                switch byte {
                case 0x0D: rewrite = true
                case 0x09, 0x0A: rewrite = rewrite || attribute
                default:
                    throw fail(
                        "control character 0x\(String(byte, radix: 16, uppercase: true)) is not allowed in XML", at: at)
                }
            } else if byte == UInt8(ascii: "&"), references {
                rewrite = true
            }
        }
        if !rewrite {
            let string = bytes.withUnsafeBufferPointer { buffer -> String? in
                // Decoding a buffer is not generic; the validating initializer looks up a generic
                // type's metadata on every call, so ASCII skips it.
                let slice = UnsafeBufferPointer(rebasing: buffer[range])
                return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
            }
            guard let string else { throw fail("bytes that are not UTF-8", at: range.lowerBound) }
            return string
        }
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var at = range.lowerBound
        while at < range.upperBound {
            let byte = bytes[at]
            if byte == UInt8(ascii: "&"), references {
                guard let semicolon = bytes[at..<range.upperBound].firstIndex(of: UInt8(ascii: ";")),
                    semicolon - at <= 12
                else { throw fail("'&' must start a reference such as &amp;", at: at) }
                let name = String(decoding: bytes[(at + 1)..<semicolon], as: UTF8.self)
                output += Array(try reference(name, at: at).utf8)
                at = semicolon + 1
                continue
            }
            let pairedWithLF = byte == 0x0D && at + 1 < range.upperBound && bytes[at + 1] == 0x0A
            if byte == 0x0D, pairedWithLF {
                // The LF that follows stands for both.
            } else if attribute, byte == 0x09 || byte == 0x0A || byte == 0x0D {
                output.append(0x20)
            } else {
                output.append(byte == 0x0D ? 0x0A : byte)
            }
            at += 1
        }
        guard let string = String(validating: output, as: UTF8.self) else {
            throw fail("bytes that are not UTF-8", at: range.lowerBound)
        }
        return string
    }

    private func reference(_ name: String, at: Int) throws(XMLSyntaxError) -> String {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            var digits = name.utf8.dropFirst()
            guard name.utf8.first == UInt8(ascii: "#") else {
                throw fail(
                    "undeclared entity &\(name); (only &lt; &gt; &amp; &quot; &apos; and character references are read)",
                    at: at)
            }
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            let isDigit: (UInt8) -> Bool = { byte in
                (byte >= 0x30 && byte <= 0x39) || (radix == 16 && (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66))
            }
            guard !digits.isEmpty, digits.allSatisfy(isDigit),
                let value = UInt32(String(decoding: digits, as: UTF8.self), radix: Int(radix)),
                let scalar = Unicode.Scalar(value),
                value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value != 0xFFFE && value != 0xFFFF)
            else { throw fail("&\(name); is not a character XML allows", at: at) }
            return String(Character(scalar))
        }
    }

    // MARK: Helpers

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { buffer in
            for offset in 0..<count where bytes[index + offset] != buffer[offset] { return false }
            return true
        }
    }

    private func find(_ marker: StaticString, from start: Int) -> Int? {
        marker.withUTF8Buffer { needle -> Int? in
            guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
            var at = start
            while at + needle.count <= bytes.count {
                if bytes[at] == needle[0] {
                    var matched = true
                    for offset in 1..<needle.count where bytes[at + offset] != needle[offset] {
                        matched = false
                        break
                    }
                    if matched { return at }
                }
                at += 1
            }
            return nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte >= 0x80
    }

    /// The 1-based line of `offset`, counting on from the last line asked for (start tags come in
    /// document order, so the whole document is counted once).
    private mutating func line(at offset: Int) -> Int {
        if offset < lineCountedTo {
            linesBefore = 1
            lineCountedTo = 0
        }
        for byte in bytes[lineCountedTo..<offset] where byte == 0x0A { linesBefore += 1 }
        lineCountedTo = offset
        return linesBefore
    }

    private func position(at offset: Int) -> (line: Int, column: Int) {
        let end = min(offset, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<end] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// An error at `offset` (the current place when nil), with its line and column.
    package func fail(
        _ reason: String, at offset: Int? = nil, kind: XMLSyntaxError.Kind = .malformed
    ) -> XMLSyntaxError {
        let (line, column) = position(at: offset ?? index)
        return XMLSyntaxError(kind: kind, reason: reason, line: line, column: column)
    }
}
