import Foundation
import Stitching

/// The events of a session, built from what the session layer already holds. Pure: the caller
/// passes the time and the privacy treatment, so each builder is tested without a server.
extension AnalyticsEvent {
    /// Skip reasons that mean ad trouble (the ad server or the creatives failed), reported as an
    /// `error` event besides the break's `breakDecided`. `NO_FILL` and `BREAK_TOO_SHORT` are
    /// answers, not failures.
    static let adFailureReasons: Set<String> = [
        AvailSkipReason.adsTimeout, .adsError, .invalidVAST, .wrapperLimit, .wrapperLoop,
        .adMediaUnavailable, .budgetExhausted, .noVariantMatch,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// `sessionStart`: what was asked for and how it plays; personal data only in `device`.
    static func sessionStart(
        _ session: SeamSession, inputs: SessionInputs, device: Device?, at date: Date
    ) -> AnalyticsEvent {
        var event = AnalyticsEvent(type: .sessionStart, time: date, sessionId: session.id.value)
        let request = inputs.request
        event.contentUrl = request.url
        event.contentId = request.contentId
        event.mode = session.mode.rawValue
        switch session {
        case .vod(let vod):
            event.playback = "vod"
            event.trackingMode = vod.trackingMode.rawValue
        case .live(let live):
            event.playback = "live"
            event.trackingMode = live.trackingMode.rawValue
        }
        let parameters = PersonalData.impersonalParameters(request.adParams)
        event.adParams = parameters.isEmpty ? nil : parameters
        let custom = PersonalData.impersonalParameters(request.customParams)
        event.customParams = custom.isEmpty ? nil : custom
        event.device = device
        return event
    }

    /// `sessionEnd`, with how long the session lived when its start is known.
    static func sessionEnd(_ id: SessionID, reason: SessionEndReason, startedAt: Date?, at date: Date) -> AnalyticsEvent
    {
        var event = AnalyticsEvent(type: .sessionEnd, time: date, sessionId: id.value)
        event.reason = reason.rawValue
        event.durationSeconds = startedAt.map { max(0, (date.timeIntervalSince($0) * 1000).rounded() / 1000) }
        return event
    }

    /// `breakDecided` for one avail of the tracking document, and an `error` event when the avail
    /// is empty because of ad trouble.
    static func breakDecided(_ avail: TrackingDocument.Avail, session id: SessionID, at date: Date) -> [AnalyticsEvent]
    {
        var event = AnalyticsEvent(type: .breakDecided, time: date, sessionId: id.value)
        event.availId = avail.availId
        event.position = avail.position
        event.cuePoint = avail.cuePoint
        event.breakDurationSeconds = avail.durationSeconds
        event.filled = !avail.ads.isEmpty
        event.adCount = avail.ads.count
        event.adIds = avail.ads.isEmpty ? nil : avail.ads.map(\.adId)
        event.skipReason = avail.skipReason
        event.skipDetail = avail.skipDetail
        event.skippedAds = avail.skippedAds.isEmpty ? nil : avail.skippedAds.count
        var events = [event]
        if let reason = avail.skipReason, adFailureReasons.contains(reason) {
            var failure = AnalyticsEvent(type: .error, time: date, sessionId: id.value)
            failure.code = reason
            failure.availId = avail.availId
            failure.message = avail.skipDetail
            events.append(failure)
        }
        return events
    }

    /// `adEvent`: a server-side beacon event Seam claimed for an ad (fired once per session).
    static func adEvent(
        _ progress: AdProgressEvent, session id: SessionID, breakNumber: Int, ad: Int, at date: Date
    ) -> AnalyticsEvent {
        var event = AnalyticsEvent(type: .adEvent, time: date, sessionId: id.value)
        event.breakNumber = breakNumber
        event.adNumber = ad
        event.event = progress.rawValue
        return event
    }

    /// `error`: a session start that failed (origin trouble); no session id exists.
    static func startFailed(_ inputs: SessionInputs, error: SeamError, at date: Date) -> AnalyticsEvent {
        var event = AnalyticsEvent(type: .error, time: date, sessionId: nil)
        event.contentUrl = inputs.request.url
        event.contentId = inputs.request.contentId
        event.code = error.code.rawValue
        event.message = error.message
        return event
    }
}

/// Why a session ended.
package enum SessionEndReason: String, Sendable, Codable {
    /// The player (or its app) ended it: `DELETE /v1/sessions/{id}`.
    case deleted
    /// No request came within `sessions.ttlSeconds`.
    case expired
}
