/// A record's columns written element by element through the encoder's own overloads for
/// `Int`, `Double` and `Bool`. The same JSON as encoding the array, for a fraction of the cost:
/// an array's own `encode(to:)` is generic over its element, so Foundation's `JSONEncoder` tests
/// every element against the types it writes specially (dynamic casts), about 1,000,000
/// instructions for a 1,345-byte timeline (`LiveTimelineBenchmark --encodes`); a shared store
/// writes a live session's record at each break's decision and end, and that encoding was the
/// largest item in the replicas' profile (BENCHMARKS.md, PostgreSQL ×2).
extension KeyedEncodingContainer {
    mutating func encodeColumn(_ values: [Int], forKey key: Key) throws {
        try encodeEach(values, forKey: key) { try $0.encode($1) }
    }

    mutating func encodeColumn(_ values: [Int?], forKey key: Key) throws {
        try encodeEach(values, forKey: key) { try $0.encode($1) }
    }

    mutating func encodeColumn(_ values: [Int32?], forKey key: Key) throws {
        try encodeEach(values, forKey: key) { try $0.encode($1) }
    }

    mutating func encodeColumn(_ values: [Double], forKey key: Key) throws {
        try encodeEach(values, forKey: key) { try $0.encode($1) }
    }

    mutating func encodeColumn(_ values: [Double?], forKey key: Key) throws {
        try encodeEach(values, forKey: key) { try $0.encode($1) }
    }

    mutating func encodeColumn(_ values: [Bool], forKey key: Key) throws {
        try encodeEach(values, forKey: key) { try $0.encode($1) }
    }

    /// `values` as an array, each through `write` (which names the concrete overload).
    private mutating func encodeEach<Value>(
        _ values: [Value], forKey key: Key, _ write: (inout any UnkeyedEncodingContainer, Value) throws -> Void
    ) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values { try write(&column, value) }
    }

    /// `values` as an array, each through `write`, `nil` as JSON's null.
    private mutating func encodeEach<Value>(
        _ values: [Value?], forKey key: Key, _ write: (inout any UnkeyedEncodingContainer, Value) throws -> Void
    ) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values {
            if let value { try write(&column, value) } else { try column.encodeNil() }
        }
    }
}
