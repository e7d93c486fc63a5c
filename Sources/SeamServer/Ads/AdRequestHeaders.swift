/// The headers of every server-side request to the ADS (ad tag and wrapper tag URIs).
///
/// SSAI requests come from Seam's address, so the viewer's address and player travel in headers
/// the ad servers know: `X-Device-IP` and `X-Forwarded-For` (the IP), `X-Device-User-Agent` and
/// `User-Agent` (the player's UA, so device targeting and IVT filtering see the device, not Seam).
/// The session's `adTagHeaders` come last and replace a default of the same name. A header that
/// cannot go out as it is — a name that is not an HTTP token, a value with a control character or
/// a non-ASCII byte, one longer than ``maxValueBytes``, one past the first ``maxSessionHeaders``,
/// or one the HTTP client owns (`Host`, `Content-Length`, ...) — is dropped, named in `dropped`
/// (the caller logs it), and the rest of the request goes: before, one such value failed the
/// whole ad request.
enum AdRequestHeaders {
    /// The most `adTagHeaders` sent; those after them (by name) are dropped.
    static let maxSessionHeaders = 32
    /// The longest `adTagHeaders` value sent, in bytes.
    static let maxValueBytes = 4096

    static func headers(for context: AdRequestContext) -> [(name: String, value: String)] {
        build(for: context).headers
    }

    /// The headers, and each session header dropped with why.
    static func build(
        for context: AdRequestContext
    ) -> (headers: [(name: String, value: String)], dropped: [(name: String, reason: String)]) {
        var headers: [(name: String, value: String)] = [("Accept", "application/xml, text/xml;q=0.9, */*;q=0.5")]
        var dropped: [(name: String, reason: String)] = []
        headers += BeaconViewer(deviceIP: context.deviceIP, userAgent: context.userAgent).headers
        for (index, (name, value)) in context.adTagHeaders.sorted(by: { $0.key < $1.key }).enumerated() {
            let shownName = isToken(name) ? name : "(a name that is not an HTTP token)"
            if index >= maxSessionHeaders {
                dropped.append((shownName, "more than \(maxSessionHeaders) adTagHeaders"))
            } else if !isToken(name) {
                dropped.append((shownName, "not an HTTP header name"))
            } else if reserved.contains(name.lowercased()) {
                dropped.append((shownName, "the HTTP client sets it"))
            } else if value.utf8.count > maxValueBytes {
                dropped.append((shownName, "its value is longer than \(maxValueBytes) bytes"))
            } else if !isSafeValue(value) {
                dropped.append((shownName, "its value has a control character or a non-ASCII byte"))
            } else {
                headers.removeAll { $0.name.lowercased() == name.lowercased() }
                headers.append((name, value))
            }
        }
        return (headers.filter { isSafeValue($0.value) }, dropped)
    }

    /// Headers the HTTP client sets itself; a session must not override them.
    static let reserved: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "keep-alive",
    ]

    /// RFC 9110 token characters.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// Visible ASCII, spaces and tabs: what every HTTP stack sends as it is (RFC 9110 field
    /// values, without the obsolete non-ASCII bytes).
    static func isSafeValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }
}
