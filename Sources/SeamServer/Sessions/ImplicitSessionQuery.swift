import Foundation
import Stitching

/// The query of an implicit session URL (`GET /v1/hls/{host}/{path}?...`), sorted out: `ads.*`
/// parameters become ad parameters, `seam.*` ones are Seam's options (the same as the JSON body's,
/// checked the same way), and everything else belongs to the origin URL.
///
/// A `seam.*` parameter Seam does not know is `400 INVALID_REQUEST` naming it: before, it went on
/// to the origin, so a player asking for `seam.trackingMode=client` silently got the default.
///
/// The origin's parameters go on byte for byte as the player sent them: Seam decodes only the
/// values it reads itself. Before, every parameter was percent-decoded and re-joined, so a signed
/// CDN token `tok=a%2Bb%26c%3Dd` reached the origin as `tok=a+b&c=d` (an origin 403), and an
/// encoded `%26seam.scheme%3Dhttp` became a Seam option of the next hop.
struct ImplicitSessionQuery: Sendable, Equatable {
    /// `https` unless `seam.scheme=http`.
    var scheme = "https"
    var adParams: [String: String] = [:]
    /// The parameters for the origin, exactly as they came (still percent-encoded), in order.
    var originQuery: [String] = []
    var mode: SessionMode?
    var trackingMode: TrackingMode?
    var pipOf: SessionID?
    var policy: AdPolicy?
    var adIdDecoration: Bool?
    var renditions: RenditionFilter?

    /// Every `seam.*` parameter Seam reads (`seam.policy.*` stands for the policy's fields).
    static let options = [
        "seam.scheme", "seam.mode", "seam.trackingMode", "seam.pipOf", "seam.adIdDecoration", "seam.policy.*",
        "seam.renditions.*",
    ]

    /// Sorts the raw query (`request.uri.query`: as received, percent-encoded). A parameter's name
    /// is read as sent; the value of an `ads.*` or `seam.*` one is percent-decoded.
    init(query: String?) throws(SeamError) {
        var policyFields: [String: String] = [:]
        var renditionFields: [String: String] = [:]
        let whole = query ?? ""
        for piece in whole.isEmpty ? [] : whole.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            guard key.hasPrefix("ads.") || key.hasPrefix("seam.") else {
                originQuery.append(String(piece))
                continue
            }
            let raw = parts.count > 1 ? String(parts[1]) : ""
            let text = raw.removingPercentEncoding ?? raw
            if key.hasPrefix("ads.") {
                adParams[String(key.dropFirst(4))] = text
            } else if key.hasPrefix("seam.policy.") {
                policyFields[String(key.dropFirst("seam.policy.".count))] = text
            } else if key.hasPrefix("seam.renditions.") {
                renditionFields[String(key.dropFirst("seam.renditions.".count))] = text
            } else if key.hasPrefix("seam.") {
                switch key {
                case "seam.scheme":
                    switch text.lowercased() {
                    case "http": scheme = "http"
                    case "https": scheme = "https"
                    default:
                        throw SessionRequest.unknownValue(
                            key, got: SessionRequest.quoted(text), allowed: ["http", "https"])
                    }
                case "seam.mode":
                    mode = try SessionRequest.choice(SessionMode.self, key, .text(text))
                case "seam.trackingMode":
                    trackingMode = try SessionRequest.choice(TrackingMode.self, key, .text(text))
                case "seam.pipOf":
                    pipOf = try SessionRequest.sessionID(key, .text(text))
                case "seam.adIdDecoration":
                    adIdDecoration = try SessionRequest.flag(key, .text(text))
                default:
                    let suggestion = Suggestion.closest(to: key, in: Self.options).map { " (did you mean \($0)?)" }
                    throw SeamError(
                        .invalidRequest,
                        "\(key) is not a Seam option\(suggestion ?? ""); the seam.* parameters are \(Self.options.joined(separator: ", ")) (other parameters go to the origin)"
                    )
                }
            }
        }
        if !policyFields.isEmpty { policy = try AdPolicy(query: policyFields) }
        if !renditionFields.isEmpty { renditions = try RenditionFilter(query: renditionFields) }
    }

    /// The session request for `url`, with the options asked for.
    func sessionRequest(url: String) -> SessionRequest {
        var request = SessionRequest(url: url)
        request.adParams = adParams
        request.mode = mode
        request.trackingMode = trackingMode
        request.pipOf = pipOf
        request.policy = policy
        request.adIdDecoration = adIdDecoration
        request.renditions = renditions
        return request
    }
}
