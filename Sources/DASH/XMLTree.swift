/// An XML document as an MPD is kept: every element, attribute (in document order, namespace
/// declarations included), text, comment and CDATA section, so serializing gives back the same
/// document — elements and attributes Seam does not know (a packager's extension, a DRM system's
/// `ContentProtection` payload) pass through untouched.
public struct XMLDocument: Sendable, Equatable {
    /// Whether the input began with an XML declaration (`<?xml …?>`); serializing writes one then.
    public var hasDeclaration: Bool
    /// Comments and processing instructions before the root element.
    public var prolog: [XMLNode]
    public var root: XMLElement
    /// Comments and processing instructions after it.
    public var epilog: [XMLNode]

    public init(hasDeclaration: Bool = true, prolog: [XMLNode] = [], root: XMLElement, epilog: [XMLNode] = []) {
        self.hasDeclaration = hasDeclaration
        self.prolog = prolog
        self.root = root
        self.epilog = epilog
    }
}

/// One attribute as written: its qualified name (`xlink:href`, `xmlns:cenc`) and its value with
/// references resolved.
public struct XMLAttribute: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A child of an element.
public enum XMLNode: Sendable, Equatable {
    case element(XMLElement)
    /// Character data with references resolved (whitespace between elements included, so the
    /// document keeps its layout).
    case text(String)
    case cdata(String)
    case comment(String)
    /// `<?target data?>`, as written between the markers.
    case processingInstruction(String)

    /// Whether this is an element whose local name is `localName`.
    public func isElement(named localName: String) -> Bool {
        if case .element(let element) = self { return element.hasLocalName(localName) }
        return false
    }
}

/// An element: its qualified name, its attributes in document order, its children.
public struct XMLElement: Sendable, Equatable {
    public var name: String
    public var attributes: [XMLAttribute]
    public var children: [XMLNode]

    public init(name: String, attributes: [XMLAttribute] = [], children: [XMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The name without its namespace prefix (`Period` for `mpd:Period`): MPDs are read by local
    /// name, since packagers write the DASH namespace as the default one or under a prefix.
    public var localName: Substring {
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name[...] }
        return name[name.utf8.index(after: colon)...]
    }

    /// The value of the attribute named `name` (qualified, as written), nil when absent.
    public subscript(attribute name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            if let index = attributes.firstIndex(where: { $0.name == name }) {
                if let newValue { attributes[index].value = newValue } else { attributes.remove(at: index) }
            } else if let newValue {
                attributes.append(XMLAttribute(name: name, value: newValue))
            }
        }
    }

    /// The child elements, in order.
    public var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The child elements whose local name is `localName`, in order.
    public func elements(named localName: String) -> [XMLElement] {
        var found: [XMLElement] = []
        for case .element(let element) in children where element.hasLocalName(localName) { found.append(element) }
        return found
    }

    /// Whether the element's local name is `localName`, code point for code point (as XML
    /// compares names), without building a string.
    public func hasLocalName(_ localName: String) -> Bool {
        localName.utf8.elementsEqual(self.localName.utf8)
    }

    /// The text and CDATA of the element's own children, joined (not its descendants').
    public var text: String {
        children.reduce(into: "") { text, node in
            switch node {
            case .text(let value), .cdata(let value): text += value
            default: break
            }
        }
    }
}
