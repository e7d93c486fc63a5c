/// Writes an `XMLDocument` back as UTF-8 text: elements and attributes in their order, text and
/// comments where they were, values escaped so that reading the output gives the same document
/// (`XMLReader` then `XMLWriter` then `XMLReader` is the identity on the tree). Attribute values
/// are double-quoted; an element without children is written `<Name/>`.
///
/// The text is built as bytes (`bytes(_:)`): a live DASH session's MPD is written on every
/// viewer's reload, and appending UTF-8 to one byte array costs a fraction of growing a `String`
/// piece by piece.
public enum XMLWriter {
    public static func write(_ document: XMLDocument) -> String {
        String(decoding: bytes(document), as: UTF8.self)
    }

    /// The document's text as UTF-8 bytes.
    public static func bytes(_ document: XMLDocument) -> [UInt8] {
        var output = Output()
        output.bytes.reserveCapacity(4096)
        if document.hasDeclaration { output.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" as StaticString) }
        for node in document.prolog {
            write(node, into: &output)
            output.append(byte: .newline)
        }
        write(document.root, into: &output)
        for node in document.epilog {
            output.append(byte: .newline)
            write(node, into: &output)
        }
        output.append(byte: .newline)
        return output.bytes
    }

    public static func write(_ element: XMLElement) -> String {
        var output = Output()
        write(element, into: &output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Where the text goes: UTF-8 appended to one array.
    struct Output {
        var bytes: [UInt8] = []

        @inline(__always)
        mutating func append(byte: UInt8) { bytes.append(byte) }

        @inline(__always)
        mutating func append(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        @inline(__always)
        mutating func append(_ text: String) {
            // Native strings, small ones included, lend their UTF-8 without a copy.
            if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
                bytes.append(contentsOf: text.utf8)
            }
        }
    }

    static func write(_ element: XMLElement, into output: inout Output) {
        output.append(byte: .lessThan)
        output.append(element.name)
        for attribute in element.attributes {
            output.append(byte: .space)
            output.append(attribute.name)
            output.append("=\"" as StaticString)
            escape(attribute.value, attribute: true, into: &output)
            output.append(byte: .quote)
        }
        guard !element.children.isEmpty else {
            output.append("/>" as StaticString)
            return
        }
        output.append(byte: .greaterThan)
        for child in element.children { write(child, into: &output) }
        output.append("</" as StaticString)
        output.append(element.name)
        output.append(byte: .greaterThan)
    }

    static func write(_ node: XMLNode, into output: inout Output) {
        switch node {
        case .element(let element): write(element, into: &output)
        case .text(let text): escape(text, attribute: false, into: &output)
        case .cdata(let text):
            // A CDATA section cannot hold its own end marker: split it across two sections.
            output.append("<![CDATA[" as StaticString)
            output.append(text.replacingAll("]]>", with: "]]]]><![CDATA[>"))
            output.append("]]>" as StaticString)
        case .comment(let text):
            output.append("<!--" as StaticString)
            output.append(text)
            output.append("-->" as StaticString)
        case .processingInstruction(let text):
            output.append("<?" as StaticString)
            output.append(text)
            output.append("?>" as StaticString)
        }
    }

    /// `&`, `<`, `>` and CR always (read raw, a CR is a line break: `&#13;` keeps one that a
    /// character reference gave); in attribute values also `"` and the whitespace that reading
    /// would otherwise turn into spaces.
    static func escape(_ text: String, attribute: Bool, into output: inout Output) {
        // Most values need nothing escaped: one scan of the bytes, then one copy.
        let written = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            for byte in buffer
            where byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x0D
                || (attribute && (byte == 0x22 || byte < 0x20))
            {
                return false
            }
            output.bytes.append(contentsOf: buffer)
            return true
        }
        if written == true { return }
        // Every byte to escape is ASCII, so the others (multi-byte characters included) pass as they are.
        for byte in text.utf8 {
            switch byte {
            case 0x26: output.append("&amp;" as StaticString)
            case 0x3C: output.append("&lt;" as StaticString)
            case 0x3E: output.append("&gt;" as StaticString)
            case 0x22 where attribute: output.append("&quot;" as StaticString)
            case 0x09 where attribute: output.append("&#9;" as StaticString)
            case 0x0A where attribute: output.append("&#10;" as StaticString)
            case 0x0D: output.append("&#13;" as StaticString)
            default: output.append(byte: byte)
            }
        }
    }
}

extension UInt8 {
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let greaterThan = UInt8(ascii: ">")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let quote = UInt8(ascii: "\"")
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
