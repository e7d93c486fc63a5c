/// Writes an `XMLDocument` back as UTF-8 text: elements and attributes in their order, text and
/// comments where they were, values escaped so that reading the output gives the same document
/// (`XMLReader` then `XMLWriter` then `XMLReader` is the identity on the tree). Attribute values
/// are double-quoted; an element without children is written `<Name/>`.
public enum XMLWriter {
    public static func write(_ document: XMLDocument) -> String {
        var output = ""
        output.reserveCapacity(4096)
        if document.hasDeclaration { output += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" }
        for node in document.prolog {
            write(node, into: &output)
            output += "\n"
        }
        write(document.root, into: &output)
        for node in document.epilog {
            output += "\n"
            write(node, into: &output)
        }
        output += "\n"
        return output
    }

    public static func write(_ element: XMLElement) -> String {
        var output = ""
        write(element, into: &output)
        return output
    }

    static func write(_ element: XMLElement, into output: inout String) {
        output += "<"
        output += element.name
        for attribute in element.attributes {
            output += " "
            output += attribute.name
            output += "=\""
            escape(attribute.value, attribute: true, into: &output)
            output += "\""
        }
        guard !element.children.isEmpty else {
            output += "/>"
            return
        }
        output += ">"
        for child in element.children { write(child, into: &output) }
        output += "</"
        output += element.name
        output += ">"
    }

    static func write(_ node: XMLNode, into output: inout String) {
        switch node {
        case .element(let element): write(element, into: &output)
        case .text(let text): escape(text, attribute: false, into: &output)
        case .cdata(let text):
            // A CDATA section cannot hold its own end marker: split it across two sections.
            output += "<![CDATA[" + text.replacingAll("]]>", with: "]]]]><![CDATA[>") + "]]>"
        case .comment(let text): output += "<!--" + text + "-->"
        case .processingInstruction(let text): output += "<?" + text + "?>"
        }
    }

    /// `&`, `<` and `>` always; in attribute values also `"` and the whitespace that reading would
    /// otherwise turn into spaces.
    static func escape(_ text: String, attribute: Bool, into output: inout String) {
        guard
            text.utf8.contains(where: {
                $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || (attribute && ($0 == 0x22 || $0 < 0x20))
            })
        else {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where attribute: output += "&quot;"
            case "\t" where attribute: output += "&#9;"
            case "\n" where attribute: output += "&#10;"
            case "\r": output += "&#13;"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation in the formats).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
