import VAST

/// Turns one resolved (InLine, wrappers merged) VAST ad into a ``ResolvedAd``, or says why it
/// cannot be stitched and which IAB error code its `Error` URLs get.
///
/// Seam splices HLS as it is, so an ad is usable when one of its `Linear` creatives has a
/// `MediaFile delivery="streaming"` of an HLS type (``VASTLinear/hlsMediaFiles``). The first such
/// creative is used, and its first HLS MediaFile (a multivariant or media playlist; the stitcher
/// picks renditions inside it per content variant). Other creatives are ignored.
enum AdCreativeSelector {
    enum Selection: Sendable, Equatable {
        case usable(ResolvedAd)
        /// `reason` goes to `AdBreakDecision.skippedAds`; `code` fills `[ERRORCODE]`.
        case unusable(reason: String, code: VASTErrorCode)
    }

    /// Reasons written to `skippedAds`, shared with tests and the tracking JSON.
    enum Reason {
        static let noHLSMediaFile = "no HLS MediaFile"
        static let noDASHMediaFile = "no MPEG-DASH MediaFile (application/dash+xml) for this DASH session"
        static let noLinearCreative = "no Linear creative"
        static let unresolvedWrapper = "wrapper not resolved"
    }

    /// - Parameter fallbackID: the id used when the ad has none (`ResolvedAd.adID` is required).
    /// - Parameter format: a DASH session plays an ad's streaming `application/dash+xml` media
    ///   file (its MPD), or its MP4 conditioned (`DASHConditioning`); HLS ones are of no use to it.
    static func select(
        _ ad: VASTAd, fallbackID: String, conditions: Bool = false, format: StreamFormat = .hls
    ) -> Selection {
        guard let inline = ad.inline else {
            return .unusable(reason: Reason.unresolvedWrapper, code: .generalWrapperError)
        }
        let linearCreatives = inline.creatives.filter { $0.linear != nil }
        guard !linearCreatives.isEmpty else {
            // Non-linear or companion-only ads cannot fill a linear break (IAB 201, linearity).
            return .unusable(reason: Reason.noLinearCreative, code: .unexpectedLinearity)
        }
        for creative in linearCreatives {
            guard let linear = creative.linear,
                let media = (format == .dash ? linear.dashMediaFiles : linear.hlsMediaFiles).first(where: {
                    !$0.url.isEmpty
                })
            else { continue }
            return .usable(
                resolvedAd(
                    ad: ad, inline: inline, creative: creative, linear: linear, hlsURL: media.url,
                    fallbackID: fallbackID))
        }
        // Linear, but only progressive or non-HLS renditions: conditioned when Seam may, else
        // skipped (IAB 403, no supported MediaFile).
        if conditions {
            for creative in linearCreatives {
                guard let linear = creative.linear, let mp4 = conditioningSource(linear) else { continue }
                var resolved = resolvedAd(
                    ad: ad, inline: inline, creative: creative, linear: linear, hlsURL: mp4, fallbackID: fallbackID)
                resolved.progressive = resolved.universalAdIDs.first ?? mp4
                return .usable(resolved)
            }
        }
        return .unusable(
            reason: format == .dash ? Reason.noDASHMediaFile : Reason.noHLSMediaFile, code: .noSupportedMediaFile)
    }

    /// The MP4 a creative is conditioned from: its mezzanine (the ad server's master file) when it
    /// is MP4, else the largest progressive MP4 MediaFile (most pixels, then the highest bitrate).
    static func conditioningSource(_ linear: VASTLinear) -> String? {
        if let mezzanine = linear.mezzanines.first(where: {
            !$0.url.isEmpty && ($0.type?.lowercased().hasPrefix("video/mp4") ?? false)
        }) {
            return mezzanine.url
        }
        let files = linear.mediaFiles(ofType: "video/mp4").filter { !$0.url.isEmpty && $0.delivery != .streaming }
        let best = files.max { a, b in
            let (pa, pb) = ((a.width ?? 0) * (a.height ?? 0), (b.width ?? 0) * (b.height ?? 0))
            return pa != pb ? pa < pb : (a.nominalBitrate ?? 0) < (b.nominalBitrate ?? 0)
        }
        return best?.url
    }

    private static func resolvedAd(
        ad: VASTAd, inline: VASTInline, creative: VASTCreative, linear: VASTLinear,
        hlsURL: String, fallbackID: String
    ) -> ResolvedAd {
        // A missing or unreadable Duration is kept as 0 rather than dropping the ad: the creative
        // playlist says how long the ad really is, and the stitcher reads it.
        var resolved = ResolvedAd(
            adID: nonEmpty(ad.id) ?? nonEmpty(creative.adId) ?? nonEmpty(creative.id) ?? fallbackID,
            duration: linear.duration ?? 0, hlsURL: hlsURL)
        resolved.sequence = ad.sequence
        resolved.title = inline.adTitle
        resolved.adSystem = inline.adSystem?.name
        resolved.creativeID = nonEmpty(creative.id) ?? nonEmpty(creative.adId)
        resolved.universalAdIDs = creative.universalAdIds.map { "\($0.idRegistry):\($0.value)" }
        resolved.impressionURLs = inline.impressions.map(\.url).filter { !$0.isEmpty }
        // `progress` events need their offset to be fired, which a name-keyed map cannot hold:
        // they go to `progressTracking` with their offsets instead.
        var tracking: [String: [String]] = [:]
        for event in linear.trackingEvents where event.event != .progress && !event.url.isEmpty {
            tracking[event.event.rawValue, default: []].append(event.url)
        }
        resolved.trackingURLs = tracking
        resolved.progressTracking = linear.trackingEvents.filter { $0.event == .progress && !$0.url.isEmpty }
        resolved.errorURLs = inline.errorURLs.filter { !$0.isEmpty }
        resolved.clickThrough = linear.videoClicks.clickThrough.flatMap { nonEmpty($0.url) }
        resolved.clickTrackingURLs = linear.videoClicks.clickTracking.map(\.url).filter { !$0.isEmpty }
        resolved.verificationXML = inline.verifications.map(\.rawXML).filter { !$0.isEmpty }
        resolved.skipOffset = skipOffset(linear)
        return resolved
    }

    /// `<Linear skipoffset>` in seconds into the ad: a clock time as written, a percentage of the
    /// declared `Duration`. Nil when the ad is not skippable, and also when a percentage has no
    /// duration to resolve against (other than 0 %): a skip offset is never guessed, since a
    /// guessed one could let viewers skip an ad sooner than the advertiser allowed.
    static func skipOffset(_ linear: VASTLinear) -> Double? {
        guard let offset = linear.skipOffset else { return nil }
        let seconds: Double?
        switch offset {
        case .percent(0): seconds = 0
        case .percent: seconds = linear.duration.flatMap { $0 > 0 ? offset.seconds(duration: $0) : nil }
        case .seconds: seconds = offset.seconds(duration: linear.duration)
        }
        guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
