// The host rules (`HostPattern`, `HostList`, `DomainRules`) live in SeamWire, shared with SeamKit;
// re-exported so the server and its tests name them as before.
@_exported import SeamWire

/// Decides which content URLs Seam intercepts (inserts ads into). A URL that is not intercepted is
/// answered with a redirect to the origin, untouched, so `none` makes Seam a transparent redirect.
/// The decision is `DomainRules`' (SeamWire), the same one SeamKit makes on the device.
///
/// This is independent of which hosts Seam may *fetch* from (`upstream.allowedHosts`, enforced by
/// `SafeUpstreamClient`): intercepting a host does not make it fetchable.
package struct DomainMatcher: Sendable, Hashable {
    package typealias Rule = DomainRules.Rule

    package let rules: DomainRules

    package var rule: Rule { rules.rule }

    package init(rule: Rule) { rules = DomainRules(rule: rule) }

    package init(rules: DomainRules) { self.rules = rules }

    package static let all = DomainMatcher(rule: .all)
    package static let none = DomainMatcher(rule: .none)

    /// `custom` with these entries (exact hosts and `*.suffix` wildcards).
    package static func custom(_ hosts: [String]) throws(HostPatternError) -> DomainMatcher {
        DomainMatcher(rules: try DomainRules.custom(hosts))
    }

    /// From the `domains` section. `hosts` is read only in `custom` mode.
    package init(configuration: SeamConfiguration.Domains) throws(HostPatternError) {
        switch configuration.mode {
        case .all: rules = .all
        case .none: rules = .none
        case .custom: rules = try .custom(configuration.hosts)
        }
    }

    /// Whether content from `host` gets ads.
    package func intercepts(host: String) -> Bool {
        rules.intercepts(host: host)
    }

    /// Whether this content URL gets ads. A URL that is not absolute http(s) is never intercepted.
    package func intercepts(url: String) -> Bool {
        guard let parsed = try? UpstreamURL(url) else { return false }
        return intercepts(host: parsed.host)
    }
}
