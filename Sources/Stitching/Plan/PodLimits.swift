/// The caps on one ad pod: how many ads it plays (`ads.maxAdsPerPod`) and how long it runs
/// (`ads.maxPodSeconds`, and the break's own duration when it has one: a cue's, a live break's).
///
/// Applied to the ad server's answer before any creative is fetched, by the ads' VAST durations:
/// an answer of 200 ads costs at most `maxAds` creative fetches, and a pod never outruns its break.
/// Ads play in pod order; the first that does not fit and every ad after it are left out (trimmed
/// at an ad boundary, as live breaks are), each listed in the avail's `skippedAds` with the reason.
public struct PodLimits: Sendable, Equatable {
    public var maxAds: Int
    public var maxSeconds: Double

    /// Durations within this of the limit still fit: VAST durations are rounded, and live layouts
    /// allow the same (`LiveBreakLayout.tolerance`).
    public static let tolerance = 0.5

    public init(maxAds: Int, maxSeconds: Double) {
        self.maxAds = max(1, maxAds)
        self.maxSeconds = maxSeconds
    }

    /// The ads that may play, in order, and those left out with the reason.
    /// - Parameter breakSeconds: the break's own duration, when it has one.
    public func apply(
        to ads: [PlannedAd], breakSeconds: Double?
    ) -> (kept: [PlannedAd], skipped: [(adID: String, reason: String)]) {
        let byBreak = breakSeconds.map { $0.isFinite && $0 > 0 } == true ? breakSeconds : nil
        let limit = min(maxSeconds, byBreak ?? .infinity)
        var kept: [PlannedAd] = []
        var skipped: [(adID: String, reason: String)] = []
        var total = 0.0
        var trimmed = false
        for ad in ads {
            if trimmed {
                skipped.append((ad.id, "left out after an ad that did not fit the pod"))
                continue
            }
            guard kept.count < maxAds else {
                skipped.append((ad.id, "over ads.maxAdsPerPod: the pod already has \(maxAds) ads"))
                continue
            }
            let duration = ad.duration.isFinite ? max(0, ad.duration) : .infinity
            guard total + duration <= limit + Self.tolerance else {
                let length = Self.seconds(total + duration)
                if let byBreak, byBreak <= maxSeconds {
                    skipped.append(
                        (
                            ad.id,
                            "does not fit: the pod would run \(length) s, longer than its \(Self.seconds(byBreak)) s break"
                        ))
                } else {
                    skipped.append(
                        (
                            ad.id,
                            "does not fit: the pod would run \(length) s, longer than ads.maxPodSeconds (\(Self.seconds(maxSeconds)) s)"
                        ))
                }
                trimmed = true
                continue
            }
            total += duration
            kept.append(ad)
        }
        return (kept, skipped)
    }

    private static func seconds(_ value: Double) -> String {
        // A VAST duration is the ad server's text: it may be any size (fault matrix).
        guard value.isFinite, value.magnitude < 1e15 else { return value.isFinite ? String(value) : "∞" }
        return value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
    }
}
