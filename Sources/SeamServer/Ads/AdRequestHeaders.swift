/// The headers of every server-side request to the ADS (ad tag and wrapper tag URIs).
///
/// SSAI requests come from Seam's address, so the viewer's address and player travel in headers
/// the ad servers know: `X-Device-IP` and `X-Forwarded-For` (the IP), `X-Device-User-Agent` and
/// `User-Agent` (the player's UA, so device targeting and IVT filtering see the device, not Seam).
/// The session's `adTagHeaders` come last and replace a default of the same name. Values holding
/// CR, LF or NUL and names that are not HTTP tokens are dropped (no header injection from session
/// input), and so are the headers the HTTP client owns (`Host`, `Content-Length`, ...).
enum AdRequestHeaders {
    static func headers(for context: AdRequestContext) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("Accept", "application/xml, text/xml;q=0.9, */*;q=0.5")]
        if let ip = context.deviceIP, !ip.isEmpty {
            headers.append(("X-Device-IP", ip))
            headers.append(("X-Forwarded-For", ip))
        }
        if let userAgent = context.userAgent, !userAgent.isEmpty {
            headers.append(("X-Device-User-Agent", userAgent))
            headers.append(("User-Agent", userAgent))
        }
        for (name, value) in context.adTagHeaders.sorted(by: { $0.key < $1.key }) {
            guard isToken(name), isSafeValue(value), !reserved.contains(name.lowercased()) else { continue }
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            headers.append((name, value))
        }
        return headers.filter { isSafeValue($0.value) }
    }

    /// Headers the HTTP client sets itself; a session must not override them.
    static let reserved: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "keep-alive"]

    /// RFC 9110 token characters.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    static func isSafeValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
