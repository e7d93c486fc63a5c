import NIOConcurrencyHelpers

/// Keeps one copy of values many sessions hold alike — a live channel's sessions' origin URLs, the
/// segment URLs of a creative every VOD session that plays it redirects to, identical beacon
/// lists — so each session holds a reference to the shared storage instead of its own copy.
///
/// Bounded: when it holds `capacity` values it starts over (sessions keep what they were given;
/// later ones fill it again), so memory follows what is in use.
final class Interner<Value: Hashable & Sendable>: Sendable {
    private let values = NIOLockedValueBox<Set<Value>>([])
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The value already held equal to `value`, else `value` (now held).
    func intern(_ value: Value) -> Value {
        values.withLockedValue { values in
            if let shared = values.firstIndex(of: value) { return values[shared] }
            if values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values.insert(value)
            return value
        }
    }

    var count: Int { values.withLockedValue { $0.count } }
}

/// The strings a live channel's sessions share (`LiveChannel.interner`).
typealias StringInterner = Interner<String>
