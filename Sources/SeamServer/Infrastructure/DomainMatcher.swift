/// Decides which content URLs Seam intercepts (inserts ads into). A URL that is not intercepted is
/// answered with a redirect to the origin, untouched, so `none` makes Seam a transparent redirect.
///
/// This is independent of which hosts Seam may *fetch* from (`upstream.allowedHosts`, enforced by
/// `SafeUpstreamClient`): intercepting a host does not make it fetchable.
public struct DomainMatcher: Sendable, Hashable {
    public enum Rule: Sendable, Hashable {
        case all
        case none
        case custom(HostList)
    }

    public let rule: Rule

    public init(rule: Rule) { self.rule = rule }

    public static let all = DomainMatcher(rule: .all)
    public static let none = DomainMatcher(rule: .none)

    /// `custom` with these entries (exact hosts and `*.suffix` wildcards).
    public static func custom(_ hosts: [String]) throws(HostPatternError) -> DomainMatcher {
        DomainMatcher(rule: .custom(try HostList(hosts)))
    }

    /// From the `domains` section. `hosts` is read only in `custom` mode.
    public init(configuration: SeamConfiguration.Domains) throws(HostPatternError) {
        switch configuration.mode {
        case .all: rule = .all
        case .none: rule = .none
        case .custom: rule = .custom(try HostList(configuration.hosts))
        }
    }

    /// Whether content from `host` gets ads.
    public func intercepts(host: String) -> Bool {
        switch rule {
        case .all: return true
        case .none: return false
        case .custom(let list): return list.contains(host)
        }
    }

    /// Whether this content URL gets ads. A URL that is not absolute http(s) is never intercepted.
    public func intercepts(url: String) -> Bool {
        guard let parsed = try? UpstreamURL(url) else { return false }
        return intercepts(host: parsed.host)
    }
}
