import Foundation

/// Applies the deployment's privacy mode to a session's personal data: what an analytics event's
/// `device` object holds (`AnalyticsEvent.Device`), or nil when it must have none.
package struct AnalyticsPrivacy: Sendable {
    package let mode: AnalyticsPrivacyMode
    let encryption: AnalyticsEncryptionKey?
    let hashKeys: AnalyticsHashKeys

    /// - Throws: when the mode is `encrypted` and `analytics.encryptionKey` is not a 32-byte base64 key
    ///   (loaded configurations are validated, so only for one built in code).
    package init(_ configuration: SeamConfiguration.Analytics) throws(AnalyticsKeyError) {
        mode = configuration.privacy
        encryption =
            configuration.privacy == .encrypted ? try AnalyticsEncryptionKey(base64: configuration.encryptionKey) : nil
        hashKeys = AnalyticsHashKeys(
            secret: configuration.hashSecret, rotationSeconds: configuration.hashRotationSeconds)
    }

    package init(mode: AnalyticsPrivacyMode, encryption: AnalyticsEncryptionKey? = nil, hashKeys: AnalyticsHashKeys) {
        self.mode = mode
        self.encryption = encryption
        self.hashKeys = hashKeys
    }

    /// `data` as the mode allows it to leave Seam, at `date` (which picks the hash key's period).
    /// Nil under `delete`, or when there is nothing personal to carry.
    package func device(_ data: PersonalData, at date: Date) -> AnalyticsEvent.Device? {
        guard !data.isEmpty else { return nil }
        switch mode {
        case .delete:
            return nil
        case .clear:
            return AnalyticsEvent.Device(
                ip: data.deviceIP, userAgent: data.userAgent, ids: data.deviceIDs.isEmpty ? nil : data.deviceIDs)
        case .encrypted:
            guard let encryption else { return nil }
            return AnalyticsEvent.Device(
                ip: data.deviceIP.map(encryption.seal), userAgent: data.userAgent.map(encryption.seal),
                ids: data.deviceIDs.isEmpty ? nil : data.deviceIDs.mapValues(encryption.seal),
                encryption: "AES-256-GCM")
        case .anonymized:
            let period = hashKeys.period(of: date)
            return AnalyticsEvent.Device(
                ip: data.deviceIP.flatMap(Self.truncated),
                userAgent: data.userAgent.map { hashKeys.hash($0, at: date) },
                ids: data.deviceIDs.isEmpty ? nil : data.deviceIDs.mapValues { hashKeys.hash($0, at: date) },
                hashPeriod: hashKeys.start(of: period).formatted(.iso8601))
        }
    }

    /// An IP address cut to its network: IPv4 to /24 (`203.0.113.0`), IPv6 to /48
    /// (`2001:db8:85a3::`); an IPv4 address written as IPv6 (`::ffff:203.0.113.7`) as IPv4.
    /// Nil for text that is not an address: it cannot be truncated, so it is not sent.
    package static func truncated(_ text: String) -> String? {
        guard let address = IPAddress(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        switch address {
        case .v4(let value):
            return IPAddress.v4(value & 0xFFFF_FF00).description
        case .v6(let high, let low):
            if high == 0, low >> 32 == 0xFFFF {
                return IPAddress.v4(UInt32(truncatingIfNeeded: low) & 0xFFFF_FF00).description
            }
            return IPAddress.v6(high: high & 0xFFFF_FFFF_FFFF_0000, low: 0).description
        }
    }
}
