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
    /// Attribute names without prefixes, parallel to ``attributes``.
    private let attributeLocalNames: [String]
    var content: [Content]
    /// The 1-based line of the start tag, 0 when unknown.
    var line: Int

    init(qualifiedName: String, attributes: [(name: String, value: String)], line: Int) {
        self.qualifiedName = qualifiedName
        self.localName = ElementNode.localPart(of: qualifiedName)
        self.attributes = attributes
        self.attributeLocalNames = attributes.map { ElementNode.localPart(of: $0.name) }
        self.content = []
        self.line = line
    }

    static func == (lhs: ElementNode, rhs: ElementNode) -> Bool {
        lhs.qualifiedName == rhs.qualifiedName && lhs.line == rhs.line && lhs.content == rhs.content
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    static func localPart(of name: String) -> String {
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
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
        for (index, localName) in attributeLocalNames.enumerated() where localName.caseInsensitiveEquals(name) {
            return attributes[index].value
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
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Names and keywords in VAST are ASCII; compare ASCII case-insensitively without Foundation.
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }
}
