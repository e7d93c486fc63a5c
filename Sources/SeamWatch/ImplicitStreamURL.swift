import Foundation

/// A stream URL that plays through Seam's implicit sessions, `<seam>/v1/hls/<host>/<path>?…` or
/// `<seam>/v1/dash/<host>/<path>.mpd?…` (what
/// `seam demo` prints and what a player is given), read back into what `seam watch` asks Seam for:
/// Seam's base URL, the origin's content URL, the `seam.*` options and the `ads.*` parameters.
package struct ImplicitStreamURL: Sendable, Equatable {
    package var seamBaseURL: URL
    package var contentURL: URL
    /// `seam.mode`: `stitched` or `interstitials`.
    package var mode: String?
    /// `seam.trackingMode`.
    package var trackingMode: String?
    /// The `ads.*` parameters, without their prefix.
    package var adParams: [String: String]

    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// Nil when `url` is not an implicit-session URL (a plain content URL then).
    /// - Throws: a `seam.*` option `seam watch` cannot play as asked, naming the option to use instead.
    package init?(_ url: URL) throws(Refusal) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme, scheme == "http" || scheme == "https",
            let host = components.host,
            let prefix = ["/v1/hls/", "/v1/dash/"].first(where: { components.percentEncodedPath.hasPrefix($0) })
        else { return nil }
        let rest = components.percentEncodedPath.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/"), rest.startIndex < slash else { return nil }
        let originHost = rest[..<slash]
        let originPath = rest[slash...]

        var base = URLComponents()
        base.scheme = scheme
        base.host = host
        base.port = components.port
        var originScheme = "https"
        var kept: [URLQueryItem] = []
        var mode: String?
        var tracking: String?
        var adParams: [String: String] = [:]
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "seam.scheme":
                guard value == "http" || value == "https" else {
                    throw Refusal(description: "seam.scheme is http or https, not \(value)")
                }
                originScheme = value
            case "seam.mode": mode = value
            case "seam.trackingMode": tracking = value
            case let name where name.hasPrefix("seam.policy.") || name == "seam.pipOf":
                throw Refusal(
                    description:
                        "seam watch does not play \(name) from a stream URL; give the viewer's policy with --fast-forward, --rewind and --repeat"
                )
            case let name where name.hasPrefix("seam."):
                throw Refusal(
                    description:
                        "\(name) is not a Seam option; the seam.* parameters are seam.scheme, seam.mode, seam.trackingMode, seam.pipOf, seam.policy.*"
                )
            case let name where name.hasPrefix("ads."): adParams[String(name.dropFirst(4))] = value
            default: kept.append(item)
            }
        }
        guard let seamBaseURL = base.url,
            let contentURL = URL(
                string: "\(originScheme)://\(originHost)\(originPath)"
                    + (kept.isEmpty ? "" : "?" + (Self.query(kept) ?? "")))
        else { return nil }
        self.seamBaseURL = seamBaseURL
        self.contentURL = contentURL
        self.mode = mode
        trackingMode = tracking
        self.adParams = adParams
    }

    private static func query(_ items: [URLQueryItem]) -> String? {
        var components = URLComponents()
        components.queryItems = items
        return components.percentEncodedQuery
    }
}
