/// How following one wrapper ad ended.
///
/// Every failure carries the `Error` URLs of the wrappers on the way (and of an empty response's
/// document), so the caller can fire them with ``errorCode`` in the `[ERRORCODE]` macro.
public enum WrapperOutcome: Sendable, Equatable {
    /// The chain ended in InLine ads, with every wrapper's beacons merged into them.
    case resolved([VASTAd])
    /// A response in the chain had no usable ad (IAB 303).
    case noAd(errorURLs: [String])
    /// Following the next wrapper would exceed ``WrapperChain/maxDepth`` (IAB 302).
    case limitExceeded(depth: Int, errorURLs: [String])
    /// The same `VASTAdTagURI` came back on one chain (IAB 302: it would never end).
    case loop(uri: String, errorURLs: [String])
    /// ``WrapperChain/maxFetches`` requests were made for one resolution; this one was not (IAB 302).
    case fetchLimitReached(uri: String, errorURLs: [String])
    /// The fetch closure threw (time-out, HTTP error, refused host...) (IAB 301).
    case fetchFailed(uri: String, reason: String, errorURLs: [String])
    /// The fetched response is not acceptable VAST (IAB 100, 101 or 102).
    case invalidResponse(uri: String, error: VASTParseError, errorURLs: [String])
    /// A wrapper without a `VASTAdTagURI` (IAB 300).
    case missingAdTagURI(errorURLs: [String])

    /// The IAB error code for a failed chain; nil when resolved.
    public var errorCode: VASTErrorCode? {
        switch self {
        case .resolved: return nil
        case .noAd: return .noAdsAfterWrapper
        case .limitExceeded, .loop, .fetchLimitReached: return .wrapperLimitReached
        case .fetchFailed: return .wrapperTimeout
        case .invalidResponse(_, let error, _): return error.vastErrorCode
        case .missingAdTagURI: return .generalWrapperError
        }
    }

    /// The `Error` beacons to fire for a failed chain (empty when resolved).
    public var errorURLs: [String] {
        switch self {
        case .resolved: return []
        case .noAd(let urls), .limitExceeded(_, let urls), .loop(_, let urls), .fetchLimitReached(_, let urls),
            .fetchFailed(_, _, let urls), .invalidResponse(_, _, let urls), .missingAdTagURI(let urls):
            return urls
        }
    }

    /// The resolved ads (empty for a failure).
    public var ads: [VASTAd] {
        if case .resolved(let ads) = self { return ads }
        return []
    }
}
