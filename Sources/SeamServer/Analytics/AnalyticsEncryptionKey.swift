import Crypto
import Foundation

/// Why an analytics key or an encrypted value cannot be used; the message says what to do.
package struct AnalyticsKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}

/// The AES-256-GCM key of the `encrypted` privacy mode.
///
/// Each value is sealed on its own with a fresh random 96-bit nonce and written as the base64 of
/// nonce, ciphertext and 128-bit tag (`AES.GCM.SealedBox.combined`), so a collector stores one
/// opaque string per field and anyone holding the key opens it with any AES-GCM library, or with
/// `seam analytics decrypt`. The tag means a value altered, or opened with another key, fails
/// rather than decrypting to garbage. Equal values give different ciphertexts: encrypted fields
/// cannot be joined or counted by the collector (use `anonymized` for that).
package struct AnalyticsEncryptionKey: Sendable {
    package static let byteCount = 32
    let key: SymmetricKey

    /// - Parameter base64: 32 bytes in standard base64 (`openssl rand -base64 32`).
    package init(base64: String) throws(AnalyticsKeyError) {
        let text = base64.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw AnalyticsKeyError(
                "no key is set; give analytics.encryptionKey 32 random bytes in base64 (openssl rand -base64 32)")
        }
        guard let bytes = Data(base64Encoded: text) else {
            throw AnalyticsKeyError(
                "analytics.encryptionKey is not base64; give 32 random bytes in base64 (openssl rand -base64 32)")
        }
        guard bytes.count == Self.byteCount else {
            throw AnalyticsKeyError(
                "analytics.encryptionKey is \(bytes.count) bytes long after base64 decoding; AES-256-GCM needs exactly \(Self.byteCount) (openssl rand -base64 32)"
            )
        }
        key = SymmetricKey(data: bytes)
    }

    /// `value` sealed under a fresh nonce: base64 of nonce (12 bytes), ciphertext and tag (16 bytes).
    package func seal(_ value: String) -> String {
        // Sealing with a valid 32-byte key and a generated nonce does not fail; should the library
        // ever throw, the field is sent empty rather than in clear.
        guard let box = try? AES.GCM.seal(Data(value.utf8), using: key, nonce: AES.GCM.Nonce()),
            let combined = box.combined
        else { return "" }
        return combined.base64EncodedString()
    }

    /// The original of a value `seal` wrote. Fails for another key, an altered value or text that
    /// is not such a value.
    package func open(_ sealed: String) throws(AnalyticsKeyError) -> String {
        guard let data = Data(base64Encoded: sealed.trimmingCharacters(in: .whitespacesAndNewlines)),
            data.count >= 12 + 16
        else {
            throw AnalyticsKeyError(
                "not an encrypted analytics value (base64 of a 12-byte nonce, the ciphertext and a 16-byte tag)")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: data)
            let plain = try AES.GCM.open(box, using: key)
            return String(decoding: plain, as: UTF8.self)
        } catch {
            throw AnalyticsKeyError("the value does not open with this key: another key sealed it, or it was altered")
        }
    }
}
