import HTTPTypes
import Hummingbird

/// Where a request came from and how it reached Seam: the base of the URLs Seam gives players,
/// and the viewer's address for ad requests and rate limits.
struct RequestAddressing: Sendable {
    let shared: SeamServices

    /// `server.publicBaseURL`, else the address the request reached Seam at.
    func baseURL(_ request: Request) -> String {
        let configured = shared.configuration.server.publicBaseURL
        if !configured.isEmpty { return configured.hasSuffix("/") ? String(configured.dropLast()) : configured }
        let host = request.head.authority ?? "\(shared.configuration.server.host):\(shared.configuration.server.port)"
        return "http://\(host)"
    }

    /// The viewer's address: the peer, or what the trusted proxies in front of Seam forwarded
    /// (`TrustedProxies`, `server.trustedProxies`); always a valid IP address, never the client's word.
    func deviceIP(_ request: Request, _ context: SeamRequestContext) -> String? {
        let forwardedFor = HTTPField.Name("X-Forwarded-For").map { request.headers[values: $0] } ?? []
        let forwarded = HTTPField.Name("Forwarded").map { request.headers[values: $0] } ?? []
        return shared.trustedProxies.clientIP(peer: context.remoteIP, forwardedFor: forwardedFor, forwarded: forwarded)
    }

    /// A content URL naming one of Seam's session routes at Seam's own address — the address this
    /// request reached it at, or `server.publicBaseURL` — is refused before anything is fetched
    /// (`LoopGuard`). Other paths on the same host are left alone: a CDN may serve Seam under
    /// `/v1/` and the origin beside it.
    func refuseOwnAddress(_ url: String, _ request: Request) throws(SeamError) {
        guard let content = try? UpstreamURL(url),
            LoopGuard.guards(path: String(content.pathAndQuery.prefix { $0 != "?" }))
        else { return }
        var own: [UpstreamURL] = []
        if let reached = request.head.authority, let parsed = try? UpstreamURL("http://" + reached) {
            own.append(parsed)
        }
        let configured = shared.configuration.server.publicBaseURL
        if !configured.isEmpty, let parsed = try? UpstreamURL(configured) { own.append(parsed) }
        guard
            own.contains(where: {
                $0.host == content.host
                    && ($0.port == content.port || $0.explicitPort == nil && content.explicitPort == nil)
            })
        else { return }
        throw SeamError(
            .loopDetected,
            "\(SessionRequest.quoted(url, limit: 200)) is this Seam's own address: a session's content is the origin's playlist, never a Seam URL"
        )
    }
}
