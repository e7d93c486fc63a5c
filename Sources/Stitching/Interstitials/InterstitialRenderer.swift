import HLS

/// Renders a session plan as HLS Interstitials: the content playlists pass through and each filled
/// break becomes one `EXT-X-DATERANGE CLASS="com.apple.hls.interstitial"` whose asset list the
/// player fetches from Seam. The same `BreakPlan` the stitched rendering splices, so both
/// renderings of one session play the same decisions.
///
/// Rules, VOD:
/// - **Where.** A break starts where the stitched rendering splices it: `BreakAligner`'s boundary
///   on the reference (first) rendition. `START-DATE` is that boundary's program date-time on the
///   reference rendition (carried forward from its last `EXT-X-PROGRAM-DATE-TIME`, so a gap in the
///   origin's dates moves with it), or that content time after `anchor` when it has none; computed
///   once, so every rendition (video, audio, subtitles) carries the same date range byte for byte; each rendition lists it before its own segment at the
///   break (a post-roll before its last segment).
/// - **What.** `ID` is the break's `InterstitialBreakID`; `CUE` `PRE` / `POST` for pre- and
///   post-rolls, `ONCE` added when the policy plays each break once; `DURATION` the pod's duration
///   as its asset list gives it; `X-ASSET-LIST` the session's asset-list URL of the break;
///   `X-RESUME-OFFSET=0` on every VOD break, since a VOD ad is inserted and replaces no content
///   (without it a pre-roll would skip the title's first seconds); `X-RESTRICT` / `X-SNAP` from
///   the policy. Enumerated lists are quoted strings, numbers bare.
/// - **Unfilled breaks** get no date range: the content simply plays.
/// - **Program date-time.** A playlist with `EXT-X-DATERANGE` must carry `EXT-X-PROGRAM-DATE-TIME`.
///   When a rendition has none, its first segment gets the content's start date: the origin's own
///   (from the reference rendition) when it has one, else `syntheticEpoch`, a fixed date so the
///   output is the same on every request. A rendition with its own program date-times keeps them.
/// - **Origin cue tags.** Every break Seam plans comes from the origin's markers or the session's
///   cue points, and Seam signals each filled break itself, so the origin's ad signals are removed
///   from every segment: all cue tags (`EXT-X-CUE-OUT/IN`, `EXT-OATCLS-SCTE35`, ...), date ranges
///   carrying `SCTE35-OUT/IN/CMD`, the origin's own interstitial date ranges, and any date range
///   whose `ID` is one Seam writes. A player never sees two signals for one break. Other date
///   ranges (chapters, metadata) are kept.
/// - **Policy.** `X-RESUME-OFFSET` is the policy's (0 unless the session asks otherwise);
///   `X-PLAYOUT-LIMIT` only when the policy sets one.
/// - **Ids** are unique in the output: were two filled breaks to name the same id (two mid-rolls
///   within one millisecond), the first is rendered and the second plays as content.
public enum InterstitialRenderer {
    /// The start date given to content without `EXT-X-PROGRAM-DATE-TIME`: 2000-01-01T00:00:00.000Z.
    /// Any fixed date works (players place VOD interstitials by their offset from it); a fixed one
    /// keeps every response identical, and a date well in the past is never taken for a live edge.
    public static let syntheticEpoch = DateTime(secondsSince1970: 946_684_800)

    /// One break the interstitials rendering signals.
    public struct RenderedBreak: Sendable, Hashable {
        public var id: InterstitialBreakID
        /// Index in `BreakPlan.breaks`.
        public var breakIndex: Int
        /// Number among the plan's filled breaks (`BreakPlan.filled`), as ad segment addresses count pods.
        public var pod: Int
        /// The date range every rendition carries for it.
        public var dateRange: DateRange
    }

    public struct VOD: Sendable {
        /// The primary media playlist of every rendition of the content.
        public var media: [RenditionKey: MediaPlaylist]
        /// The signalled breaks, in plan order.
        public var breaks: [RenderedBreak]
    }

    /// The filled breaks of `plan` with their ids and pod numbers, first of an id only: what the
    /// playlists signal and what the asset-list route answers for.
    public static func signalledBreaks(of plan: BreakPlan) -> [(id: InterstitialBreakID, breakIndex: Int, pod: Int)] {
        var seen: Set<InterstitialBreakID> = []
        var result: [(id: InterstitialBreakID, breakIndex: Int, pod: Int)] = []
        var pod = 0
        for (index, planned) in plan.breaks.enumerated() where planned.isFilled {
            defer { pod += 1 }
            let id = InterstitialBreakID(position: planned.position)
            guard seen.insert(id).inserted else { continue }
            result.append((id, index, pod))
        }
        return result
    }

    /// The asset list of break `id`: `empty` for a break of the plan without fill, nil when the plan
    /// has no such break (the route answers 404). `adPlaylistURL(pod, ad)` as in `AssetList.init`.
    public static func assetList(
        for id: InterstitialBreakID, in plan: BreakPlan,
        adPlaylistURL: (_ pod: Int, _ ad: Int) -> String
    ) -> AssetList? {
        if let signalled = signalledBreaks(of: plan).first(where: { $0.id == id }) {
            return AssetList(break: plan.breaks[signalled.breakIndex], pod: signalled.pod, adPlaylistURL: adPlaylistURL)
        }
        return plan.breaks.contains { InterstitialBreakID(position: $0.position) == id } ? .empty : nil
    }

    /// The start date of content time 0 on the reference rendition: its first program date-time
    /// less the content before it, or `syntheticEpoch` when it has none.
    public static func anchor(of reference: MediaPlaylist) -> Double {
        var elapsed = 0.0
        for segment in reference.segments {
            if let seconds = segment.programDateTime?.secondsSince1970 { return seconds - elapsed }
            elapsed += segment.duration
        }
        return syntheticEpoch.secondsSince1970 ?? 946_684_800
    }

    /// Renders every rendition of `content` for `plan` (see the type's rules).
    /// - Parameter assetLists: the breaks' asset lists (`vodAssets`), whose totals are the
    ///   breaks' `DURATION`s; without them, each ad's duration is its creative's first variant.
    public static func vod(
        _ content: ContentSet, plan: BreakPlan, urls: SessionURLs, policy: InterstitialPolicy,
        assetLists: [InterstitialBreakID: AssetList]? = nil
    ) -> VOD {
        let playlists = content.renditions.map(\.playlist)
        let anchor = anchor(of: content.reference)
        let reference = content.reference
        let referenceNumber = content.renditions.firstIndex { $0.key == content.referenceKey } ?? 0
        let referenceDates = LiveTimeline.programDateTimes(of: reference)
        /// The date of the reference rendition's boundary before segment `index` (its end after
        /// the last): its own program date-time, carried forward from the last one given, so a
        /// gap or reset in the origin's dates moves the break with its segment.
        func date(atBoundary index: Int) -> Double? {
            if index < referenceDates.count { return referenceDates[index] }
            guard index == referenceDates.count, let last = referenceDates.last ?? nil,
                let segment = reference.segments.last
            else { return nil }
            return last + segment.duration
        }
        var rendered: [RenderedBreak] = []
        var placements: [[Int]] = []
        for signalled in signalledBreaks(of: plan) {
            let planned = plan.breaks[signalled.breakIndex]
            let aligned = BreakAligner.align(cuePoint: planned.position.cuePoint, renditions: playlists)
            let duration =
                assetLists?[signalled.id]?.totalDuration
                ?? AssetList(break: planned, pod: signalled.pod, adPlaylistURL: { _, _ in "" }).totalDuration
            let start =
                aligned.segmentIndices[safe: referenceNumber].flatMap(date(atBoundary:)) ?? anchor
                + aligned.referenceTime
            let range = dateRange(
                id: signalled.id, position: planned.position,
                start: DateTime(secondsSince1970: start),
                duration: duration, assetList: urls.assetList(signalled.id), policy: policy)
            rendered.append(
                RenderedBreak(id: signalled.id, breakIndex: signalled.breakIndex, pod: signalled.pod, dateRange: range))
            placements.append(aligned.segmentIndices)
        }
        let ids = Set(rendered.map(\.id.text))
        var media: [RenditionKey: MediaPlaylist] = [:]
        for (number, rendition) in content.renditions.enumerated() {
            var playlist = rendition.playlist
            removeOriginSignals(from: &playlist, ids: ids)
            if !playlist.segments.isEmpty {
                for (index, item) in rendered.enumerated() {
                    let at =
                        placements[index][safe: number]
                        ?? PodPlacement.segmentIndex(
                            forCuePoint: plan.breaks[item.breakIndex].position.cuePoint, in: playlist)
                    playlist.segments[min(max(at, 0), playlist.segments.count - 1)].dateRanges.append(item.dateRange)
                }
                let hasDate =
                    playlist.segments.contains { $0.programDateTime != nil } || playlist.trailer?.programDateTime != nil
                if !hasDate, playlist.segments.contains(where: { !$0.dateRanges.isEmpty }) {
                    playlist.segments[0].programDateTime = DateTime(secondsSince1970: anchor)
                }
            }
            // The title is VOD (as in the stitched rendering): every rendition says so.
            playlist.endList = true
            playlist.playlistType = .vod
            media[rendition.key] = playlist
        }
        return VOD(media: media, breaks: rendered)
    }

    /// The interstitial date range of one VOD break.
    static func dateRange(
        id: InterstitialBreakID, position: BreakPosition, start: DateTime, duration: Double,
        assetList: String, policy: InterstitialPolicy
    ) -> DateRange {
        var range = DateRange(attributes: AttributeList())
        range.id = id.text
        range.dateRangeClass = DateRange.interstitialClass
        range.startDate = start
        var cue: [String] = []
        switch position {
        case .preroll: cue.append("PRE")
        case .postroll: cue.append("POST")
        case .midroll: break
        }
        if policy.playOnce { cue.append("ONCE") }
        range.cue = cue
        range.duration = duration
        range.attributes.setString("X-ASSET-LIST", assetList)
        range.attributes.setDouble("X-RESUME-OFFSET", policy.resumeOffset)
        if let limit = policy.playoutLimit { range.attributes.setDouble("X-PLAYOUT-LIMIT", limit) }
        let restrict = policy.restrictValues
        if !restrict.isEmpty { range.attributes.setString("X-RESTRICT", restrict.joined(separator: ",")) }
        let snap = policy.snapValues
        if !snap.isEmpty { range.attributes.setString("X-SNAP", snap.joined(separator: ",")) }
        return range
    }

    /// Removes the origin's ad signals (see the type's rules) from every segment and the trailer.
    static func removeOriginSignals(from playlist: inout MediaPlaylist, ids: Set<String>) {
        func clean(_ segment: inout MediaSegment) {
            if !segment.cues.isEmpty { segment.cues = [] }
            let ranges = segment.dateRanges
            guard !ranges.isEmpty else { return }
            let kept = ranges.filter { range in
                !OriginCueRemoval.isSignal(range) && !range.isInterstitial && !ids.contains(range.id)
            }
            if kept.count != ranges.count { segment.dateRanges = kept }
        }
        for index in playlist.segments.indices { clean(&playlist.segments[index]) }
        if var trailer = playlist.trailer {
            clean(&trailer)
            playlist.trailer = trailer
        }
    }
}
