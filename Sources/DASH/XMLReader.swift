/// Reads UTF-8 XML into an `XMLDocument`, refusing what an MPD never needs and an attacker would
/// use: a document type declaration (so no entity expansion, no external entity), references
/// other than XML's five predefined entities and character references, encodings other than
/// UTF-8, input over a size limit, and nesting over a depth limit. Its own parser (no libxml2):
/// attribute order survives, which an MPD round trip needs, and there is nothing to configure
/// safely.
public struct XMLReader: Sendable {
    /// Largest document read, bytes.
    public var maxBytes: Int
    /// Deepest nesting of elements.
    public var maxDepth: Int

    public init(maxBytes: Int = 8 * 1024 * 1024, maxDepth: Int = 64) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    public func read(_ bytes: [UInt8]) throws(DASHParseError) -> XMLDocument {
        guard bytes.count <= maxBytes else { throw .inputTooLarge(size: bytes.count, limit: maxBytes) }
        var scanner = Scanner(bytes: bytes, maxDepth: maxDepth)
        return try scanner.document()
    }

    public func read(_ text: String) throws(DASHParseError) -> XMLDocument {
        try read(Array(text.utf8))
    }
}

private struct Scanner {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: Document

    mutating func document() throws(DASHParseError) -> XMLDocument {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw fail("UTF-16 is not read; serve the MPD as UTF-8")
        }
        skipSpace()
        guard index < bytes.count else { throw .emptyInput }
        var hasDeclaration = false
        if starts(with: "<?xml"), index + 5 < bytes.count, Self.isSpace(bytes[index + 5]) {
            try declaration()
            hasDeclaration = true
        }
        var prolog: [XMLNode] = []
        var root: XMLElement?
        var epilog: [XMLNode] = []
        while true {
            skipSpace()
            guard index < bytes.count else { break }
            if starts(with: "<!--") {
                let node = try comment()
                if root == nil { prolog.append(node) } else { epilog.append(node) }
            } else if starts(with: "<?") {
                let node = try processingInstruction()
                if root == nil { prolog.append(node) } else { epilog.append(node) }
            } else if starts(with: "<!DOCTYPE") || starts(with: "<!doctype") {
                throw fail("a document type declaration (<!DOCTYPE>) is refused: an MPD needs none")
            } else if starts(with: "<") {
                guard root == nil else { throw fail("a second root element; an MPD has one <MPD>") }
                root = try element(depth: 1)
            } else {
                throw fail("text outside the root element")
            }
        }
        guard let root else { throw fail("no root element") }
        return XMLDocument(hasDeclaration: hasDeclaration, prolog: prolog, root: root, epilog: epilog)
    }

    mutating func declaration() throws(DASHParseError) {
        let start = index
        guard let end = find("?>", from: index) else { throw fail("the XML declaration is not closed with ?>") }
        let text = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
        if let range = text.firstRange(of: "encoding") {
            let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
            let quote = rest.first
            let value = rest.dropFirst().prefix { $0 != quote }
            if value != "utf-8" && value != "us-ascii" && value != "ascii" {
                throw fail("encoding \"\(value)\" is not read; serve the MPD as UTF-8")
            }
        }
        index = end + 2
    }

    // MARK: Markup

    mutating func comment() throws(DASHParseError) -> XMLNode {
        index += 4
        guard let end = find("-->", from: index) else { throw fail("a comment is not closed with -->") }
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end + 3
        return .comment(text)
    }

    mutating func processingInstruction() throws(DASHParseError) -> XMLNode {
        index += 2
        guard let end = find("?>", from: index) else { throw fail("a processing instruction is not closed with ?>") }
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end + 2
        return .processingInstruction(text)
    }

    mutating func element(depth: Int) throws(DASHParseError) -> XMLElement {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth, line: position().line) }
        index += 1  // <
        let name = try self.name()
        var element = XMLElement(name: name)
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw fail("<\(name)> is not closed") }
            if bytes[index] == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw fail("expected /> to close <\(name)>")
                }
                index += 2
                return element
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
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
            guard element[attribute: attribute] == nil else {
                throw fail("attribute \(attribute) appears twice on <\(name)>")
            }
            element.attributes.append(XMLAttribute(name: attribute, value: value))
        }
        // Content, up to the matching end tag.
        while true {
            guard index < bytes.count else { throw fail("<\(name)> is never closed with </\(name)>") }
            if bytes[index] != UInt8(ascii: "<") {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                element.children.append(.text(try resolve(start..<index, attribute: false)))
            } else if starts(with: "</") {
                index += 2
                let closing = try self.name()
                guard closing == name else { throw fail("</\(closing)> closes <\(name)>") }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                    throw fail("expected > after </\(closing)")
                }
                index += 1
                return element
            } else if starts(with: "<!--") {
                element.children.append(try comment())
            } else if starts(with: "<![CDATA[") {
                index += 9
                guard let end = find("]]>", from: index) else { throw fail("a CDATA section is not closed with ]]>") }
                element.children.append(.cdata(String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end + 3
            } else if starts(with: "<?") {
                element.children.append(try processingInstruction())
            } else if starts(with: "<!") {
                throw fail("a declaration (<!…>) inside <\(name)> is refused")
            } else {
                element.children.append(.element(try self.element(depth: depth + 1)))
            }
        }
    }

    /// A name: letters, digits and `_ : . -` (any byte of a multi-byte UTF-8 character too), not
    /// starting with a digit, `.` or `-`.
    mutating func name() throws(DASHParseError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start else { throw fail("expected a name") }
        let first = bytes[start]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39) {
            throw fail("a name may not start with '\(Character(Unicode.Scalar(first)))'")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: Character data

    /// The bytes of `range` as text, references resolved; in an attribute value, tabs and line
    /// breaks become spaces (XML's attribute-value normalization).
    func resolve(_ range: Range<Int>, attribute: Bool) throws(DASHParseError) -> String {
        guard bytes[range].contains(where: { $0 == UInt8(ascii: "&") || (attribute && $0 < 0x20) }) else {
            return try text(range)
        }
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var at = range.lowerBound
        while at < range.upperBound {
            let byte = bytes[at]
            if byte == UInt8(ascii: "&") {
                guard let semicolon = bytes[at..<range.upperBound].firstIndex(of: UInt8(ascii: ";")),
                    semicolon - at <= 12
                else { throw fail("'&' must start a reference such as &amp;", at: at) }
                let name = String(decoding: bytes[(at + 1)..<semicolon], as: UTF8.self)
                output += Array(try reference(name, at: at).utf8)
                at = semicolon + 1
                continue
            }
            if attribute, byte == 0x09 || byte == 0x0A || byte == 0x0D {
                // A CR LF pair is one line break, so one space.
                if !(byte == 0x0A && at > range.lowerBound && bytes[at - 1] == 0x0D) { output.append(0x20) }
            } else {
                output.append(byte)
            }
            at += 1
        }
        guard let string = String(validating: output, as: UTF8.self) else {
            throw fail("bytes that are not UTF-8", at: range.lowerBound)
        }
        return string
    }

    func text(_ range: Range<Int>) throws(DASHParseError) -> String {
        guard let string = String(validating: bytes[range], as: UTF8.self) else {
            throw fail("bytes that are not UTF-8", at: range.lowerBound)
        }
        return string
    }

    func reference(_ name: String, at: Int) throws(DASHParseError) -> String {
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
                    "entity &\(name); is not XML's own; only &lt; &gt; &amp; &quot; &apos; and &#…; are read", at: at)
            }
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: Int(radix)),
                let scalar = Unicode.Scalar(value), value == 0x9 || value == 0xA || value == 0xD || value >= 0x20
            else { throw fail("&\(name); is not a character XML allows", at: at) }
            return String(Character(scalar))
        }
    }

    // MARK: Helpers

    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { buffer in
            for offset in 0..<count where bytes[index + offset] != buffer[offset] { return false }
            return true
        }
    }

    func find(_ marker: StaticString, from start: Int) -> Int? {
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

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte >= 0x80
    }

    func position(at offset: Int? = nil) -> (line: Int, column: Int) {
        let end = min(offset ?? index, bytes.count)
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

    func fail(_ reason: String, at offset: Int? = nil) -> DASHParseError {
        let (line, column) = position(at: offset)
        return .malformedXML(reason: reason, line: line, column: column)
    }
}
