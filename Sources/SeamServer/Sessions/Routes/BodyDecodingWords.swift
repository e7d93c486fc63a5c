/// A request body that does not decode, said as the fix: which field, and what it must be. The
/// decoder's own text names Swift types (`Int`, `Dictionary<String, Any>`) a user never wrote.
enum BodyDecodingWords {
    static let notJSON = "the body must be JSON with at least {\"url\": \"https://.../master.m3u8\"}"

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(field(context.codingPath)) must be \(kind(type))"
        case .valueNotFound(let type, let context):
            return "\(field(context.codingPath)) must be \(kind(type)), not null"
        case .keyNotFound(let key, let context):
            let path = context.codingPath + [key]
            return "\(field(path)) is missing; \(notJSON)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? notJSON : "\(field(context.codingPath)) is not valid"
        @unknown default:
            return notJSON
        }
    }

    /// `"adParams.genre"`, `"consent"`: the field as the body names it.
    static func field(_ path: [any CodingKey]) -> String {
        let names = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return "\"" + names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + "\""
    }

    /// What a value of `type` is in JSON's words.
    static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") { return "an object" }
            if name.hasPrefix("Array") { return "a list" }
            return "an object"
        }
    }
}
