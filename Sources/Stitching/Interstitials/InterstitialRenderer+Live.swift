import HLS

/// One filled break of a live session as the interstitials rendering signals it.
public struct LiveInterstitial: Sendable, Hashable {
    public var id: InterstitialBreakID
    /// The break's number in the session (ad segment and asset addresses use it as the pod).
    public var breakNumber: Int
    /// Origin media sequence number of the break's first content segment.
    public var startSequence: Int
    /// Seconds since 1970 of the break's start on the content timeline.
    public var startDate: Double
    /// Seconds of content the break replaces for this session (what remained when it joined).
    public var plannedDuration: Double
    /// Set once the origin returned to content: the seconds the break really covered (shorter
    /// than planned after an early `CUE-IN`).
    public var coveredDuration: Double?
    /// The session's live pre-roll (`LiveBreak.isPreroll`): signalled `CUE="PRE"`.
    public var isPreroll = false

    /// `X-PLAYOUT-LIMIT`: the break's own length, cut to what it covered when it ended early,
    /// capped by the session's policy.
    public func playoutLimit(policy: InterstitialPolicy) -> Double {
        let own = min(plannedDuration, coveredDuration ?? plannedDuration)
        return AssetList.milliseconds(policy.playoutLimit.map { min($0, own) } ?? own)
    }
}

extension InterstitialRenderer {
    /// The breaks of a live session's timeline that the interstitials rendering signals: those
    /// decided with at least one ad to play (`hasAds`), in order. A pending break is not signalled
    /// yet (it is, one reload after its decision lands); an unfilled one never is.
    ///
    /// `targetDuration` dates a break when the origin gives no program date-times (see `live`).
    public static func liveBreaks(of timeline: LiveTimeline, hasAds: (Int) -> Bool) -> [LiveInterstitial] {
        var result: [LiveInterstitial] = []
        var seen: Set<InterstitialBreakID> = []
        for item in timeline.breaks {
            guard item.phase == .replacing || item.phase == .ended, let layout = item.layout, !layout.playedAds.isEmpty,
                hasAds(item.number)
            else { continue }
            let id = InterstitialBreakID(liveBreak: item)
            guard seen.insert(id).inserted else { continue }
            let start =
                item.programDateTime
                ?? syntheticDate(sequence: item.startSequence, targetDuration: timeline.configuration.targetDuration)
            var covered: Double? = item.phase == .ended ? (item.endedEarly ? item.contentElapsed : item.duration) : nil
            if item.phase == .ended, item.endedEarly, timeline.configuration.completesAdOnEarlyReturn == true,
                let elapsed = covered
            {
                // The ad in play at the return finishes (`live.earlyReturn: complete`): so may the interstitial.
                covered = max(elapsed, layout.endOfAd(playingAt: elapsed) ?? elapsed)
            }
            result.append(
                LiveInterstitial(
                    id: id, breakNumber: item.number, startSequence: item.startSequence,
                    startDate: start, plannedDuration: item.duration, coveredDuration: covered,
                    isPreroll: item.isPreroll))
        }
        return result
    }

    /// The program date-time given to origin segment `sequence` of a live origin without any:
    /// `syntheticEpoch` plus the sequence number times the target duration. Stable for the
    /// segment across reloads and renditions (what players key date ranges on); not its true
    /// wall-clock time, which the origin does not say.
    public static func syntheticDate(sequence: Int, targetDuration: Int) -> Double {
        (syntheticEpoch.secondsSince1970 ?? 946_684_800) + Double(max(0, sequence)) * Double(max(1, targetDuration))
    }

    /// One rendition's live primary playlist in the interstitials rendering.
    ///
    /// Rules, live:
    /// - **Content passes through**: the rendition's origin window as it is (URIs absolute, its
    ///   own media sequence numbers), no ad segment and no discontinuity added.
    /// - **One date range per signalled break**, the same text in every rendition: `ID` the
    ///   break's `InterstitialBreakID` (from its SCTE-35 event id or cue name, never a window
    ///   index); `START-DATE` the content time of the break's first segment; `PLANNED-DURATION`
    ///   the break's length; `X-ASSET-LIST`; no `X-RESUME-OFFSET`, so the player resumes at the
    ///   live point, not behind it; `X-PLAYOUT-LIMIT` the break's length (less after an early
    ///   `CUE-IN`: the same `ID` is sent again with the shorter limit, and `DURATION` added once
    ///   the break is over); `X-TIMELINE-OCCUPIES="RANGE"` (the ads replace that range of the
    ///   programme); `X-RESTRICT` / `X-SNAP` from the policy; `CUE="ONCE"` when the policy plays
    ///   each break once (a viewer of a DVR window may seek back over it). `PRE,ONCE` on the
    ///   session's live pre-roll (`live.prerollMaxSeconds`) alone, never `POST`.
    /// - **Where**: before the break's first segment while it is in the window; before the
    ///   window's first segment while the break started earlier and is not over at that segment;
    ///   left out once the break is behind the window, or while the rendition's window has not
    ///   reached it yet.
    /// - **Program date-time**: the origin's; an origin without any gets `syntheticDate` on
    ///   every segment, so date ranges can be placed.
    /// - **Origin cue tags** removed as in VOD (`removeOriginSignals`).
    /// - **Low-latency HLS** is not carried (parts, preload hints, rendition reports, server
    ///   control), as in the stitched rendering (docs/live.md).
    public static func live(
        window: MediaPlaylist, breaks: [LiveInterstitial], targetDuration: Int, urls: SessionURLs,
        policy: InterstitialPolicy
    ) -> MediaPlaylist {
        var playlist = window
        removeOriginSignals(from: &playlist, ids: Set(breaks.map(\.id.text)))
        // Regular-latency HLS, as the stitched rendering: Seam answers reloads at once and does
        // not hold them (`_HLS_msn`), so it must not promise blocking reloads, parts or skips.
        playlist.serverControl = nil
        playlist.partInformation = nil
        playlist.preloadHints = []
        playlist.renditionReports = []
        playlist.skip = nil
        for index in playlist.segments.indices where !playlist.segments[index].parts.isEmpty {
            playlist.segments[index].parts = []
        }
        if var trailer = playlist.trailer, !trailer.parts.isEmpty {
            trailer.parts = []
            playlist.trailer = trailer
        }
        guard !playlist.segments.isEmpty else { return playlist }
        if !playlist.segments.contains(where: { $0.programDateTime != nil }) {
            for index in playlist.segments.indices {
                playlist.segments[index].programDateTime = DateTime(
                    secondsSince1970: syntheticDate(
                        sequence: playlist.mediaSequence + index, targetDuration: targetDuration))
            }
        }
        let first = playlist.mediaSequence
        let last = first + playlist.segments.count - 1
        let dates = LiveTimeline.programDateTimes(of: playlist)
        for item in breaks {
            let at: Int
            if item.startSequence >= first {
                guard item.startSequence <= last else { continue }
                at = item.startSequence - first
            } else {
                // Started before this window: listed while it is still under way at its first segment.
                guard let windowStart = dates.first ?? nil,
                    item.startDate + item.playoutLimit(policy: policy) > windowStart + 0.001
                else { continue }
                at = 0
            }
            playlist.segments[at].dateRanges.append(liveDateRange(item, urls: urls, policy: policy))
        }
        return playlist
    }

    static func liveDateRange(_ item: LiveInterstitial, urls: SessionURLs, policy: InterstitialPolicy) -> DateRange {
        var range = DateRange(attributes: AttributeList())
        range.id = item.id.text
        range.dateRangeClass = DateRange.interstitialClass
        range.startDate = DateTime(secondsSince1970: item.startDate)
        range.plannedDuration = AssetList.milliseconds(item.plannedDuration)
        if let covered = item.coveredDuration { range.duration = AssetList.milliseconds(covered) }
        // The session's pre-roll plays before the primary, and once whatever the policy: its
        // tag stays in the window for reloads to come, and a seek back must not play it again
        // (what MediaTailor's live pre-rolls write). A break played once is not played again
        // when the viewer seeks back over it (DVR).
        if item.isPreroll {
            range.cue = ["PRE", "ONCE"]
        } else if policy.playOnce {
            range.cue = ["ONCE"]
        }
        range.attributes.setString("X-ASSET-LIST", urls.assetList(item.id))
        range.attributes.setDouble("X-PLAYOUT-LIMIT", item.playoutLimit(policy: policy))
        range.attributes.setString("X-TIMELINE-OCCUPIES", "RANGE")
        let restrict = policy.restrictValues
        if !restrict.isEmpty { range.attributes.setString("X-RESTRICT", restrict.joined(separator: ",")) }
        let snap = policy.snapValues
        if !snap.isEmpty { range.attributes.setString("X-SNAP", snap.joined(separator: ",")) }
        return range
    }

    /// The asset list of one decided live break: each ad the layout plays, with its duration as
    /// the layout plays it (the reference rendition's segments), pointing at the session's ad
    /// asset, with its skip offset and SVTA2053-2 signaling (`AssetList.init(entries:tracking:)`),
    /// framed by the layout's bumpers (their assets numbered `Bumper.assetNumber`).
    /// `ads` are the decision's, indexed as the layout's slots index them.
    public static func liveAssetList<Ad: TrackedAd>(
        breakNumber: Int, layout: LiveBreakLayout, ads: [Ad?],
        skipOffset: (Ad) -> Double?, urls: SessionURLs,
        tracking: TrackingMode
    ) -> AssetList {
        var durations: [Int: Double] = [:]
        for slot in layout.slots {
            if case .ad(let ad, _) = slot.source { durations[ad, default: 0] += slot.duration }
        }
        let bumpers = layout.bumpers
        func bumper(_ position: Bumper.Position) -> [AssetList.Entry] {
            bumpers.filter { $0.position == position }.map {
                .bumper(
                    uri: urls.adAsset(
                        AdAssetAddress(pod: breakNumber, ad: Bumper.assetNumber(position, adCount: ads.count))),
                    duration: $0.duration)
            }
        }
        let played: [AssetList.Entry] = layout.playedAds.compactMap { index in
            guard let ad = ads[safe: index] ?? nil else { return nil }
            return AssetList.Entry(
                uri: urls.adAsset(AdAssetAddress(pod: breakNumber, ad: index)),
                duration: durations[index] ?? 0, ad: ad, skipOffset: skipOffset(ad))
        }
        return AssetList(entries: bumper(.start) + played + bumper(.end), tracking: tracking)
    }
}
