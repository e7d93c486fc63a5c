import HLS

/// Builds the tracking JSON (and, for VOD, the beacons Seam fires itself) from a session's
/// breaks. VOD and live sessions describe ads, their events and the break events the same way;
/// only where the breaks sit differs (content cue points against a stitched title, or breaks on
/// a live session's timeline).
public enum TrackingBuilder {
    /// A beacon Seam fires when a player fetches the ad segment that reaches the event.
    public struct BeaconKey: Sendable, Hashable {
        public var pod: Int
        public var ad: Int
        public var event: AdProgressEvent

        public init(pod: Int, ad: Int, event: AdProgressEvent) {
            self.pod = pod
            self.ad = ad
            self.event = event
        }
    }

    /// One ad on the stitched timeline: each event at its fraction of the ad, with its beacons
    /// listed for the player unless Seam fires them itself.
    public static func ad(
        _ ad: some TrackedAd, start: Double, duration: Double, mode: TrackingMode
    ) -> TrackingDocument.Ad {
        let events = AdProgressEvent.allCases.map { event in
            TrackingDocument.TrackingEvent(
                event: event.rawValue, startTimeSeconds: start + event.fraction * duration,
                beaconUrls: mode.seamFires(event.rawValue) ? [] : ad.beaconURLs(for: event))
        }
        var tracked = TrackingDocument.Ad(
            adId: ad.adID, sequence: ad.sequence, title: ad.title, adSystem: ad.adSystem,
            creativeId: ad.creativeID, universalAdIds: ad.universalAdIDs, startTimeSeconds: start,
            durationSeconds: duration, clickThrough: ad.clickThrough, trackingEvents: events,
            adVerifications: ad.verificationXML)
        // An offset at or past the ad's end skips nothing: such an ad is not skippable.
        if let offset = ad.skipOffset, offset >= 0, offset < duration { tracked.skipOffsetSeconds = offset }
        return tracked
    }

    /// A filled break's own events (VMAP `breakStart`, `breakEnd`) at its start and end.
    public static func breakEvents(
        start: Double, duration: Double, starts: [String], ends: [String],
        mode: TrackingMode
    ) -> [TrackingDocument.TrackingEvent] {
        let seamFires = mode.seamFires("breakStart")
        return [
            .init(event: "breakStart", startTimeSeconds: start, beaconUrls: seamFires ? [] : starts),
            .init(event: "breakEnd", startTimeSeconds: start + duration, beaconUrls: seamFires ? [] : ends),
        ]
    }

    // MARK: VOD

    /// The tracking document and server-side beacons of a stitched VOD title.
    /// - Parameters:
    ///   - reference: the reference rendition's content playlist (the session's clock).
    ///   - pods: the filled breaks as spliced into the reference rendition, in `plan.filled` order.
    ///   - renditionOffsets: per filled break, in the same order, how far apart in seconds the
    ///     renditions' splice points are (`AlignedBreak.worstOffset`); nil for a title of one rendition.
    public static func vod(
        sessionID: String, plan: BreakPlan, reference: MediaPlaylist, pods: [SplicedPod],
        mode: TrackingMode, renditionOffsets: [Double]? = nil
    ) -> (tracking: TrackingDocument, beacons: [BeaconKey: [String]]) {
        vod(
            sessionID: sessionID, plan: plan, timeline: AvailTimeline(content: reference, pods: pods), mode: mode,
            renditionOffsets: renditionOffsets
        ) { cue in
            cue < 0
                ? reference.duration
                : PodPlacement.contentTime(
                    atSegment: PodPlacement.segmentIndex(forCuePoint: cue, in: reference), in: reference)
        }
    }

    /// The tracking document and server-side beacons of a stitched VOD title whose filled breaks
    /// sit as `timeline` says (any rendering: HLS splices, DASH periods).
    /// - Parameter contentTime: where an unfilled break at a cue point would have been, seconds
    ///   of content (a negative cue point is a post-roll).
    public static func vod(
        sessionID: String, plan: BreakPlan, timeline: AvailTimeline, mode: TrackingMode,
        renditionOffsets: [Double]? = nil, contentTime: (Double) -> Double
    ) -> (tracking: TrackingDocument, beacons: [BeaconKey: [String]]) {
        var beacons: [BeaconKey: [String]] = [:]
        var avails: [TrackingDocument.Avail] = []
        var filledNumber = 0
        for (index, planned) in plan.breaks.enumerated() {
            let cue = planned.position.cuePoint
            var avail = TrackingDocument.Avail(
                availId: "\(index)", position: planned.position.name, cuePoint: cue, startTimeSeconds: 0,
                durationSeconds: 0,
                skipReason: planned.skipReason?.rawValue, skipDetail: planned.skipDetail, ads: [],
                skippedAds: planned.skippedAds.map(\.tracked), trackingEvents: [])
            if planned.isFilled, let placed = timeline.avails.first(where: { $0.pod == filledNumber }) {
                avail.startTimeSeconds = placed.startTime
                avail.durationSeconds = placed.duration
                // Written to the millisecond, as playlists write durations.
                avail.renditionOffsetSeconds = renditionOffsets?[safe: filledNumber].map {
                    ($0 * 1000).rounded() / 1000
                }
                // `placed.ads` times every item the pod plays, bumpers included (`podItems`).
                let items = planned.podItems
                for (itemNumber, item) in items.enumerated() {
                    guard case .bumper(let bumper) = item, let timing = placed.ads[safe: itemNumber] else { continue }
                    avail.bumpers =
                        (avail.bumpers ?? []) + [
                            TrackingDocument.Bumper(
                                position: bumper.position.rawValue, url: bumper.configuredURL,
                                startTimeSeconds: timing.startTime, durationSeconds: timing.duration)
                        ]
                }
                for (adNumber, item) in planned.ads.enumerated() {
                    let timing = placed.ads[safe: planned.podItemIndex(ofAd: adNumber)]
                    let start = timing?.startTime ?? placed.startTime
                    let duration = timing?.duration ?? item.ad.duration
                    for event in AdProgressEvent.allCases where mode.seamFires(event.rawValue) {
                        beacons[BeaconKey(pod: filledNumber, ad: adNumber, event: event)] = item.ad.beaconURLs(
                            for: event)
                    }
                    avail.ads.append(ad(item.ad, start: start, duration: duration, mode: mode))
                }
                // Break beacons ride on the first ad's impression and the last ad's completion.
                if mode.seamFires("breakStart") {
                    beacons[BeaconKey(pod: filledNumber, ad: 0, event: .impression), default: []] +=
                        planned.breakStartURLs
                    beacons[BeaconKey(pod: filledNumber, ad: planned.ads.count - 1, event: .complete), default: []] +=
                        planned.breakEndURLs
                }
                avail.trackingEvents = breakEvents(
                    start: placed.startTime, duration: placed.duration,
                    starts: planned.breakStartURLs, ends: planned.breakEndURLs, mode: mode)
                filledNumber += 1
            } else {
                // An empty avail sits where it would have been, on the stitched clock.
                let contentTime = contentTime(cue)
                avail.startTimeSeconds =
                    contentTime
                    + timeline.avails.filter { $0.contentTime <= contentTime && $0.pod < filledNumber }
                    .reduce(0) { $0 + $1.duration }
            }
            avails.append(avail)
        }
        let tracking = TrackingDocument(
            sessionId: sessionID, trackingMode: mode, durationSeconds: timeline.totalDuration,
            avails: avails, cuePoints: plan.breaks.map(\.position.cuePoint))
        return (tracking, beacons)
    }

    // MARK: Live

    /// What the tracking JSON needs of one decided live break.
    public struct LiveDecision<Ad: TrackedAd>: Sendable {
        public var layout: LiveBreakLayout
        /// The decision's ads, indexed as the layout's slots index them (nil: not played).
        public var ads: [Ad?]
        public var skipReason: AvailSkipReason?
        public var detail: String?
        public var skippedAds: [BreakPlan.SkippedAd]
        public var breakStartURLs: [String]
        public var breakEndURLs: [String]
        /// Decided before the break opened (prefetch).
        public var prefetched: Bool
        /// The bumpers' configured URLs by position, for the tracking JSON.
        public var bumperURLs: [Bumper.Position: String]

        public init(
            layout: LiveBreakLayout, ads: [Ad?], skipReason: AvailSkipReason?, detail: String?,
            skippedAds: [BreakPlan.SkippedAd], breakStartURLs: [String], breakEndURLs: [String],
            prefetched: Bool = false, bumperURLs: [Bumper.Position: String] = [:]
        ) {
            self.prefetched = prefetched
            self.bumperURLs = bumperURLs
            self.layout = layout
            self.ads = ads
            self.skipReason = skipReason
            self.detail = detail
            self.skippedAds = skippedAds
            self.breakStartURLs = breakStartURLs
            self.breakEndURLs = breakEndURLs
        }
    }

    /// The beacons Seam fires when a player fetches segment `segment` of ad `ad` of a live break
    /// (`adPlaylist` is that ad's playlist in the rendition asked for): the ad's own for each event
    /// due at that segment, plus the break's `breakStart` on the first played ad's impression and
    /// `breakEnd` on the last played ad's completion — the rule `vod` applies to VOD pods. Only
    /// the events Seam fires in `mode`.
    public static func liveSegmentBeacons<Ad: TrackedAd>(
        ad: Int, segment: Int, adPlaylist: MediaPlaylist,
        decision: LiveDecision<Ad>, mode: TrackingMode
    )
        -> (events: [AdProgressEvent], beacons: [AdProgressEvent: [String]])
    {
        let events = AdProgressEvent.due(atSegment: segment, of: adPlaylist)
        guard let tracked = decision.ads[safe: ad] ?? nil else { return (events, [:]) }
        var beacons: [AdProgressEvent: [String]] = [:]
        let played = decision.layout.playedAds
        for event in events where mode.seamFires(event.rawValue) {
            var urls = tracked.beaconURLs(for: event)
            if mode.seamFires("breakStart") {
                if event == .impression, ad == played.first { urls += decision.breakStartURLs }
                if event == .complete, ad == played.last { urls += decision.breakEndURLs }
            }
            beacons[event] = urls
        }
        return (events, beacons)
    }

    /// Recent avails of a live session on its stitched timeline (seconds since the session's
    /// first segment), with program date-times when the origin gives them. Breaks still waiting
    /// for their decision are not listed, nor those `only` leaves out (nil: none).
    public static func live<Ad: TrackedAd>(
        sessionID: String, mode: TrackingMode, timeline: LiveTimeline, only: Set<Int>? = nil,
        decision: (Int) -> LiveDecision<Ad>?
    ) -> TrackingDocument {
        var avails: [TrackingDocument.Avail] = []
        for item in timeline.breaks where item.phase != .pending && only.map({ $0.contains(item.number) }) != false {
            let decided = decision(item.number)
            let layout = decided?.layout
            let start = item.sessionTime
            var avail = TrackingDocument.Avail(
                availId: "\(item.number)", position: item.isPreroll ? "preroll" : "live", cuePoint: start,
                startTimeSeconds: start,
                durationSeconds: layout.map { $0.isEmpty ? 0 : $0.duration } ?? 0,
                skipReason: decided?.skipReason?.rawValue, skipDetail: decided?.detail, ads: [],
                skippedAds: (decided?.skippedAds ?? []).map(\.tracked),
                trackingEvents: [])
            if let decided, let layout, !layout.isEmpty {
                for index in layout.playedAds {
                    guard let played = decided.ads[safe: index] ?? nil else { continue }
                    let slots = layout.slots.filter {
                        if case .ad(index, _) = $0.source { return true } else { return false }
                    }
                    let duration = slots.reduce(0) { $0 + $1.duration }
                    let adStart = start + ((slots.first.map { $0.end - $0.duration }) ?? 0)
                    avail.ads.append(ad(played, start: adStart, duration: duration, mode: mode))
                }
                let bumpers = layout.bumpers
                if !bumpers.isEmpty {
                    avail.bumpers = bumpers.map {
                        TrackingDocument.Bumper(
                            position: $0.position.rawValue, url: decided.bumperURLs[$0.position] ?? "",
                            startTimeSeconds: start + $0.start, durationSeconds: $0.duration)
                    }
                }
                avail.trackingEvents = breakEvents(
                    start: start, duration: layout.duration,
                    starts: decided.breakStartURLs, ends: decided.breakEndURLs, mode: mode)
            }
            if let time = item.programDateTime { avail.programDateTime = DateTime(secondsSince1970: time).text }
            avail.endedEarly = item.endedEarly ? true : nil
            avail.prefetched = decided?.prefetched == true ? true : nil
            avails.append(avail)
        }
        return TrackingDocument(
            sessionId: sessionID, trackingMode: mode, durationSeconds: timeline.sessionDuration,
            avails: avails, cuePoints: avails.map(\.cuePoint))
    }
}
