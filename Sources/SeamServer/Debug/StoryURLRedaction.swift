import Foundation

/// How a URL appears in a session's story and its log lines: the host, path and query names as
/// they were, so an operator sees which parameters an ad request carried, but the values of
/// parameters that hold secrets (tokens, keys, signatures) or a viewer's personal data (address,
/// user agent, device ids, consent strings) replaced by `REDACTED`, and no user information.
enum StoryURLRedaction {
    static let mask = "REDACTED"

    /// Parameter names, lowercased, whose values are never shown: whole names, and fragments a
    /// name containing one is hidden for.
    static let hiddenNames: Set<String> = [
        "ip", "uip", "dip", "ua", "did", "ifa", "idfa", "aaid", "rdid", "adid", "email", "lat", "lon", "sig",
        "gdpr_consent", "us_privacy", "gpp", "consent", "nonce", "paln", "givn",
    ]
    static let hiddenFragments = [
        "token", "secret", "password", "passwd", "signature", "auth", "credential", "key", "session",
        "device", "user_agent", "useragent", "address", "email",
    ]

    static func redacted(_ url: String) -> String {
        var text = Substring(url)
        var fragment: Substring = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = text[hash...]
            text = text[..<hash]
        }
        var head = text
        var query: Substring?
        if let mark = text.firstIndex(of: "?") {
            head = text[..<mark]
            query = text[text.index(after: mark)...]
        }
        var result = withoutUserInfo(head)
        if let query {
            result += "?"
            result += query.split(separator: "&", omittingEmptySubsequences: false).map(redactedPair).joined(
                separator: "&")
        }
        return result + fragment
    }

    /// `scheme://user:password@host/...` without `user:password@`.
    private static func withoutUserInfo(_ head: Substring) -> String {
        guard let scheme = head.range(of: "://") else { return String(head) }
        let authorityStart = scheme.upperBound
        let authorityEnd = head[authorityStart...].firstIndex(of: "/") ?? head.endIndex
        guard let at = head[authorityStart..<authorityEnd].lastIndex(of: "@") else { return String(head) }
        return String(head[..<authorityStart]) + head[head.index(after: at)...]
    }

    private static func redactedPair(_ pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
        let name = pair[..<equals]
        let value = pair[pair.index(after: equals)...]
        guard !value.isEmpty, isHidden(name) else { return String(pair) }
        return "\(name)=\(mask)"
    }

    static func isHidden(_ name: Substring) -> Bool {
        let lowered = (name.removingPercentEncoding ?? String(name)).lowercased()
        if hiddenNames.contains(lowered) { return true }
        return hiddenFragments.contains { lowered.contains($0) }
    }
}
