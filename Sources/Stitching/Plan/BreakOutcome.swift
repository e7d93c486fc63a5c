import HLS

/// Where one decided ad's creative stands when its break is planned: fetched, still being
/// conditioned (an MP4-only ad), failed, or not there within the ad budget. The server finds out
/// (fetches, the conditioning queue); the engine decides what it means.
public enum CreativeAvailability: Sendable {
    case loaded(AdCreative)
    /// The ad's only creative is an MP4 whose conditioning for this content goes on.
    case conditioning
    /// The creative could not be fetched or conditioned: why, in the user's words.
    case failed(String)
    /// Not fetched (nor conditioned) within the ad budget.
    case late
}

/// Why one decided ad does not play, typed: the break's skip reason is worked out from these
/// (`AvailSkipReason.forBreak`), never from their text.
public enum AdSkip: Error, Sendable, Equatable {
    /// Its MP4 creative is being conditioned for the content; later sessions and breaks get it.
    case conditioning(creativeURL: String)
    /// Its creative could not be fetched or conditioned.
    case failed(String)
    /// Its creative did not arrive within the ad budget.
    case late(creativeURL: String)
    /// Its creative cannot play in the content (codecs, renditions, segmenting).
    case unusable(String)
    /// It plays, but not in what is left of a live break of `seconds`.
    case doesNotFit(breakSeconds: Int)
    /// It plays, but the break's ads fill `filled` of its `seconds`, under the personalization
    /// threshold `threshold` (a share).
    case belowThreshold(filled: Double, breakSeconds: Double, threshold: Double)
    /// Left out before any fetch by the pod's caps, or by the ad server's answer: the reason as given.
    case decided(String)

    /// The bounded code (`skippedAds[].code`, `seam_ads_skipped_total`'s `reason`).
    public var code: AdSkipCode {
        switch self {
        case .conditioning: return .conditioning
        case .failed: return .creativeFailed
        case .late: return .creativeLate
        case .unusable: return .creativeMismatch
        case .doesNotFit: return .doesNotFit
        case .belowThreshold: return .belowThreshold
        case .decided: return .podLimit
        }
    }

    /// The ad left out, as a break's plan lists it.
    public func skipped(_ adID: String) -> BreakPlan.SkippedAd {
        BreakPlan.SkippedAd(adID: adID, reason: reason, code: code)
    }

    /// What the tracking JSON says (`skippedAds[].reason`).
    public var reason: String {
        switch self {
        case .conditioning(let url):
            return
                "the MP4 creative \(url) is being conditioned for this content (TRANSCODE_IN_PROGRESS); later sessions and breaks get it"
        case .failed(let why), .unusable(let why), .decided(let why):
            return why
        case .late(let url):
            return "creative \(url) not loaded within the ad budget (ads.totalBudgetSeconds)"
        case .doesNotFit(let seconds):
            return "does not fit in what is left of the \(seconds) s break"
        case .belowThreshold(let filled, let seconds, let threshold):
            let share = Int((threshold * 100).rounded())
            return
                "the ads fill \(PlaylistLimits.wholeSeconds(filled)) s of the \(PlaylistLimits.wholeSeconds(seconds)) s break, under ads.personalizationThreshold (\(share) %): the break plays the content"
        }
    }
}

/// What a break's decided ads come to, for VOD cue points and live cues alike: the ads whose
/// creative plays (fitted as the caller fits: VOD checks the creative against the title, live
/// fits it to the channel), the others with why, and — one rule for both — why the break plays
/// none (`AvailSkipReason.forBreak`).
public struct BreakOutcome<Fitted: Sendable>: Sendable {
    public var usable: [(ad: PlannedAd, fitted: Fitted)]
    public var skipped: [(adID: String, skip: AdSkip)]

    /// Each of `ads` (after the pod caps) with its creative's availability and `fit`'s verdict.
    public static func resolve(
        _ ads: [PlannedAd], availability: (PlannedAd) -> CreativeAvailability,
        fit: (AdCreative) -> Result<Fitted, AdSkip>
    ) -> BreakOutcome {
        var outcome = BreakOutcome(usable: [], skipped: [])
        for ad in ads {
            let verdict: Result<Fitted, AdSkip>
            switch availability(ad) {
            case .loaded(let creative): verdict = fit(creative)
            case .conditioning: verdict = .failure(.conditioning(creativeURL: ad.creativeURL))
            case .failed(let why): verdict = .failure(.failed(why))
            case .late: verdict = .failure(.late(creativeURL: ad.creativeURL))
            }
            switch verdict {
            case .success(let fitted): outcome.usable.append((ad, fitted))
            case .failure(let skip): outcome.skipped.append((ad.id, skip))
            }
        }
        return outcome
    }
}

extension AvailSkipReason {
    /// Why a break plays no ads; nil when `played` ads play. The one rule, for VOD and live:
    /// - the ad server decided none (after the pod caps): its own reason, else `NO_FILL`;
    /// - some could play but none fits what is left of the break (live): `BREAK_TOO_SHORT`;
    /// - none could play and one of them is being conditioned: `TRANSCODE_IN_PROGRESS`;
    /// - none could play: `NO_VARIANT_MATCH`.
    public static func forBreak(
        decided: Int, adServerReason: AvailSkipReason?, usable: Int, played: Int,
        skipped: [AdSkip]
    ) -> AvailSkipReason? {
        guard played == 0 else { return nil }
        if decided == 0 { return adServerReason ?? .noFill }
        if usable > 0 { return .breakTooShort }
        if skipped.contains(where: { if case .conditioning = $0 { true } else { false } }) {
            return .transcodeInProgress
        }
        return .noVariantMatch
    }
}
