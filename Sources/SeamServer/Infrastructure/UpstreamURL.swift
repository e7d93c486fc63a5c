/// An absolute http(s) URL taken apart the strict way Seam needs before fetching it.
///
/// Seam parses upstream URLs itself rather than trusting a general URL parser, because SSRF tricks
/// live in the differences between parsers: `http://allowed.com@evil.com/` (user info; refused here),
/// percent-encoded or bracketed hosts, stray white space. What this type calls `host` is the host
/// the request really goes to.
package struct UpstreamURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    package let scheme: String
    /// Lower case, no trailing dot, IPv6 without brackets.
    package let host: String
    /// The port as written, or nil for the scheme's default.
    package let explicitPort: Int?
    /// Path and query, always starting with `/`; the fragment is dropped.
    package let pathAndQuery: String

    package var port: Int { explicitPort ?? (scheme == "https" ? 443 : 80) }

    package init(_ text: String) throws(UpstreamError) {
        // White space and control characters have no place in a URL and hide request smuggling.
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) { throw .invalidURL(text) }
        guard let schemeEnd = text.range(of: "://") else { throw .invalidURL(text) }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw .invalidURL(text) }
        let afterScheme = text[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        // User info is refused outright: it has no use upstream and is the classic way to make one
        // parser see a different host than another.
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains("%"), !authority.contains("\\") else {
            throw .invalidURL(text)
        }

        var hostPart: Substring
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(text) }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .invalidURL(text) }
                portPart = rest.dropFirst()
            }
            guard case .v6 = IPAddress(String(hostPart)) else { throw .invalidURL(text) }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[authority.index(after: colon)...]
            } else {
                hostPart = authority
            }
            guard HostPattern.isHostName(HostPattern.normalize(String(hostPart))) else { throw .invalidURL(text) }
        }
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCIIDigit),
                let port = Int(portPart), (1...65535).contains(port)
            else { throw .invalidURL(text) }
            explicitPort = port
        } else {
            explicitPort = nil
        }
        self.scheme = scheme
        host = HostPattern.normalize(String(hostPart))
        var rest = afterScheme[authorityEnd...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        pathAndQuery = Self.encodingInvalidCharacters(
            rest.isEmpty ? "/" : (rest.hasPrefix("?") ? "/" + rest : String(rest)))
    }

    /// `text` with every byte RFC 3986 does not allow in a path or query (`[`, `]`, `{`, `|`,
    /// `"`, `<`, `^`, non-ASCII, ...) percent-encoded, and nothing else: `%` is never encoded
    /// again. A URL that is already valid is returned as it is.
    ///
    /// Why: given an invalid URL, the HTTP client's URL parser encoded the whole query again, `%`
    /// included, so an ad tag with one unexpanded macro reached the ad server with every
    /// parameter encoded twice (`v=1%2526...`).
    static func encodingInvalidCharacters(_ text: String) -> String {
        func allowed(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                // Unreserved, sub-delims, ":", "@", "/", "?" and "%" (already encoded bytes).
                return "-._~!$&'()*+,;=:@/?%".utf8.contains(byte)
            }
        }
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        // The common case, without a copy: nothing to encode and no `%` to look at.
        if text.utf8.allSatisfy({ allowed($0) && $0 != UInt8(ascii: "%") }) { return text }
        let input = Array(text.utf8)
        // A `%` is an encoded byte only when two hex digits follow; a lone one is encoded itself.
        func valid(at index: Int) -> Bool {
            let byte = input[index]
            guard byte == UInt8(ascii: "%") else { return allowed(byte) }
            return index + 2 < input.count && isHex(input[index + 1]) && isHex(input[index + 2])
        }
        guard !input.indices.allSatisfy(valid) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count + 16)
        for index in input.indices {
            let byte = input[index]
            if valid(at: index) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` starts with `http://` or `https://` in any letter case (URL schemes are
    /// case-insensitive, RFC 3986 section 3.1). For templates and prefixes that are not whole URLs.
    package static func hasHTTPScheme(_ text: String) -> Bool {
        let lowered = text.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// `text` with its scheme and authority in lower case (both are case-insensitive), the rest as
    /// written: `HTTPS://Origin.Example/Live/` → `https://origin.example/Live/`. For comparing
    /// URL prefixes with URLs Seam has normalised.
    package static func lowercasingSchemeAndAuthority(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return text[..<authorityEnd].lowercased() + text[authorityEnd...]
    }

    /// The host as it goes in a URL or `Host` header (IPv6 in brackets), with the port when it is
    /// not the default.
    package var authority: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        if let explicitPort, explicitPort != (scheme == "https" ? 443 : 80) { return "\(hostText):\(explicitPort)" }
        return hostText
    }

    package var description: String { "\(scheme)://\(authority)\(pathAndQuery)" }

    /// The same URL with the host replaced by `address`, for connecting to an address Seam has checked.
    func pinned(to address: IPAddress) -> String {
        let hostText: String
        switch address {
        case .v4: hostText = address.description
        case .v6: hostText = "[\(address.description)]"
        }
        return "\(scheme)://\(hostText):\(port)\(pathAndQuery)"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
