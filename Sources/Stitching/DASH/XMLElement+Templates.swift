import DASH

extension XMLElement {
    /// This period with `transform` applied to each representation's own `SegmentTemplate`
    /// (period → adaptation set → representation → template), every other node as it is: how the
    /// live renderer rewrites a period's addressing without reading it into typed views again.
    func mappingRepresentationTemplates(_ transform: (XMLElement) -> XMLElement) -> XMLElement {
        var period = self
        period.children = period.children.map { node in
            guard case .element(var set) = node, set.localName == "AdaptationSet" else { return node }
            set.children = set.children.map { node in
                guard case .element(var representation) = node, representation.localName == "Representation" else {
                    return node
                }
                representation.children = representation.children.map { node in
                    guard case .element(let template) = node, template.localName == "SegmentTemplate" else {
                        return node
                    }
                    return .element(transform(template))
                }
                return .element(representation)
            }
            return .element(set)
        }
        return period
    }
}
