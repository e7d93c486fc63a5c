import Foundation

/// A JSON document as a tree, so the contract tests can walk what a Swift type encodes, take a
/// field out and decode the rest again. `Int` and `Double` are kept apart (JSON Schema's
/// `integer` is a `number`, not the other way round).
enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// `value` as the server's encoder writes it.
    init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    /// Whether `T` decodes from this document.
    func decodes<T: Decodable>(as type: T.Type) -> Bool {
        guard let data = try? JSONEncoder().encode(self) else { return false }
        return (try? JSONDecoder().decode(T.self, from: data)) != nil
    }

    /// A JSON Pointer-like path to a member: object keys and array indexes.
    enum Step: Equatable, CustomStringConvertible, Sendable {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): return key
            case .index(let index): return String(index)
            }
        }
    }

    /// This document with the object at `path` changed by `change`.
    func changingObject(at path: [Step], _ change: (inout [String: JSONValue]) -> Void) -> JSONValue {
        guard let step = path.first else {
            guard case .object(var members) = self else { return self }
            change(&members)
            return .object(members)
        }
        switch (self, step) {
        case (.object(var members), .key(let key)):
            members[key] = members[key]?.changingObject(at: Array(path.dropFirst()), change)
            return .object(members)
        case (.array(var items), .index(let index)) where items.indices.contains(index):
            items[index] = items[index].changingObject(at: Array(path.dropFirst()), change)
            return .array(items)
        default:
            return self
        }
    }
}
