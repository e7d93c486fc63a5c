/// A record's columns written element by element through the encoder's own overloads for
/// `Int`, `Double` and `Bool`. The same JSON as encoding the array, for a fraction of the cost:
/// an array's own `encode(to:)` is generic over its element, so Foundation's `JSONEncoder` tests
/// every element against the types it writes specially (dynamic casts), about 1,000,000
/// instructions for a 1,345-byte timeline (`LiveTimelineBenchmark --encodes`); a shared store
/// writes a live session's record at each break's decision and end, and that encoding was the
/// largest item in the replicas' profile (BENCHMARKS.md, PostgreSQL ×2).
extension KeyedEncodingContainer {
    mutating func encodeColumn(_ values: [Int], forKey key: Key) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values { try column.encode(value) }
    }

    mutating func encodeColumn(_ values: [Int?], forKey key: Key) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values {
            if let value { try column.encode(value) } else { try column.encodeNil() }
        }
    }

    mutating func encodeColumn(_ values: [Int32?], forKey key: Key) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values {
            if let value { try column.encode(value) } else { try column.encodeNil() }
        }
    }

    mutating func encodeColumn(_ values: [Double], forKey key: Key) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values { try column.encode(value) }
    }

    mutating func encodeColumn(_ values: [Double?], forKey key: Key) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values {
            if let value { try column.encode(value) } else { try column.encodeNil() }
        }
    }

    mutating func encodeColumn(_ values: [Bool], forKey key: Key) throws {
        var column = nestedUnkeyedContainer(forKey: key)
        for value in values { try column.encode(value) }
    }
}
