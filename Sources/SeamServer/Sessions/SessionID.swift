/// A session id: 128 random bits from the system's secure generator followed by a 72-bit keyed
/// check (`SessionIDKey`), as 40 lower-case base32 characters.
///
/// The random part makes the id unguessable, so a session URL is its own capability. The check
/// lets Seam tell an id it issued (and has since lost: the session expired, or Seam restarted
/// with its in-memory store) from one it never issued, and answer `410 SESSION_EXPIRED` to the
/// first and `404 SESSION_NOT_FOUND` to the second.
package struct SessionID: Sendable, Hashable, CustomStringConvertible {
    package let value: String

    static let randomByteCount = 16
    static let tagByteCount = 9
    /// (16 + 9) bytes × 8 bits / 5 bits per character.
    package static let length = 40

    /// From the raw bytes (random part, then check); only `SessionIDKey` makes these.
    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.randomByteCount + Self.tagByteCount, "a session id is 25 bytes")
        value = Base32.encode(bytes)
    }

    /// Accepts only well-formed ids, so hostile path segments never reach a lookup. Whether this
    /// deployment issued the id is `SessionIDKey.issued(_:)`'s question.
    package init?(_ text: Substring) {
        guard text.utf8.count == Self.length, text.utf8.allSatisfy(Base32.isDigit) else { return nil }
        value = String(text)
    }

    /// The random part and the check.
    var parts: (random: [UInt8], tag: [UInt8])? {
        guard let bytes = Base32.decode(value[...]), bytes.count == Self.randomByteCount + Self.tagByteCount else {
            return nil
        }
        return (Array(bytes[..<Self.randomByteCount]), Array(bytes[Self.randomByteCount...]))
    }

    package var description: String { value }
}

extension SessionID {
    /// A number in 0..<1 fixed by the id (FNV-1a of its text), evenly spread over ids: the same on
    /// every replica and every request, for choices made per session (which sessions' stories
    /// are logged, where in the prefetch spread a session asks).
    var stableFraction: Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Double(hash % 1_000_000) / 1_000_000
    }
}
