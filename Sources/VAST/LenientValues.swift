/// Readers for attribute values as real ad servers write them (`"1"`, `"True"`, `" 640 "`, `"640.0"`).
enum LenientValues {
    /// `true`/`1`/`yes` and `false`/`0`/`no`, ignoring case; nil otherwise.
    static func bool(_ text: String?) -> Bool? {
        guard let text else { return nil }
        switch text.trimmingXMLWhitespace().lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return nil
        }
    }

    /// A non-negative integer; a whole decimal such as `640.0` is accepted. Nil otherwise.
    static func int(_ text: String?) -> Int? {
        guard let trimmed = text?.trimmingXMLWhitespace(), !trimmed.isEmpty, trimmed.utf8.count <= 24 else {
            return nil
        }
        if let value = Int(trimmed) { return value >= 0 ? value : nil }
        if let value = Double(trimmed), value.isFinite, value >= 0, value < 9.0e15, value == value.rounded() {
            return Int(value)
        }
        return nil
    }
}
