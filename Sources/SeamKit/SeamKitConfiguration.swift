import Foundation
@_exported import SeamWire

/// Where Seam is and which content goes through it: the settings an app gives `SeamClient` once.
public struct SeamKitConfiguration: Sendable, Equatable {
    /// Seam's base URL (`https://seam.example.com`); sessions are made at `/v1/sessions` under it.
    public var seamBaseURL: URL
    /// Which content hosts go through Seam: the same rules as the server's `domains` section, so
    /// content Seam would pass through never costs a round trip.
    public var domainRules: DomainRules
    /// Seconds between keep-alives; `nil` takes the server's `keepAliveSeconds`. Either way
    /// clamped to 5–10 s: often enough to survive a lost request within the server's TTL, rarely
    /// enough not to cost battery.
    public var keepAliveInterval: Double?

    public init(seamBaseURL: URL, domainRules: DomainRules = .all, keepAliveInterval: Double? = nil) {
        self.seamBaseURL = seamBaseURL
        self.domainRules = domainRules
        self.keepAliveInterval = keepAliveInterval
    }

    /// The shortest and longest keep-alive interval SeamKit uses, seconds.
    public static let keepAliveRange: ClosedRange<Double> = 5...10

    /// The interval a session keeps alive at: the configured one, else the server's, clamped to
    /// `keepAliveRange` (a non-finite or missing value takes the longest).
    public func keepAliveInterval(serverSuggests server: Double?) -> Double {
        let wanted = keepAliveInterval ?? server ?? Self.keepAliveRange.upperBound
        guard wanted.isFinite else { return Self.keepAliveRange.upperBound }
        return min(max(wanted, Self.keepAliveRange.lowerBound), Self.keepAliveRange.upperBound)
    }
}
