/// Why an avail plays no ads. Recorded on the avail and shown in the tracking JSON.
public enum AvailSkipReason: String, Sendable, Codable, Equatable {
    case adsTimeout = "ADS_TIMEOUT"
    case adsError = "ADS_ERROR"
    case invalidVAST = "INVALID_VAST"
    case noFill = "NO_FILL"
    case noVariantMatch = "NO_VARIANT_MATCH"
    case wrapperLimit = "WRAPPER_LIMIT"
    case wrapperLoop = "WRAPPER_LOOP"
    case adMediaUnavailable = "AD_MEDIA_UNAVAILABLE"
    case budgetExhausted = "BUDGET_EXHAUSTED"
    /// Live: the ads could play but none fits in (what is left of) the break.
    case breakTooShort = "BREAK_TOO_SHORT"
    /// Live: the ads fill less of the break than `ads.personalizationThreshold` asks; the
    /// origin's content plays instead.
    case personalizationThreshold = "PERSONALIZATION_THRESHOLD"
    /// The ad's only creative is an MP4 being conditioned for the content (`docs/conditioning.md`);
    /// later sessions get it.
    case transcodeInProgress = "TRANSCODE_IN_PROGRESS"
    /// DASH: the content cannot be cut where the break is (no segment boundary its video and
    /// audio share near it, or segments not named by a `SegmentTemplate`); the content plays on.
    case noSplicePoint = "NO_SPLICE_POINT"
}
