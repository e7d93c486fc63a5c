/// What Seam does with personal data (the viewer's IP address, User-Agent and device ids) before
/// an analytics event leaves it. One mode per deployment (`analytics.privacy`); what each promises
/// is in `docs/analytics.md`.
package enum AnalyticsPrivacyMode: String, Sendable, Codable, CaseIterable {
    /// As received. For collectors that are allowed to hold personal data.
    case clear
    /// Each value sealed with AES-256-GCM under `analytics.encryptionKey`: the collector stores
    /// ciphertext, and whoever holds the key can open one value on request (`seam analytics decrypt`).
    case encrypted
    /// IP addresses truncated (IPv4 to /24, IPv6 to /48), User-Agent and device ids replaced by
    /// keyed hashes whose key rotates: values link within a period and can never be turned back.
    case anonymized
    /// No personal field at all, not even empty.
    case delete
}
