/// How one request for a beacon ended, and whether trying again could help.
enum BeaconAttempt: Sendable, Equatable {
    case sent
    /// Time-outs, connection failures, 5xx, 408 and 429: worth another attempt.
    case transient(String)
    /// Invalid URLs, refused addresses, other 4xx: another attempt would fail the same way.
    case permanent(String)
    /// Not sent: the host is not in `upstream.allowedHosts` (or its address not allowed).
    case blocked(String)

    static func classify(status: Int) -> BeaconAttempt {
        switch status {
        case 200..<400: return .sent
        case 408, 429, 500...: return .transient("HTTP \(status)")
        default: return .permanent("HTTP \(status)")
        }
    }

    static func classify(_ error: UpstreamError) -> BeaconAttempt {
        switch error {
        case .timeout, .unreachable, .noConnection: return .transient(error.description)
        case .status(_, let code):
            return classify(status: code) == .sent ? .sent : classify(status: code).withReason(error.description)
        // The endpoint answered; its body being too large does not matter for a beacon.
        case .tooLarge: return .sent
        case .blocked: return .blocked(error.description)
        case .invalidURL, .tooManyRedirects, .refused, .loop, .notTLS: return .permanent(error.description)
        }
    }

    private func withReason(_ reason: String) -> BeaconAttempt {
        switch self {
        case .sent: return .sent
        case .transient: return .transient(reason)
        case .permanent: return .permanent(reason)
        case .blocked: return .blocked(reason)
        }
    }
}
