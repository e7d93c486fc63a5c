import NIOConcurrencyHelpers

/// Hands out one shared copy of equal strings. Thousands of viewers of a channel often get the
/// same ad answer (tracking URLs whose macros are filled only when a beacon fires), and each
/// session keeping its own copy of every URL would be most of its memory. Bounded: when full it
/// starts over, so it never holds more than `capacity` strings.
final class StringInterner: Sendable {
    private let strings = NIOLockedValueBox<Set<String>>([])
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func intern(_ string: String) -> String {
        strings.withLockedValue { strings in
            if let shared = strings.firstIndex(of: string) { return strings[shared] }
            if strings.count >= capacity { strings.removeAll(keepingCapacity: true) }
            strings.insert(string)
            return string
        }
    }
}
