import Stitching
import VAST

extension AdRequestContext {
    /// The IAB macro values Seam knows for this session and break, for ad tags, wrapper tag URIs
    /// and beacons.
    ///
    /// `cacheBuster` and `timestamp` are passed in already formatted so ad tag URLs stay
    /// deterministic in tests. Choices worth knowing:
    /// - `[SERVERSIDE]` is `1` (a server acting for a client): Seam is SSAI.
    /// - `[LIMITADTRACKING]` is `1` when the session said `allowStorage: false`, `0` when `true`,
    ///   unset otherwise: the closest signal Seam receives.
    /// - `[REGULATIONS]` is `gdpr` when `gdpr` is true.
    /// - `[TRANSACTIONID]` is `<session id>-<break index>`: one id per break's request chain.
    /// - `[CONTENTPLAYHEAD]`/`[MEDIAPLAYHEAD]` is the break's position (post-roll: the content
    ///   duration when known).
    /// - `[CONTENTID]` and `[CONTENTURL]` (VAST 4.1) carry the content id and playback URL.
    /// Macros with no value are left in place (see ``VASTMacros/expand(_:)``).
    func vastMacros(cacheBuster: String?, timestamp: String?, errorCode: VASTErrorCode? = nil) -> VASTMacros {
        var custom: [String: String] = [:]
        if let cacheBuster { custom["CACHEBUSTING"] = cacheBuster }
        if let timestamp { custom["TIMESTAMP"] = timestamp }
        if let contentID { custom["CONTENTID"] = contentID }
        custom["CONTENTURL"] = contentURL
        let playhead: Double?
        switch breakPosition {
        case .preroll: playhead = 0
        case .midroll(let seconds): playhead = seconds
        case .postroll: playhead = contentDurationSeconds
        }
        return VASTMacros(
            errorCode: errorCode,
            breakPosition: VASTBreakPosition(rawValue: breakPosition.macroValue),
            serverSide: .serverForClient,
            deviceIP: deviceIP,
            deviceUserAgent: userAgent,
            gdpr: gdpr,
            gdprConsent: gdprConsent,
            contentPlayhead: playhead,
            limitAdTracking: allowStorage.map { !$0 },
            regulations: gdpr == true ? ["gdpr"] : nil,
            transactionID: "\(sessionID)-\(breakIndex)",
            custom: custom
        )
    }
}
