/// Who the viewer is when Seam sits behind proxies (`server.trustedProxies`).
///
/// A forwarded header is only as true as whoever wrote it. Seam reads `X-Forwarded-For` (or, when
/// there is none, RFC 7239 `Forwarded`'s `for=`) only from a connection whose peer is a trusted
/// proxy, and then from the right: every trusted proxy appends the address it saw, so the
/// right-most address that is not a trusted proxy is the last one a trusted party vouched for.
/// Anything left of it was written by the client. Before, the left-most element was believed from
/// anyone and sent to the ad server verbatim (3,000 bytes of it, or `<script>`): ad fraud and
/// geo-targeting evasion in one header.
struct TrustedProxies: Sendable, Equatable {
    let networks: [IPNetwork]

    /// At most this many forwarded addresses are read, from the right.
    static let maxHops = 32

    init(_ entries: [String]) {
        networks = entries.compactMap { IPNetwork(ConfigurationKey.trim($0)) }
    }

    func trusts(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// The viewer's address: the right-most forwarded address that is not a trusted proxy, when
    /// the peer is one and that address is a valid IP address; otherwise the peer's.
    ///
    /// - Parameters:
    ///   - peer: the connection's peer address, as text (nil when unknown, in router-only tests).
    ///   - forwardedFor: every `X-Forwarded-For` field value, in order.
    ///   - forwarded: every `Forwarded` field value, in order (read only without `X-Forwarded-For`).
    func clientIP(peer: String?, forwardedFor: [String], forwarded: [String]) -> String? {
        guard let peerText = peer, let peerAddress = IPAddress(peerText) else { return peer }
        guard trusts(peerAddress) else { return peerAddress.description }
        let chain = forwardedFor.isEmpty ? Self.forElements(forwarded) : Self.elements(forwardedFor)
        var leftmost: IPAddress?
        for element in chain.suffix(Self.maxHops).reversed() {
            guard let address = Self.address(element) else { return peerAddress.description }
            guard trusts(address) else { return address.description }
            leftmost = address
        }
        // Every hop a trusted proxy: the first of them is as near the viewer as Seam can tell.
        return (leftmost ?? peerAddress).description
    }

    /// `X-Forwarded-For` elements, trimmed, in order.
    static func elements(_ values: [String]) -> [Substring] {
        values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmed(of: " \t") }
    }

    /// The `for=` values of `Forwarded` elements, in order (RFC 7239 section 4).
    static func forElements(_ values: [String]) -> [Substring] {
        var result: [Substring] = []
        for element in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let pair = element.split(separator: ";").map { $0.trimmed(of: " \t") }
                .first { $0.lowercased().hasPrefix("for=") }
            // An element without `for=` is a hop Seam cannot place: read as no address.
            result.append(pair.map { $0.dropFirst(4) } ?? "")
        }
        return result.map { value in
            var text = value
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
            return text
        }
    }

    /// One forwarded address: `203.0.113.7`, `203.0.113.7:4711`, `2001:db8::1`, `[2001:db8::1]:4711`.
    static func address(_ text: Substring) -> IPAddress? {
        guard !text.isEmpty, text.count <= 64 else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return IPAddress(String(text[text.index(after: text.startIndex)..<close]))
        }
        if let address = IPAddress(String(text)) { return address }
        // IPv4 with a port.
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber),
            case .v4? = IPAddress(String(parts[0]))
        else { return nil }
        return IPAddress(String(parts[0]))
    }
}

extension Substring {
    fileprivate func trimmed(of set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
