import DASH
import HLS

extension MPD {
    /// Makes the MPD's first `BaseURL` absolute against `location` (adding one when it names
    /// none), so its relative addresses no longer depend on where it was read from.
    public mutating func anchor(at location: String) {
        var root = document.root
        let first = root.children.firstIndex { $0.isElement(named: "BaseURL") }
        var base = XMLElement(name: DASHVODSplicer.prefix(of: root) + "BaseURL")
        var resolved = URIReference.resolve(".", against: location)
        if let first, case .element(let existing) = root.children[first] {
            base = existing
            resolved = URIReference.resolve(existing.text, against: location)
        }
        base.children = [.text(resolved)]
        if let first {
            root.children[first] = .element(base)
        } else {
            let at = root.children.firstIndex { if case .element = $0 { true } else { false } } ?? 0
            root.children.insert(.element(base), at: at)
        }
        document.root = root
    }
}
