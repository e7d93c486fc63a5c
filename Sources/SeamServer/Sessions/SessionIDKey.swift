import Crypto

/// The per-deployment secret that signs session ids: an id carries HMAC-SHA256(secret, random
/// part), cut to 72 bits, so any instance holding the same secret recognises the ids every other
/// instance (or an earlier run) issued, and nobody without it can make one that passes.
///
/// The key is the UTF-8 bytes of the secret text as configured (`sessions.idSecret`) or as kept
/// in the state file, so copying that file's contents into `sessions.idSecret` gives replicas
/// the same key.
package struct SessionIDKey: Sendable {
    private let key: SymmetricKey

    /// Domain separation: the same secret used for anything else never yields a valid id tag.
    private static let label = Array("seam.session-id.v1:".utf8)

    /// Fewest characters accepted in a configured secret (a 64-hex-digit secret is what Seam generates).
    package static let minimumSecretLength = 32

    package init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    /// A key of 256 random bits, for tests and for a process that cannot keep a secret.
    package static func random() -> SessionIDKey {
        SessionIDKey(secret: randomSecret())
    }

    /// 256 random bits as 64 hex digits: what Seam writes into its state file.
    package static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A new id: fresh random bits and their check.
    package func issue() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        var random: [UInt8] = []
        random.reserveCapacity(SessionID.randomByteCount)
        for _ in 0..<SessionID.randomByteCount { random.append(UInt8.random(in: .min ... .max, using: &generator)) }
        return SessionID(bytes: random + tag(for: random))
    }

    /// Whether `id` was issued with this key (by this deployment, now or before a restart).
    /// Compares in constant time.
    package func issued(_ id: SessionID) -> Bool {
        guard let parts = id.parts else { return false }
        let expected = tag(for: parts.random)
        var difference: UInt8 = 0
        for (a, b) in zip(expected, parts.tag) { difference |= a ^ b }
        return difference == 0 && expected.count == parts.tag.count
    }

    private func tag(for random: [UInt8]) -> [UInt8] {
        let code = HMAC<SHA256>.authenticationCode(for: Self.label + random, using: key)
        return Array(code.prefix(SessionID.tagByteCount))
    }
}
