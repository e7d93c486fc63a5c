/// Why a document is not XML Seam reads, and where: the formats turn it into their own errors
/// (an MPD's `DASHParseError`, a VAST response's `VASTParseError`), keeping the words.
package struct XMLSyntaxError: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Not well-formed, or something the reader refuses (an entity other than XML's five,
        /// bytes that are not UTF-8).
        case malformed
        /// Nothing but space.
        case emptyInput
        /// Nesting past the reader's limit, at a start tag of `element`.
        case tooDeep(element: String)
        /// `DOCTYPE` or `ENTITY`: refused so that no entity is ever expanded.
        case forbiddenDeclaration(String)
    }

    package var kind: Kind
    package var reason: String
    /// 1-based; 1 where a place has no meaning (an empty document).
    package var line: Int
    package var column: Int

    package init(kind: Kind, reason: String, line: Int = 1, column: Int = 1) {
        self.kind = kind
        self.reason = reason
        self.line = line
        self.column = column
    }
}
