import DASH
import HLS

/// Which of an ad's adaptation sets plays in place of each of the content's, as the HLS matchers
/// pick an ad rendition per content rendition: a player crossing into the ad's period keeps its
/// tracks only if the ad offers each one it plays, in a codec it already decodes.
///
/// Every video and audio adaptation set of the content's period where the break is (`cuePoint`:
/// 0 the first, negative the last) needs one of the ad's of
/// the same type whose codec family (`avc1`, `hvc1`, `mp4a`, `ec-3`, ...) is the same; an audio
/// set prefers the ad's set in its own language. Text and trick-play sets are the content's
/// alone: the ad period has none (players show no subtitles during an ad). An ad that cannot
/// stand in for every set is unusable, with the set it lacks named (the break's skip reason
/// then is `NO_VARIANT_MATCH`, as for HLS).
public struct DASHCreativeFit: Sendable {
    /// One content adaptation set and the ad's that plays in its place.
    public struct Pair: Sendable {
        public var content: AdaptationSet
        public var ad: AdaptationSet
    }

    /// In the content's order.
    public var pairs: [Pair]
    /// The ad's period (its first).
    public var period: Period
    /// The ad's length, seconds.
    public var duration: Double
    /// Where the ad's MPD was fetched from (relative addresses resolve against it).
    public var url: String
    /// The ad MPD's own `BaseURL`s, outermost first.
    public var documentBases: [String]

    public static func fit(
        _ creative: MPD, url: String, content: MPD, cuePoint: Double = 0
    ) -> Result<DASHCreativeFit, AdSkip> {
        guard !creative.isDynamic else {
            return .failure(.unusable("the ad's MPD \(url) is dynamic; an ad is a static (VOD) MPD"))
        }
        guard creative.periods.count <= 1 else {
            return .failure(
                .unusable(
                    "the ad's MPD \(url) has \(creative.periods.count) periods; Seam plays an ad of one period"))
        }
        guard let period = creative.periods.first,
            let duration = period.duration ?? creative.mediaPresentationDuration.map({ $0 - (period.start ?? 0) }),
            duration > 0
        else {
            return .failure(
                .unusable(
                    "the ad's MPD \(url) gives its period no duration and no mediaPresentationDuration; Seam needs the ad's length"
                ))
        }
        let offered = period.adaptationSets.filter { set in
            set.representations.allSatisfy { $0.segmentTemplate?.media != nil }
        }
        var pairs: [Pair] = []
        for wanted in playedSets(of: content, at: cuePoint) {
            let type = wanted.contentType ?? ""
            let families = Self.families(of: wanted)
            let candidates = offered.filter { set in
                guard set.contentType == type, !isTrickPlay(set) else { return false }
                let have = Self.families(of: set)
                return families.isEmpty || have.isEmpty || have == families
            }
            // The nearest language first (the same tag, then the same primary language); the
            // first listed among equals.
            let chosen = candidates.enumerated().min { a, b in
                (LanguageTag.distance(wanted.lang, a.element.lang), a.offset)
                    < (LanguageTag.distance(wanted.lang, b.element.lang), b.offset)
            }?.element
            guard let chosen else {
                let codecs = families.sorted().joined(separator: ",")
                let hasTemplateless = period.adaptationSets.contains { set in
                    set.contentType == type && !offered.contains(set)
                }
                return .failure(
                    .unusable(
                        hasTemplateless
                            ? "the ad's MPD \(url) addresses its \(type) segments without a SegmentTemplate (SegmentBase or SegmentList); Seam stitches ads whose segments a SegmentTemplate names"
                            : "the ad's MPD \(url) has no \(type) adaptation set\(codecs.isEmpty ? "" : " with codecs \(codecs)") to play in place of the content's \(wanted.path)"
                    ))
            }
            pairs.append(Pair(content: wanted, ad: chosen))
        }
        return .success(
            DASHCreativeFit(
                pairs: pairs, period: period, duration: duration, url: url, documentBases: creative.baseURLs))
    }

    /// The content's adaptation sets a player plays during content that an ad must stand in for:
    /// video (not trick play) and audio of the period the break at `cuePoint` is in (a mid-roll
    /// at a period's start is fitted to that period; a post-roll to the last).
    static func playedSets(of content: MPD, at cuePoint: Double = 0) -> [AdaptationSet] {
        let periods = content.periods
        var chosen = periods.first
        if cuePoint < 0 {
            chosen = periods.last
        } else {
            var elapsed = 0.0
            for (index, period) in periods.enumerated() {
                let start = period.start ?? elapsed
                let next = periods[safe: index + 1]?.start
                elapsed = start + (period.duration ?? next.map { $0 - start } ?? 0)
                if start <= cuePoint + 0.05 { chosen = period } else { break }
            }
        }
        return (chosen?.adaptationSets ?? []).filter { set in
            (set.contentType == "video" && !isTrickPlay(set)) || set.contentType == "audio"
        }
    }

    /// A trick-play (fast-forward) set, which players use only to scrub (DASH-IF IOP 3.2.9).
    static func isTrickPlay(_ set: AdaptationSet) -> Bool {
        (set.element.elements(named: "EssentialProperty") + set.element.elements(named: "SupplementalProperty"))
            .contains { $0[attribute: "schemeIdUri"] == "http://dashif.org/guidelines/trickmode" }
    }

    /// The codec families a set declares, on itself or its representations.
    static func families(of set: AdaptationSet) -> Set<String> {
        let codecs = ([set.codecs] + set.representations.map(\.codecs)).compactMap { $0 }
            .flatMap { $0.split(separator: ",").map(String.init) }
        return CreativeMatcher.families(codecs)
    }

    /// The absolute base URL of `representation` of `set`: the ad MPD's location, then its own,
    /// its period's, its set's and its own `BaseURL`s, each resolved against the one before.
    func base(of set: AdaptationSet, _ representation: Representation) -> String {
        var base = url
        for next in [documentBases.first, period.baseURLs.first, set.baseURLs.first, representation.baseURLs.first] {
            if let next { base = URIReference.resolve(next, against: base) }
        }
        return base
    }
}
