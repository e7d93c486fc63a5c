/// Why an ad the ad server returned does not play, as a bounded code: the `reason` label of
/// `seam_ads_skipped_total` and `skippedAds[].code` in the tracking JSON (the reason in words
/// stays in `skippedAds[].reason`). Few values, so a dashboard can break skips down by them.
public enum AdSkipCode: String, Sendable, Codable, CaseIterable {
    /// A wrapper's chain failed: time-out, error, too deep, or no ad at its end.
    case wrapperFailed = "wrapper_failed"
    /// No media file Seam can play: no HLS rendition, and no MP4 to condition.
    case noPlayableMedia = "no_playable_media"
    /// The ad itself is unusable (not linear, no duration, ...).
    case invalidAd = "invalid_ad"
    /// Over `ads.maxAdsPerPod`, `ads.maxPodSeconds` or the break's own length.
    case podLimit = "pod_limit"
    /// Its MP4 creative is being conditioned for the content.
    case conditioning
    /// Its creative could not be fetched or conditioned.
    case creativeFailed = "creative_failed"
    /// Its creative did not arrive within the ad budget.
    case creativeLate = "creative_late"
    /// Its creative cannot play in the content (container, codecs, audio).
    case creativeMismatch = "creative_mismatch"
    /// It plays, but not in what is left of a live break.
    case doesNotFit = "does_not_fit"
    /// It could play, but the ads together fill less of the live break than the personalization
    /// threshold asks, so the break plays content.
    case belowThreshold = "below_threshold"
    /// DASH: the content cannot be cut where its break is (`NO_SPLICE_POINT`).
    case noSplicePoint = "no_splice_point"
}
