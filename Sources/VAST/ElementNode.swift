import Foundation

/// A minimal, immutable XML element tree built by ``SafeXMLReader``.
///
/// Names are kept as written (with any prefix) for faithful re-serialisation, and matched by local
/// name, case-insensitively, because real ad servers vary both prefixes and capitalisation.
struct ElementNode: Sendable, Equatable {
    enum Content: Sendable, Equatable {
        case text(String)
        case cdata(String)
        case element(ElementNode)
    }

    /// The name as written, e.g. `vmap:AdBreak`.
    var qualifiedName: String
    /// The name without its namespace prefix, computed once: lookups by name are the hot path.
    let localName: String
    /// Attributes, names as written.
    var attributes: [(name: String, value: String)]
    var content: [Content]
    /// The 1-based line of the start tag, 0 when unknown.
    var line: Int

    init(qualifiedName: String, attributes: [(name: String, value: String)], line: Int) {
        self.qualifiedName = qualifiedName
        self.localName = ElementNode.localPart(of: qualifiedName)
        self.attributes = attributes
        self.content = []
        self.line = line
    }

    static func == (lhs: ElementNode, rhs: ElementNode) -> Bool {
        lhs.qualifiedName == rhs.qualifiedName && lhs.line == rhs.line && lhs.content == rhs.content
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    static func localPart(of name: String) -> String {
        // By UTF-8 code unit: a search by `Character` costs more than the rest of reading a name.
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[name.utf8.index(after: colon)...])
    }

    /// Whether the local name equals `name`, ignoring case.
    func isNamed(_ name: String) -> Bool {
        localName.caseInsensitiveEquals(name)
    }

    /// Child elements in document order.
    var children: [ElementNode] {
        content.compactMap { if case .element(let child) = $0 { return child } else { return nil } }
    }

    /// Child elements whose local name equals `name`, ignoring case.
    func children(named name: String) -> [ElementNode] {
        var result: [ElementNode] = []
        for case .element(let child) in content where child.isNamed(name) { result.append(child) }
        return result
    }

    /// The first child element whose local name equals `name`, ignoring case.
    func child(named name: String) -> ElementNode? {
        for case .element(let child) in content where child.isNamed(name) { return child }
        return nil
    }

    /// The value of the attribute whose local name equals `name`, ignoring case.
    func attribute(_ name: String) -> String? {
        // The attribute as named without a prefix first, so that `type` wins over `xsi:type`
        // wherever each is written.
        for attribute in attributes where attribute.name.caseInsensitiveEquals(name) { return attribute.value }
        for attribute in attributes where attribute.name.localPartCaseInsensitiveEquals(name) {
            return attribute.value
        }
        return nil
    }

    /// The attribute value with surrounding whitespace removed, nil when absent or blank.
    func trimmedAttribute(_ name: String) -> String? {
        guard let value = attribute(name)?.trimmingXMLWhitespace(), !value.isEmpty else { return nil }
        return value
    }

    /// The element's own text and CDATA, concatenated (child elements' text is not included).
    var text: String {
        var result = ""
        for item in content {
            switch item {
            case .text(let text), .cdata(let text): result += text
            case .element: break
            }
        }
        return result
    }

    /// ``text`` without surrounding whitespace, nil when nothing is left.
    var trimmedText: String? {
        let value = text.trimmingXMLWhitespace()
        return value.isEmpty ? nil : value
    }

    /// The element's content serialised as XML (text escaped, CDATA kept as CDATA).
    var innerXML: String {
        var out = ""
        for item in content { ElementNode.write(item, to: &out) }
        return out
    }

    /// The element serialised as XML, start and end tags included.
    var outerXML: String {
        var out = ""
        ElementNode.write(.element(self), to: &out)
        return out
    }

    private static func write(_ item: Content, to out: inout String) {
        switch item {
        case .text(let text):
            out += escape(text, quotes: false)
        case .cdata(let text):
            // A CDATA section cannot contain "]]>"; split it the standard way.
            out += "<![CDATA[" + text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>"
        case .element(let node):
            out += "<" + node.qualifiedName
            for attribute in node.attributes {
                out += " " + attribute.name + "=\"" + escape(attribute.value, quotes: true) + "\""
            }
            if node.content.isEmpty {
                out += "/>"
            } else {
                out += ">"
                for child in node.content { write(child, to: &out) }
                out += "</" + node.qualifiedName + ">"
            }
        }
    }

    private static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "\n" where quotes: out += "&#10;"
            case "\t" where quotes: out += "&#9;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// Removes XML whitespace (space, tab, CR, LF) and other Unicode whitespace at both ends.
    func trimmingXMLWhitespace() -> String {
        // Most values are ASCII with ASCII ends: trim those by code unit, and ask Unicode only
        // when an end is not ASCII.
        let bytes = utf8
        let first = bytes.firstIndex { $0 >= 0x80 || !(($0 >= 0x09 && $0 <= 0x0D) || $0 == 0x20) }
        guard let first else { return "" }
        let last = bytes.lastIndex { $0 >= 0x80 || !(($0 >= 0x09 && $0 <= 0x0D) || $0 == 0x20) } ?? first
        if bytes[first] < 0x80 && bytes[last] < 0x80 {
            return first == bytes.startIndex && last == bytes.index(before: bytes.endIndex)
                ? self : String(self[first...last])
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return localPartCaseInsensitiveEquals(other, afterColon: false)
    }

    /// Whether the part after the last `:` (all of it when there is none) equals `other`,
    /// ignoring ASCII case: how attributes are found, without making a string of the local part.
    func localPartCaseInsensitiveEquals(_ other: String, afterColon: Bool = true) -> Bool {
        // Names and keywords in VAST are ASCII; compare ASCII case-insensitively, byte by byte
        // over both strings' UTF-8 storage.
        var name = self
        var other = other
        return name.withUTF8 { name in
            other.withUTF8 { other in
                var start = 0
                if afterColon, let colon = name.lastIndex(of: UInt8(ascii: ":")) { start = colon + 1 }
                guard name.count - start == other.count else { return false }
                for offset in 0..<other.count {
                    let x = name[start + offset]
                    let y = other[offset]
                    if x != y, x | 0x20 != y | 0x20 || !((x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) { return false }
                }
                return true
            }
        }
    }
}
