/// One piece of an XML document, in document order, as ``XMLTokenizer`` reads it.
package enum XMLToken {
    /// `<?xml …?>`, first in the document, with the encoding it names (lowercased), nil when it
    /// names none.
    case declaration(encoding: String?)
    /// A start tag, with its attributes in document order (references resolved) and the 1-based
    /// line of its `<`. `isEmpty` for `<name/>`, which no end tag follows.
    case startElement(name: String, attributes: [(name: String, value: String)], isEmpty: Bool, line: Int)
    case endElement(name: String)
    /// Character data with references resolved (whitespace between elements included).
    case text(String)
    case cdata(String)
    case comment(String)
    /// `<?target data?>`, as written between the markers.
    case processingInstruction(String)
}
