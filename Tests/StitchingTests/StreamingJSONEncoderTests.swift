import Foundation
import Testing

@testable import Stitching

/// `StreamingJSONEncoder` writes JSON that `JSONDecoder` reads to the same value, and the same
/// document (members, elements, numbers, strings) as Foundation's `JSONEncoder` with sorted keys.
@Suite struct StreamingJSONEncoderTests {
    struct Numbers: Codable, Equatable {
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var double: Double
        var float: Float
        var flag: Bool
    }

    struct Nested: Codable, Equatable {
        var name: String
        var optional: String?
        var missing: Int?
        var list: [Int]
        var optionals: [Double?]
        var grid: [[String]]
        var byName: [String: Numbers]
        var byNumber: [Int: String]
        var empty: [String]
        var emptyMap: [String: Int]
        var data: Data
        var url: URL
        var date: Date
        var decimal: Decimal
        var children: [Nested]
    }

    static let numbers = Numbers(
        int: Int.min, int8: -128, int16: 32_767, int32: Int32.min, int64: Int64.max, uint: UInt.max, uint8: 255,
        uint16: 0, uint32: 4_000_000_000, uint64: UInt64.max, double: -0.0, float: 0.1, flag: false)

    static func nested(children: [Nested] = []) -> Nested {
        Nested(
            name: "quote \" backslash \\ slash / tab \t newline \n bell \u{7} nul \u{0} é 日本 😀 \u{2028}",
            optional: "", missing: nil, list: [0, 1, -1, 1_234_567_890_123],
            optionals: [nil, 2, 0.1, 1e300, 5e-324, -1.5, 1_800_000_540.25, 123_456_789.123],
            grid: [[], ["a"], ["b", "c"]], byName: ["zeta": numbers, "Alpha": numbers, "v10": numbers, "v2": numbers],
            byNumber: [10: "ten", 2: "two", -1: "minus one"], empty: [], emptyMap: [:],
            data: Data([0, 1, 2, 250, 251, 252, 253, 254, 255]), url: URL(string: "https://ads.test/vast?a=1&b=%2F")!,
            date: Date(timeIntervalSinceReferenceDate: 786_000_123.456), decimal: Decimal(string: "12.345")!,
            children: children)
    }

    /// Both encoders' bytes read into Foundation's objects and written again with sorted keys:
    /// equal when the two are the same document.
    func sameDocument(_ a: [UInt8], _ b: Data) throws -> Bool {
        func normalized(_ bytes: Data) throws -> Data {
            let object = try JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed])
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        }
        return try normalized(Data(a)) == normalized(b)
    }

    var foundation: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    @Test("Every kind of value reads back the same and is the document Foundation's encoder writes")
    func values() throws {
        let value = Self.nested(children: [Self.nested(), Self.nested(children: [Self.nested()])])
        let bytes = try StreamingJSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(Nested.self, from: Data(bytes)) == value)
        #expect(try sameDocument(bytes, foundation.encode(value)))
        #expect(try StreamingJSONEncoder().encode(value) == bytes, "equal values give equal bytes")
        for fragment in [try StreamingJSONEncoder().encode("a\"b"), try StreamingJSONEncoder().encode(42)] {
            #expect(try sameDocument(fragment, Data(fragment)))
        }
        #expect(try StreamingJSONEncoder().encode([1.5, 2, -3]) == Array("[1.5,2,-3]".utf8))
    }

    @Test("Members are sorted by their keys' bytes, whatever order they were encoded in")
    func sortedMembers() throws {
        let bytes = try StreamingJSONEncoder().encode(["b": 1, "a": 2, "c": 3, "B": 4, "aa": 5])
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"B":4,"a":2,"aa":5,"b":1,"c":3}"#)
        let value = Self.numbers
        #expect(
            String(decoding: try StreamingJSONEncoder().encode(value), as: UTF8.self)
                == #"{"double":-0,"flag":false,"float":0.1,"int":-9223372036854775808,"int16":32767,"int32":-2147483648,"int64":9223372036854775807,"int8":-128,"uint":18446744073709551615,"uint16":0,"uint32":4000000000,"uint64":18446744073709551615,"uint8":255}"#
        )
    }

    /// Writes its keys in reverse, one of them twice, a nested container between, and a value
    /// through `superEncoder`.
    struct Unusual: Encodable {
        enum Keys: String, CodingKey { case a, b, c, d }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .d)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .c)
            try nested.encode("x", forKey: .b)
            try nested.encode("y", forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode(3, forKey: .b)
            try [7, 8].encode(to: container.superEncoder(forKey: .a))
        }
    }

    @Test("A key written twice keeps its last value; nested containers and super encoders close in place")
    func unusualConformance() throws {
        let bytes = try StreamingJSONEncoder().encode(Unusual())
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":[7,8],"b":3,"c":{"a":"y","b":"x"},"d":1}"#)
        #expect(try sameDocument(bytes, foundation.encode(Unusual())))
    }

    /// Writes into its first nested container after opening a second: a container this
    /// encoder has closed by then; `quietly`, it ignores the error that late write gets.
    struct OutOfOrder: Encodable {
        var quietly = false
        enum Keys: String, CodingKey { case first, second }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var first = container.nestedUnkeyedContainer(forKey: .first)
            var second = container.nestedUnkeyedContainer(forKey: .second)
            try second.encode(2)
            if quietly { try? first.encode(1) } else { try first.encode(1) }
        }
    }

    @Test(
        "A conformance that writes into a container after a sibling took its place is written by Foundation's encoder")
    func outOfOrderFallsBack() throws {
        for quietly in [false, true] {
            let bytes = try StreamingJSONEncoder().encode(OutOfOrder(quietly: quietly))
            #expect(String(decoding: bytes, as: UTF8.self) == #"{"first":[1],"second":[2]}"#, "quietly: \(quietly)")
        }
    }

    @Test("A number JSON cannot hold is refused, as Foundation's encoder refuses it")
    func nonFinite() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(["x": value]) }
        }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([Float.nan]) }
    }

    struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct EmptyContainer: Encodable {
        enum Keys: CodingKey { case a }
        func encode(to encoder: any Encoder) throws { _ = encoder.container(keyedBy: Keys.self) }
    }

    @Test("A value that writes nothing is an empty object, as in Foundation's encoder")
    func emptyValues() throws {
        #expect(try StreamingJSONEncoder().encode([Empty()]) == Array("[{}]".utf8))
        #expect(try StreamingJSONEncoder().encode(["k": EmptyContainer()]) == Array(#"{"k":{}}"#.utf8))
        #expect(try foundation.encode([Empty()]) == Data("[{}]".utf8))
    }
}

extension StreamingJSONEncoderTests {
    /// Writes the coding path its encoder gives as its value.
    struct PathProbe: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "."))
        }
    }

    @Test("A value is told its coding path, as Foundation's encoder tells it")
    func codingPaths() throws {
        let value = ["outer": ["inner": [PathProbe(), PathProbe()]]]
        let bytes = try StreamingJSONEncoder().encode(value)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"outer":{"inner":["outer.inner.Index 0","outer.inner.Index 1"]}}"#)
        #expect(try sameDocument(bytes, foundation.encode(value)))
    }
}

extension StreamingJSONEncoderTests {
    /// Tries a member that cannot be written, ignores the error, and goes on.
    struct SwallowsAnError: Encodable {
        enum Keys: String, CodingKey { case a, b, c }
        struct Throws: Encodable {
            enum Keys: String, CodingKey { case x, y }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .x)
                throw EncodingError.invalidValue(
                    self, EncodingError.Context(codingPath: container.codingPath, debugDescription: "no"))
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try? container.encode(Double.nan, forKey: .a)
            try? container.encode(Throws(), forKey: .c)
            try container.encode(2, forKey: .b)
        }
    }

    @Test("A value that ignores an error of its own writing gets what Foundation's encoder writes for it")
    func swallowedErrors() throws {
        let bytes = try StreamingJSONEncoder().encode(SwallowsAnError())
        #expect(try sameDocument(bytes, foundation.encode(SwallowsAnError())))
        #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [String: Any], "valid JSON")
    }
}
