import Foundation
import Yams

/// `docs/openapi.yaml`, read with Yams, and what the contract tests ask of it: a schema by name,
/// `$ref`s followed, and where a JSON document does not have the shape a schema gives it.
///
/// Only the JSON Schema keywords the contract uses are read (`type`, `properties`, `required`,
/// `additionalProperties`, `items`, `enum`, `const`, `pattern`, `$ref`, and `oneOf`/`anyOf`/
/// `allOf` as the file uses them: a type or `null`, one `$ref` with a description). Value
/// ranges are schemathesis's to check against the running server.
struct OpenAPIDocument {
    let root: [String: Any]

    /// The repository's `docs/openapi.yaml`, found from this file's place in `Tests/`.
    static func repository() throws -> OpenAPIDocument {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
        return try OpenAPIDocument(yaml: String(contentsOf: file, encoding: .utf8))
    }

    init(yaml: String) throws {
        guard let root = try Yams.load(yaml: yaml) as? [String: Any] else {
            throw ContractError("openapi.yaml is not a mapping")
        }
        self.root = root
    }

    struct ContractError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Lookup

    /// `components/<section>/<name>`.
    func component(_ section: String, _ name: String) throws -> [String: Any] {
        guard let components = root["components"] as? [String: Any], let items = components[section] as? [String: Any],
            let item = items[name] as? [String: Any]
        else { throw ContractError("no components/\(section)/\(name)") }
        return item
    }

    func schema(_ name: String) throws -> [String: Any] {
        try resolved(component("schemas", name))
    }

    /// Every path of `paths`, as written (`/v1/sessions/{id}/tracking`).
    var paths: [String: [String: Any]] {
        (root["paths"] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
    }

    /// `schema` with `$ref`s followed, and a `oneOf`/`anyOf` of one schema or `null` (an optional
    /// request field), or an `allOf` of one schema (a `$ref` with its own description), taken as
    /// that one schema.
    func resolved(_ schema: [String: Any]) throws -> [String: Any] {
        if let reference = schema["$ref"] as? String {
            let prefix = "#/components/schemas/"
            guard reference.hasPrefix(prefix) else { throw ContractError("unexpected $ref \(reference)") }
            return try self.schema(String(reference.dropFirst(prefix.count)))
        }
        for keyword in ["oneOf", "anyOf", "allOf"] {
            guard let options = schema[keyword] as? [[String: Any]] else { continue }
            let real = options.filter { ($0["type"] as? String) != "null" }
            if real.count == 1, real[0]["$ref"] != nil, options.count <= 2 { return try resolved(real[0]) }
        }
        return schema
    }

    /// The schema's `type` as a set (`[string, 'null']` or `string`); nil when it gives none.
    static func types(_ schema: [String: Any]) -> Set<String>? {
        if let one = schema["type"] as? String { return [one] }
        if let many = schema["type"] as? [String] { return Set(many) }
        return nil
    }

    /// Where `value` does not have the shape `schema` gives it, one line per difference, each
    /// with its path. Objects with `properties` must have exactly those members: fixtures set every
    /// field, so a member the schema lacks or a property the type lacks both show.
    func mismatches(_ value: JSONValue, _ schema: [String: Any], at path: String = "") throws -> [String] {
        let schema = try resolved(schema)
        let here = path.isEmpty ? "(root)" : path
        func typed(_ names: String...) -> [String] {
            guard let types = Self.types(schema) else { return [] }
            return types.isDisjoint(with: names) ? ["\(here): \(names[0]) where the schema says \(types.sorted())"] : []
        }
        var found: [String] = []
        if let options = schema["anyOf"] as? [[String: Any]] ?? schema["oneOf"] as? [[String: Any]] {
            // A choice the resolver did not reduce (the error code's enum-or-pattern): any one fits.
            let fits = try options.contains {
                try mismatches(value, $0.merging(["type": schema["type"] ?? []]) { own, _ in own }, at: path).isEmpty
            }
            if !fits { found.append("\(here): \(value) fits none of \(options.count) choices") }
        }
        switch value {
        case .null:
            found += typed("null")
        case .bool(let flag):
            found += typed("boolean")
            if let constant = schema["const"] as? Bool, constant != flag {
                found.append("\(here): \(flag), the schema's const is \(constant)")
            }
        case .int:
            found += typed("integer", "number")
        case .double:
            found += typed("number")
        case .string(let text):
            found += typed("string")
            if let allowed = schema["enum"] as? [String], !allowed.contains(text) {
                found.append("\(here): \"\(text)\" not in enum \(allowed)")
            }
            if let constant = schema["const"] as? String, constant != text {
                found.append("\(here): \"\(text)\", the schema's const is \"\(constant)\"")
            }
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(here): \"\(text)\" does not match \(pattern)")
            }
        case .array(let items):
            found += typed("array")
            if let itemSchema = schema["items"] as? [String: Any] {
                for (index, item) in items.enumerated() {
                    found += try mismatches(item, itemSchema, at: "\(path)/\(index)")
                }
            }
        case .object(let members):
            found += typed("object")
            if let properties = schema["properties"] as? [String: Any] {
                let declared = Set(properties.keys), present = Set(members.keys)
                for key in present.subtracting(declared).sorted() {
                    found.append("\(here): member \"\(key)\" is not in the schema")
                }
                for key in declared.subtracting(present).sorted() {
                    found.append("\(here): property \"\(key)\" is not in what the type encodes")
                }
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    guard let propertySchema = properties[key] as? [String: Any] else { continue }
                    found += try mismatches(member, propertySchema, at: "\(path)/\(key)")
                }
            } else if let valueSchema = schema["additionalProperties"] as? [String: Any] {
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    found += try mismatches(member, valueSchema, at: "\(path)/\(key)")
                }
            }
        }
        return found
    }

    /// Where the schema's `required` differs from what `T` decodes: each member of `document` is
    /// taken out in turn, and `T` must fail to decode exactly when the schema requires it. With
    /// `unknownMembers`, a member the schema does not name is also put in each object: `T` must
    /// refuse it exactly when the schema says `additionalProperties: false` (the request types,
    /// which the server decodes strictly).
    func requiredMismatches<T: Decodable>(
        _ type: T.Type, _ document: JSONValue, _ schema: [String: Any],
        unknownMembers: Bool = false
    ) throws -> [String] {
        guard document.decodes(as: T.self) else { return ["\(T.self) does not decode the fixture itself"] }
        var found: [String] = []
        func walk(_ value: JSONValue, _ schema: [String: Any], _ path: [JSONValue.Step]) throws {
            let schema = try resolved(schema)
            let here = path.isEmpty ? "(root)" : "/" + path.map(\.description).joined(separator: "/")
            switch value {
            case .array(let items):
                guard let itemSchema = schema["items"] as? [String: Any] else { return }
                for (index, item) in items.enumerated() { try walk(item, itemSchema, path + [.index(index)]) }
            case .object(let members):
                guard let properties = schema["properties"] as? [String: Any] else { return }
                let required = Set(schema["required"] as? [String] ?? [])
                for key in members.keys.sorted() {
                    let without = document.changingObject(at: path) { $0[key] = nil }
                    let decodes = without.decodes(as: T.self)
                    if decodes == required.contains(key) {
                        found.append(
                            "\(here): \(T.self) \(decodes ? "decodes" : "refuses") a document without \"\(key)\", the schema \(required.contains(key) ? "requires" : "does not require") it"
                        )
                    }
                    if let propertySchema = properties[key] as? [String: Any], let member = members[key] {
                        try walk(member, propertySchema, path + [.key(key)])
                    }
                }
                if unknownMembers {
                    let closed = (schema["additionalProperties"] as? Bool) == false
                    let decodes = document.changingObject(at: path) { $0["notASeamField"] = .string("x") }.decodes(
                        as: T.self)
                    if decodes == closed {
                        found.append(
                            "\(here): \(T.self) \(decodes ? "accepts" : "refuses") an unknown member, the schema \(closed ? "refuses" : "allows") it"
                        )
                    }
                }
            default:
                return
            }
        }
        try walk(document, schema, [])
        return found
    }
}
