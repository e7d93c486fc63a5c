import DASH
import HLS

/// Stitches a VOD DASH title once, when its session starts, from the same `BreakPlan` the HLS
/// renderings play: each filled break's ads and bumpers become periods (`DASHAdPeriod.fitted`) spliced into
/// the content's MPD (`DASHVODSplicer`), and the tracking JSON and server-side beacons are
/// those of the stitched timeline, as for HLS. What a DASH session serves afterwards is a lookup
/// in what this returns.
public enum DASHVODStitcher {
    public struct Stitched: Sendable {
        public var mpd: MPD
        /// Ad segments by address (empty when the player tracks).
        public var adSegments: [AdSegmentAddress: VODStitcher.AdSegmentTarget]
        /// Beacons Seam fires itself, per (pod, ad, event).
        public var beacons: [TrackingBuilder.BeaconKey: [String]]
        public var tracking: TrackingDocument
        /// The plan as stitched: a break whose content could not be cut (`NO_SPLICE_POINT`) plays
        /// no ads, with the reason.
        public var plan: BreakPlan
    }

    /// - Parameters:
    ///   - contentURL: where the origin's MPD was fetched from (after redirects).
    ///   - plan: whose ads' creatives are DASH (`AdCreative.dash`) and fit the content
    ///     (`DASHCreativeFit`, checked when the plan was made; an ad that does not is left out).
    public static func stitch(
        _ content: MPD, contentURL: String, plan: BreakPlan, mode: TrackingMode, urls: SessionURLs
    ) -> Result<Stitched, DASHVODSplicer.Refusal> {
        let plan = cuttable(plan, in: content, contentURL: contentURL)
        var pods: [DASHVODSplicer.Pod] = []
        var adSegments: [AdSegmentAddress: VODStitcher.AdSegmentTarget] = [:]
        var adDurations: [[Double]] = []
        for (pod, planned) in plan.filled.enumerated() {
            var periods: [XMLElement] = []
            var durations: [Double] = []
            // Its bumpers and ads in play order (`podItems`): the tracking JSON times each.
            for item in planned.podItems {
                let creative: AdCreative
                let id: String
                switch item {
                case .ad(let number):
                    creative = planned.ads[number].creative
                    id = periodID(planned.position, pod: pod, ad: number)
                case .bumper(let bumper):
                    creative = bumper.creative
                    id = "seam-bumper-\(planned.position.name)-\(pod)-\(bumper.position.rawValue)"
                }
                guard let mpd = creative.dash,
                    case .success(let fit) = DASHCreativeFit.fit(
                        mpd, url: creative.url, content: content, cuePoint: planned.position.cuePoint)
                else { continue }
                let period: DASHAdPeriod.Fitted
                switch item {
                case .ad(let number):
                    period = DASHAdPeriod.fitted(fit, id: id, pod: pod, ad: number, mode: mode, urls: urls)
                    adSegments.merge(period.adSegments) { first, _ in first }
                case .bumper:
                    // A bumper fires nothing: its segments load from where it is hosted.
                    period = DASHAdPeriod.fitted(fit, id: id, pod: pod, ad: 0, mode: .client, urls: urls)
                }
                periods.append(period.element)
                durations.append(period.duration)
            }
            pods.append(DASHVODSplicer.Pod(contentTime: planned.position.cuePoint, periods: periods))
            adDurations.append(durations)
        }
        let spliced: (mpd: MPD, placed: [DASHVODSplicer.Placed])
        switch DASHVODSplicer.splice(content, contentURL: contentURL, pods: pods) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let result): spliced = result
        }
        // The stitched timeline as the tracking JSON tells it.
        var inserted = 0.0
        var avails: [AvailTimeline.Avail] = []
        for placed in spliced.placed {
            var cursor = placed.start
            let ads = (adDurations[safe: placed.pod] ?? []).map { duration in
                defer { cursor += duration }
                return AvailTimeline.Ad(startTime: cursor, duration: duration)
            }
            avails.append(
                AvailTimeline.Avail(
                    pod: placed.pod, startTime: placed.start, contentTime: placed.start - inserted,
                    duration: placed.duration, ads: ads))
            inserted += placed.duration
        }
        let total = spliced.mpd.mediaPresentationDuration ?? 0
        let contentDuration = total - inserted
        let (tracking, beacons) = TrackingBuilder.vod(
            sessionID: urls.sessionID, plan: plan, timeline: AvailTimeline(avails: avails, totalDuration: total),
            mode: mode
        ) { cue in cue < 0 ? contentDuration : min(cue, contentDuration) }
        return .success(
            Stitched(mpd: spliced.mpd, adSegments: adSegments, beacons: beacons, tracking: tracking, plan: plan))
    }

    /// `plan` with every filled mid-roll whose content cannot be cut there (`DASHPeriodSplit`
    /// refuses: no common boundary near it, segments not named by a template) left unfilled,
    /// `NO_SPLICE_POINT` with the reason: ad trouble never fails a start, and nor does a break
    /// the content has no room for.
    static func cuttable(_ plan: BreakPlan, in content: MPD, contentURL: String) -> BreakPlan {
        var plan = plan
        for index in plan.breaks.indices where plan.breaks[index].isFilled {
            guard case .midroll(let seconds) = plan.breaks[index].position,
                case .failure(.split(let refusal)) = DASHVODSplicer.splice(
                    content, contentURL: contentURL, pods: [.init(contentTime: seconds, periods: [])])
            else { continue }
            let reason = "the content cannot take a break at \(DASHDuration.text(seconds)): \(refusal)"
            plan.breaks[index].skippedAds += plan.breaks[index].ads.map {
                BreakPlan.SkippedAd(adID: $0.ad.id, reason: reason, code: .noSplicePoint)
            }
            plan.breaks[index].ads = []
            plan.breaks[index].bumpers = []
            plan.breaks[index].skipReason = .noSplicePoint
            plan.breaks[index].skipDetail = reason
        }
        return plan
    }

    /// A stable, readable id for an ad's period: `seam-ad-<position>-<pod>-<ad>`.
    static func periodID(_ position: BreakPosition, pod: Int, ad: Int) -> String {
        "seam-ad-\(position.name)-\(pod)-\(ad)"
    }
}
