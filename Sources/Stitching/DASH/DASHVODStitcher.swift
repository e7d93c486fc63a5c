import DASH
import HLS

/// Stitches a VOD DASH title once, when its session starts, from the same `BreakPlan` the HLS
/// renderings play: each filled break's ads become periods (`DASHAdPeriod.fitted`) spliced into
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
    }

    /// - Parameters:
    ///   - contentURL: where the origin's MPD was fetched from (after redirects).
    ///   - plan: whose ads' creatives are DASH (`AdCreative.dash`) and fit the content
    ///     (`DASHCreativeFit`, checked when the plan was made; an ad that does not is left out).
    public static func stitch(
        _ content: MPD, contentURL: String, plan: BreakPlan, mode: TrackingMode, urls: SessionURLs
    ) -> Result<Stitched, DASHVODSplicer.Refusal> {
        var pods: [DASHVODSplicer.Pod] = []
        var adSegments: [AdSegmentAddress: VODStitcher.AdSegmentTarget] = [:]
        var adDurations: [[Double]] = []
        for (pod, planned) in plan.filled.enumerated() {
            var periods: [XMLElement] = []
            var durations: [Double] = []
            for (number, item) in planned.ads.enumerated() {
                guard let mpd = item.creative.dash,
                    case .success(let fit) = DASHCreativeFit.fit(mpd, url: item.creative.url, content: content)
                else { continue }
                let period = DASHAdPeriod.fitted(
                    fit, id: periodID(planned.position, pod: pod, ad: number), pod: pod, ad: number, mode: mode,
                    urls: urls)
                periods.append(period.element)
                durations.append(period.duration)
                adSegments.merge(period.adSegments) { first, _ in first }
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
        return .success(Stitched(mpd: spliced.mpd, adSegments: adSegments, beacons: beacons, tracking: tracking))
    }

    /// A stable, readable id for an ad's period: `seam-ad-<position>-<pod>-<ad>`.
    static func periodID(_ position: BreakPosition, pod: Int, ad: Int) -> String {
        "seam-ad-\(position.name)-\(pod)-\(ad)"
    }
}
