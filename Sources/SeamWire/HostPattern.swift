#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One entry of a host list in configuration: an exact host name (`cdn.example.com`, `192.0.2.7`)
/// or a `*.suffix` wildcard (`*.example.com`).
///
/// Matching is case-insensitive and ignores a trailing dot, because DNS does. A wildcard needs at
/// least one more label: `*.example.com` matches `a.example.com` and `a.b.example.com` but neither
/// `example.com` itself (list it too if wanted) nor `badexample.com` (the match is on a label boundary).
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case exact(String)
        /// Stored with its leading dot: `.example.com`.
        case suffix(String)
    }

    public let kind: Kind

    /// Parses one configuration entry. Throws a message saying what a valid entry looks like.
    public init(_ text: String) throws(HostPatternError) {
        let trimmed = HostPattern.trim(text)
        if trimmed.hasPrefix("*.") {
            let suffix = HostPattern.normalize(String(trimmed.dropFirst(2)))
            guard !suffix.isEmpty, HostPattern.isHostName(suffix) else {
                throw HostPatternError(
                    entry: text, reason: "a wildcard is `*.` followed by a domain, like *.example.com")
            }
            kind = .suffix("." + suffix)
        } else {
            if trimmed == "*" {
                throw HostPatternError(
                    entry: text,
                    reason:
                        "a bare `*` is not a host; to match every host use domains.mode=all, or leave upstream.allowedHosts empty"
                )
            }
            if trimmed.contains("*") {
                throw HostPatternError(
                    entry: text, reason: "`*` is only allowed as the first label, like *.example.com")
            }
            if trimmed.contains("://") || trimmed.contains("/") {
                throw HostPatternError(
                    entry: text,
                    reason:
                        "write only the host name, without scheme or path (cdn.example.com, not https://cdn.example.com/)"
                )
            }
            let host = HostPattern.normalize(trimmed)
            guard !host.isEmpty, HostPattern.isHostName(host) || HostPattern.isIPAddress(host) else {
                throw HostPatternError(entry: text, reason: "not a host name or IP address")
            }
            kind = .exact(host)
        }
    }

    public func matches(_ host: String) -> Bool {
        let candidate = HostPattern.normalize(host)
        switch kind {
        case .exact(let name): return candidate == name
        case .suffix(let suffix): return candidate.count > suffix.count && candidate.hasSuffix(suffix)
        }
    }

    public var description: String {
        switch kind {
        case .exact(let name): return name
        case .suffix(let suffix): return "*" + suffix
        }
    }

    /// Lower case, no trailing dot, no IPv6 brackets: the form hosts are compared in.
    public static func normalize(_ host: String) -> String {
        var value = host.lowercased()
        if value.hasPrefix("["), value.hasSuffix("]") { value = String(value.dropFirst().dropLast()) }
        while value.hasSuffix(".") { value.removeLast() }
        return value
    }

    /// Letters, digits, `-`, `_` and dots, with no empty label.
    public static func isHostName(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.utf8.count <= 63 else { return false }
            for byte in label.utf8 {
                let ok =
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
                if !ok { return false }
            }
        }
        return true
    }
}

public struct HostPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    public var entry: String
    public var reason: String

    public init(entry: String, reason: String) {
        self.entry = entry
        self.reason = reason
    }

    public var description: String { "\"\(entry)\": \(reason)" }
}

extension HostPattern {
    /// Whitespace off both ends, as configuration values are read.
    static func trim(_ text: String) -> String {
        var view = Substring(text)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }

    /// Whether `host` is an IPv4 or IPv6 literal in the forms `inet_pton` accepts (IPv6 with an
    /// optional `%zone`), the same test the server's `IPAddress` makes.
    public static func isIPAddress(_ host: String) -> Bool {
        var value = Substring(host)
        if value.hasPrefix("["), value.hasSuffix("]") { value = value.dropFirst().dropLast() }
        if let zone = value.firstIndex(of: "%") { value = value[..<zone] }
        let string = String(value)
        if !string.contains(":") {
            var address = in_addr()
            return inet_pton(AF_INET, string, &address) == 1
        }
        var address = in6_addr()
        return inet_pton(AF_INET6, string, &address) == 1
    }
}

/// A list of `HostPattern`s; a host is in the list when any pattern matches it.
public struct HostList: Sendable, Hashable {
    public let patterns: [HostPattern]

    public init(_ patterns: [HostPattern]) { self.patterns = patterns }

    public init(_ entries: [String]) throws(HostPatternError) {
        var patterns: [HostPattern] = []
        for entry in entries { patterns.append(try HostPattern(entry)) }
        self.patterns = patterns
    }

    public var isEmpty: Bool { patterns.isEmpty }

    public func contains(_ host: String) -> Bool { patterns.contains { $0.matches(host) } }
}
