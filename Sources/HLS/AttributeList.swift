/// One `NAME=value` pair of an HLS attribute list.
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var value: AttributeValue

    public init(_ name: String, _ value: AttributeValue) {
        self.name = name
        self.value = value
    }
}

/// An attribute value as written: quoted strings lose their quotes, everything else
/// (decimal integers, hexadecimal sequences, floats, enumerated strings, resolutions)
/// keeps its exact text so that nothing the origin sent is reinterpreted.
public enum AttributeValue: Sendable, Hashable {
    case quoted(String)
    case unquoted(String)

    /// The value's text without quotes.
    public var text: String {
        switch self {
        case .quoted(let s), .unquoted(let s): return s
        }
    }

    public var isQuoted: Bool {
        if case .quoted = self { return true }
        return false
    }
}

/// An ordered HLS attribute list. Order is kept so that a playlist written by Seam
/// reads back byte for byte, and unknown attributes survive a round trip.
public struct AttributeList: Sendable, Hashable {
    public var items: [Attribute]

    public init(_ items: [Attribute] = []) {
        self.items = items
    }

    public var isEmpty: Bool { items.isEmpty }

    public subscript(name: String) -> AttributeValue? {
        get {
            for item in items where item.name == name { return item.value }
            return nil
        }
        set {
            if let index = items.firstIndex(where: { $0.name == name }) {
                if let newValue {
                    items[index].value = newValue
                } else {
                    items.remove(at: index)
                }
            } else if let newValue {
                items.append(Attribute(name, newValue))
            }
        }
    }

    public func contains(_ name: String) -> Bool {
        items.contains { $0.name == name }
    }

    // MARK: Typed readers

    /// A quoted-string attribute (also accepts an unquoted value, as lenient players do).
    public func string(_ name: String) -> String? {
        self[name]?.text
    }

    public func enumerated(_ name: String) -> String? {
        self[name]?.text
    }

    public func integer(_ name: String) -> Int? {
        guard let text = self[name]?.text else { return nil }
        return DecimalNumber.parseInteger(text)
    }

    public func double(_ name: String) -> Double? {
        guard let text = self[name]?.text else { return nil }
        return DecimalNumber.parseDouble(text)
    }

    public func resolution(_ name: String) -> Resolution? {
        guard let text = self[name]?.text else { return nil }
        return Resolution(text)
    }

    /// `YES` is true, `NO` is false, anything else (or absent) is nil.
    public func boolean(_ name: String) -> Bool? {
        switch self[name]?.text {
        case "YES": return true
        case "NO": return false
        default: return nil
        }
    }

    // MARK: Typed writers

    public mutating func setString(_ name: String, _ value: String?) {
        self[name] = value.map { .quoted($0) }
    }

    public mutating func setEnumerated(_ name: String, _ value: String?) {
        self[name] = value.map { .unquoted($0) }
    }

    public mutating func setInteger(_ name: String, _ value: Int?) {
        self[name] = value.map { .unquoted(String($0)) }
    }

    public mutating func setDouble(_ name: String, _ value: Double?) {
        self[name] = value.map { .unquoted(DecimalNumber.format($0)) }
    }

    public mutating func setBoolean(_ name: String, _ value: Bool?) {
        self[name] = value.map { .unquoted($0 ? "YES" : "NO") }
    }
}

extension AttributeList {
    /// Parses an attribute list leniently: whitespace around names and values is
    /// ignored, a missing closing quote takes the rest of the line. Problems are
    /// reported through `problem` rather than thrown, since players accept them.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, problem: (String) -> Void) -> AttributeList {
        var items: [Attribute] = []
        var i = 0
        let n = bytes.count
        while i < n {
            while i < n, bytes[i] == .space || bytes[i] == .tab || bytes[i] == .comma { i += 1 }
            if i >= n { break }
            let nameStart = i
            while i < n, bytes[i] != .equals, bytes[i] != .comma { i += 1 }
            var nameEnd = i
            while nameEnd > nameStart, bytes[nameEnd - 1] == .space || bytes[nameEnd - 1] == .tab { nameEnd -= 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
            if i >= n || bytes[i] == .comma {
                problem("attribute \(name) has no value")
                continue
            }
            i += 1  // '='
            while i < n, bytes[i] == .space || bytes[i] == .tab { i += 1 }
            if i < n, bytes[i] == .quote {
                i += 1
                let valueStart = i
                while i < n, bytes[i] != .quote { i += 1 }
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<i]), as: UTF8.self)
                if i >= n {
                    problem("attribute \(name) has an unterminated quoted string")
                } else {
                    i += 1
                }
                items.append(Attribute(name, .quoted(value)))
                while i < n, bytes[i] != .comma {
                    if bytes[i] != .space, bytes[i] != .tab {
                        problem("unexpected characters after the quoted value of \(name)")
                        while i < n, bytes[i] != .comma { i += 1 }
                        break
                    }
                    i += 1
                }
            } else {
                let valueStart = i
                while i < n, bytes[i] != .comma { i += 1 }
                var valueEnd = i
                // A carriage return counts as trailing space too: the line scanner drops one at the
                // end of a line, so a value kept with it would not read back the same (fuzzing).
                while valueEnd > valueStart,
                    bytes[valueEnd - 1] == .space || bytes[valueEnd - 1] == .tab || bytes[valueEnd - 1] == .cr
                {
                    valueEnd -= 1
                }
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
                if value.isEmpty { problem("attribute \(name) has an empty value") }
                items.append(Attribute(name, .unquoted(value)))
            }
        }
        return AttributeList(items)
    }

    /// Parses attribute list text (for values built outside the playlist parser).
    public init(parsing text: String) {
        var text = text
        self = text.withUTF8 { AttributeList.parse($0, problem: { _ in }) }
    }

    func write(to writer: inout PlaylistWriter) {
        var first = true
        for item in items {
            if !first { writer.append(byte: .comma) }
            first = false
            writer.append(item.name)
            writer.append(byte: .equals)
            switch item.value {
            case .quoted(let text):
                writer.append(byte: .quote)
                writer.append(text)
                writer.append(byte: .quote)
            case .unquoted(let text):
                writer.append(text)
            }
        }
    }

    /// The list as it appears after a tag's colon.
    public var serialized: String {
        var writer = PlaylistWriter(capacity: 64)
        write(to: &writer)
        return writer.string
    }
}

/// A tag whose value is an attribute list; typed accessors are computed from it.
public protocol AttributeTag: Sendable, Hashable {
    var attributes: AttributeList { get set }
    init(attributes: AttributeList)
}

/// An attribute list is written as its text in a playlist (`ID="a",DURATION=30`), so that is how
/// it is encoded: read back with the playlist parser's own rules, quoting and order kept.
extension AttributeList: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var writer = PlaylistWriter(capacity: 256)
        write(to: &writer)
        var container = encoder.singleValueContainer()
        try container.encode(writer.string)
    }
}
