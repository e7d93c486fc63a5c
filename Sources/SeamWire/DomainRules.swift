import Foundation

/// Which content hosts go through Seam: `all`, `none`, or a custom list of hosts and `*.suffix`
/// wildcards. The server's `DomainMatcher` decides with these rules which content it inserts ads
/// into; SeamKit decides with the same rules whether to call Seam at all, so an app configured
/// like its Seam never asks for a session Seam would pass through.
public struct DomainRules: Sendable, Hashable {
    public enum Rule: Sendable, Hashable {
        case all
        case none
        case custom(HostList)
    }

    public let rule: Rule

    public init(rule: Rule) { self.rule = rule }

    public static let all = DomainRules(rule: .all)
    public static let none = DomainRules(rule: .none)

    /// `custom` with these entries (exact hosts and `*.suffix` wildcards).
    public static func custom(_ hosts: [String]) throws(HostPatternError) -> DomainRules {
        DomainRules(rule: .custom(try HostList(hosts)))
    }

    /// Whether content from `host` gets ads.
    public func intercepts(host: String) -> Bool {
        switch rule {
        case .all: return true
        case .none: return false
        case .custom(let list): return list.contains(host)
        }
    }

    /// Whether this content URL gets ads: an absolute http(s) URL with a host the rules take. A
    /// URL that is not absolute http(s) is never intercepted. (The server reads URLs with its own
    /// strict parser, which refuses more; both then ask `intercepts(host:)`.)
    public func intercepts(url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.host, !host.isEmpty
        else { return false }
        return intercepts(host: host)
    }
}
