import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The keys of the `anonymized` mode's hashes, one per period of `analytics.hashRotationSeconds`
/// counted from the Unix epoch (a day by default: periods start at 00:00 UTC).
///
/// With `analytics.hashSecret` set, a period's key is HMAC-SHA256(secret, "seam-analytics-hash-key/"
/// + period number): every replica with the same secret and a synchronised clock hashes a value
/// alike, so one viewer links across replicas within a period. Whoever holds the secret can hash
/// guessed values and compare; it is a secret like a password. Without a secret each process draws
/// a random key per period and forgets it by the end of the period after it: nobody, Seam
/// included, can link or test values afterwards, and replicas do not agree.
///
/// A value type over shared state (the random key of the current period): copies are the same keys.
package struct AnalyticsHashKeys: Sendable {
    package static let minimumSecretLength = 32

    let rotation: Double
    private let secret: SymmetricKey?
    /// Random keys of the newest two periods seen: an event stamped just before a rollover and
    /// hashed just after still finds its period's key, and the new period keeps one key.
    private let recent: NIOLockedValueBox<[Int64: SymmetricKey]>

    /// - Parameters:
    ///   - secret: `analytics.hashSecret`; empty for random keys.
    ///   - rotationSeconds: `analytics.hashRotationSeconds`.
    package init(secret: String, rotationSeconds: Double) {
        self.secret = secret.isEmpty ? nil : SymmetricKey(data: Data(secret.utf8))
        rotation = rotationSeconds.isFinite && rotationSeconds >= 1 ? rotationSeconds : 86_400
        recent = NIOLockedValueBox([:])
    }

    /// The number of the period `date` falls in.
    package func period(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / rotation).rounded(.down))
    }

    /// When period `period` began.
    package func start(of period: Int64) -> Date {
        Date(timeIntervalSince1970: Double(period) * rotation)
    }

    /// The key for the period `date` falls in.
    func key(at date: Date) -> SymmetricKey {
        let period = period(of: date)
        if let secret {
            let code = HMAC<SHA256>.authenticationCode(
                for: Data("seam-analytics-hash-key/\(period)".utf8), using: secret)
            return SymmetricKey(data: Data(code))
        }
        return recent.withLockedValue { recent in
            if let key = recent[period] { return key }
            let fresh = SymmetricKey(size: .bits256)
            recent[period] = fresh
            // Forget all but the newest two periods: an old key is what must not survive.
            if recent.count > 2, let newest = recent.keys.max() {
                recent = recent.filter { $0.key >= newest - 1 }
            }
            return fresh
        }
    }

    /// `value`'s keyed hash for the period `date` falls in: HMAC-SHA256, lowercase hex.
    package func hash(_ value: String, at date: Date) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: key(at: date))
        return code.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
