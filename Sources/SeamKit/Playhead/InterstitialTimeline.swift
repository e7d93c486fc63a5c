import SeamWire

/// Where an interstitials player is inside a break: the interstitial's `ID` (the tracking JSON's
/// `interstitialId`), which asset of its asset list, and how far into that asset. AVPlayer's
/// `AVPlayerInterstitialEventMonitor` (current event, current asset item and its time) and
/// hls.js's `INTERSTITIAL_ASSET_*` events give exactly this.
public struct InterstitialPosition: Sendable, Equatable {
    public var interstitialID: String
    public var assetIndex: Int
    public var assetTime: Double

    public init(interstitialID: String, assetIndex: Int, assetTime: Double) {
        self.interstitialID = interstitialID
        self.assetIndex = assetIndex
        self.assetTime = assetTime
    }
}

/// A playhead of the interstitials rendering: the primary player's time (the content alone, for
/// VOD) and, while a break plays, the interstitial position.
public protocol InterstitialsPlayheadAdapter: PlayheadAdapter {
    /// The break being played, nil while the primary content plays.
    var interstitial: InterstitialPosition? { get }
}

/// Puts an interstitials player on the timeline SeamKit's engine and the tracking JSON use (the
/// stitched one: content and ads one after the other), so the same events, quartiles and beacons
/// come out whichever rendering plays.
///
/// VOD: inside a break, the time is its ad's start plus the time into that asset; on the
/// primary, the content time plus every break before it — a break at exactly the primary's
/// position counts once it was played (the primary waits at the cue point while it plays, and
/// resumes there). Live: inside a break, the break's start (and program date-time) plus the time
/// into it; on the primary, the primary's own time, which is the session's (live breaks take
/// their span of the primary's timeline).
public struct InterstitialTimeline: Sendable {
    private struct Break: Sendable {
        var interstitialID: String
        var start: Double
        var duration: Double
        /// Where the break sits in the content (VOD).
        var contentStart: Double
        /// The break's first segment's program date-time, seconds since 1970 (live).
        var date: Double?
        /// Every asset of the break's list in play order: its ads and bumpers.
        var ads: [(start: Double, duration: Double)]
    }

    private var breaks: [Break] = []
    private var played: Set<String> = []
    private var current: String?

    public init() {}

    /// The tracking JSON, fetched again as live breaks arrive.
    public mutating func updateTracking(_ document: TrackingDocument) {
        var before = 0.0
        var next: [Break] = []
        for avail in document.avails.sorted(by: { $0.startTimeSeconds < $1.startTimeSeconds }) {
            guard let id = avail.interstitialId, !avail.ads.isEmpty, avail.durationSeconds > 0 else { continue }
            next.append(
                Break(
                    interstitialID: id, start: avail.startTimeSeconds, duration: avail.durationSeconds,
                    contentStart: avail.startTimeSeconds - before,
                    date: avail.programDateTime.flatMap(AdEventEngine.seconds(iso8601:)),
                    // The asset list plays bumpers and ads in time order: asset `i` is the `i`th of both.
                    ads: (avail.ads.map { ($0.startTimeSeconds, $0.durationSeconds) }
                        + (avail.bumpers ?? []).map { ($0.startTimeSeconds, $0.durationSeconds) })
                        .sorted { $0.0 < $1.0 }))
            before += avail.durationSeconds
        }
        breaks = next
    }

    /// Notes where the player is (a break that was playing and no longer is has been played).
    public mutating func observe(_ interstitial: InterstitialPosition?) {
        if let current, current != interstitial?.interstitialID { played.insert(current) }
        current = interstitial?.interstitialID
    }

    /// The time on the engine's timeline for a player at `primaryTime`, or inside `interstitial`.
    public func time(primaryTime: Double, interstitial: InterstitialPosition?, live: Bool) -> Double {
        if let interstitial, let (_, ad) = locate(interstitial) {
            return ad.start + min(max(interstitial.assetTime, 0), ad.duration)
        }
        guard !live else { return primaryTime }
        var time = primaryTime
        var waiting = false
        for item in breaks {
            let atCue = abs(item.contentStart - primaryTime) <= 0.001
            if item.contentStart < primaryTime - 0.001 || (atCue && played.contains(item.interstitialID)) {
                time += item.duration
            } else if atCue {
                waiting = true
            }
        }
        // At a cue point whose break has not played yet, the player is just before the break: it
        // starts when the interstitial does.
        return waiting ? time - 0.001 : time
    }

    /// The program date-time on the engine's clock: inside a break, the break's date plus the
    /// time into it; on the primary, the primary's own.
    public func date(primaryDate: Double?, interstitial: InterstitialPosition?) -> Double? {
        guard let interstitial, let (item, ad) = locate(interstitial), let date = item.date else { return primaryDate }
        return date + (ad.start - item.start) + min(max(interstitial.assetTime, 0), ad.duration)
    }

    /// Breaks whose interstitial has played to its end (or been left).
    public var playedInterstitialIDs: Set<String> { played }

    private func locate(_ interstitial: InterstitialPosition) -> (Break, (start: Double, duration: Double))? {
        guard let item = breaks.first(where: { $0.interstitialID == interstitial.interstitialID }),
            item.ads.indices.contains(interstitial.assetIndex)
        else { return nil }
        return (item, item.ads[interstitial.assetIndex])
    }
}
