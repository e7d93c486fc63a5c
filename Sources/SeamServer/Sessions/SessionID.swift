/// A session id: 128 random bits from the system's secure generator, as 26 base32 characters.
/// Unguessable, so a session URL is its own capability.
public struct SessionID: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    public static func random() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        var bits = (UInt64.random(in: .min ... .max, using: &generator), UInt64.random(in: .min ... .max, using: &generator))
        var characters: [UInt8] = []
        characters.reserveCapacity(26)
        for _ in 0..<26 {
            characters.append(alphabet[Int(bits.0 & 31)])
            bits.0 = (bits.0 >> 5) | (bits.1 << 59)
            bits.1 >>= 5
        }
        return SessionID(uncheckedValue: String(decoding: characters, as: UTF8.self))
    }

    private init(uncheckedValue: String) {
        value = uncheckedValue
    }

    /// Accepts only well-formed ids, so hostile path segments never reach a lookup.
    public init?(_ text: Substring) {
        guard text.utf8.count == 26, text.utf8.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        value = String(text)
    }

    public var description: String { value }
}
