import XMLSyntax

/// Reads UTF-8 XML into an `XMLDocument`, refusing what an MPD never needs and an attacker would
/// use: a document type declaration (so no entity expansion, no external entity), references
/// other than XML's five predefined entities and character references, encodings other than
/// UTF-8, input over a size limit, and nesting over a depth limit. Its own parser (no libxml2,
/// the tokenizer VAST responses are read with too): attribute order survives, which an MPD round
/// trip needs, and there is nothing to configure safely.
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
        var tokenizer = XMLTokenizer(bytes: bytes, maxDepth: maxDepth, documentName: "an MPD")
        do {
            return try Self.document(from: &tokenizer)
        } catch {
            switch error.kind {
            case .emptyInput: throw .emptyInput
            case .tooDeep: throw .tooDeep(limit: maxDepth, line: error.line)
            case .malformed, .forbiddenDeclaration:
                throw .malformedXML(reason: error.reason, line: error.line, column: error.column)
            }
        }
    }

    public func read(_ text: String) throws(DASHParseError) -> XMLDocument {
        try read(Array(text.utf8))
    }

    /// The tree, every node kept: comments and processing instructions before the root go to the
    /// prolog, after it to the epilog.
    private static func document(from tokenizer: inout XMLTokenizer) throws(XMLSyntaxError) -> XMLDocument {
        var hasDeclaration = false
        var prolog: [XMLNode] = []
        var epilog: [XMLNode] = []
        var root: XMLElement?
        /// The open elements, outermost first.
        var stack: [XMLElement] = []
        func add(_ node: XMLNode) {
            if !stack.isEmpty {
                stack[stack.count - 1].children.append(node)
            } else if root == nil {
                prolog.append(node)
            } else {
                epilog.append(node)
            }
        }
        func close(_ element: XMLElement) {
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(.element(element)) }
        }
        while let token = try tokenizer.next() {
            switch token {
            case .declaration(let encoding):
                if let encoding, encoding != "utf-8" && encoding != "us-ascii" && encoding != "ascii" {
                    throw tokenizer.fail("encoding \"\(encoding)\" is not read; serve the MPD as UTF-8")
                }
                hasDeclaration = true
            case .startElement(let name, let attributes, let isEmpty, _):
                let element = XMLElement(
                    name: name, attributes: attributes.map { XMLAttribute(name: $0.name, value: $0.value) })
                if isEmpty { close(element) } else { stack.append(element) }
            case .endElement:
                close(stack.removeLast())
            case .text(let text): add(.text(text))
            case .cdata(let text): add(.cdata(text))
            case .comment(let text): add(.comment(text))
            case .processingInstruction(let text): add(.processingInstruction(text))
            }
        }
        guard let root else { throw tokenizer.fail("no root element") }
        return XMLDocument(hasDeclaration: hasDeclaration, prolog: prolog, root: root, epilog: epilog)
    }
}
