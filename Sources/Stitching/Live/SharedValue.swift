/// A value kept in one shared allocation: copies of the struct that holds it share it instead of
/// carrying it inline. Every live session's timeline starts as a copy of its channel's
/// (`LiveChannel.begunTimeline`), so thousands of viewers hold one `LiveTimeline.Configuration`
/// (80 bytes each when inline). Read-only once made; encoded as the value itself, so records read
/// and write as before.
@propertyWrapper
public struct SharedValue<Value: Sendable & Codable & Equatable>: Sendable, Codable, Equatable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let box: Box

    public var wrappedValue: Value { box.value }

    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    public init(from decoder: any Decoder) throws {
        box = Box(try decoder.singleValueContainer().decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(box.value)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.box === b.box || a.box.value == b.box.value
    }

    /// Whether two holders share one allocation (for the tests of what is shared).
    public func isShared(with other: Self) -> Bool { box === other.box }

    public var projectedValue: Self { self }
}
