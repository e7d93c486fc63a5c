import Stitching

/// The bumpers Seam is configured to play (`ads.bumpers.*`): which of them a break gets, and how
/// each is loaded. A bumper is fetched (HLS) or conditioned (MP4) exactly as an ad's creative
/// is, in the same ad budget (`AdPlanner.availability`), and fitted to the title or channel by
/// the same rules; one that cannot play there, or is not ready in time, is left out of that
/// break (`seam_bumpers_missed_total`) and the break plays its ads without it.
struct BumperSource: Sendable {
    var startURL: String
    var endURL: String
    /// Whether VOD pre-rolls get bumpers (`ads.bumpers.preroll`).
    var preroll: Bool
    /// The positions configured with an HLS bumper only, which a DASH session cannot play
    /// (`seam_bumpers_missed_total{reason="dash_session"}`); empty for HLS.
    var unplayable: [Bumper.Position] = []

    /// The bumpers of sessions of `format`. A DASH session plays `ads.bumpers.dashStartURL` /
    /// `dashEndURL` (MPDs), else the HLS URL of the same position when it is an MP4 (conditioned
    /// for the title, read back as an MPD as an MP4-only ad is); an HLS playlist it cannot play.
    init(_ configuration: SeamConfiguration.Bumpers, format: StreamFormat = .hls) {
        preroll = configuration.preroll
        switch format {
        case .hls:
            startURL = configuration.startURL
            endURL = configuration.endURL
        case .dash:
            func dash(_ mpd: String, _ other: String) -> String {
                if !mpd.isEmpty { return mpd }
                return Self.isProgressive(other) ? other : ""
            }
            startURL = dash(configuration.dashStartURL, configuration.startURL)
            endURL = dash(configuration.dashEndURL, configuration.endURL)
            if startURL.isEmpty, !configuration.startURL.isEmpty { unplayable.append(.start) }
            if endURL.isEmpty, !configuration.endURL.isEmpty { unplayable.append(.end) }
        }
    }

    var isEmpty: Bool { startURL.isEmpty && endURL.isEmpty }

    /// The configured bumpers, by position.
    var configured: [(position: Bumper.Position, url: String)] {
        var all: [(position: Bumper.Position, url: String)] = []
        if !startURL.isEmpty { all.append((.start, startURL)) }
        if !endURL.isEmpty { all.append((.end, endURL)) }
        return all
    }

    /// The bumpers a filled break at `position` plays (live breaks are mid-rolls).
    func wanted(at position: BreakPosition) -> [(position: Bumper.Position, url: String)] {
        if case .preroll = position, !preroll { return [] }
        return configured
    }

    /// The configured bumpers a filled break at `position` goes without because they are HLS
    /// and the session DASH.
    func unplayable(at position: BreakPosition) -> [Bumper.Position] {
        if case .preroll = position, !preroll { return [] }
        return unplayable
    }

    /// The bumpers as the creative loader takes ads: a creative URL each (the ad identity is
    /// never reported: a bumper is no ad).
    var loads: [PlannedAd] {
        configured.map { PlannedAd(id: "bumper-\($0.position.rawValue)", duration: 0, creativeURL: $0.url) }
    }

    /// The MP4 bumpers to condition: URL → the creative identity conditioning caches it by.
    var progressive: [String: String] {
        var wanted: [String: String] = [:]
        for (_, url) in configured where Self.isProgressive(url) { wanted[url] = "bumper " + url }
        return wanted
    }

    /// Whether `url` names an MP4 file (its path ends in `.mp4`, `.m4v` or `.mov`; the query
    /// does not count) rather than an HLS playlist.
    static func isProgressive(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "#").first ?? $0 } ?? ""
        let lower = path.lowercased()
        return lower.hasSuffix(".mp4") || lower.hasSuffix(".m4v") || lower.hasSuffix(".mov")
    }

    /// Why a configured bumper does not play in a break: the `reason` label of
    /// `seam_bumpers_missed_total`.
    enum Miss: String, Error, Sendable {
        /// Its MP4 is being conditioned for this content; later sessions and breaks get it.
        case conditioning
        /// It could not be fetched or conditioned.
        case failed
        /// Not loaded within the ad budget.
        case late
        /// It cannot play in this content (codecs, renditions, segmenting).
        case mismatch
        /// Live: the break is too short for it with the ads.
        case doesNotFit = "does_not_fit"
        /// A DASH session's break, and the bumper is an HLS playlist: set `ads.bumpers.dashStartURL`
        /// / `dashEndURL` (an MPD), or give an MP4.
        case dashSession = "dash_session"
    }

    /// What a bumper's availability comes to: its creative when it `fits`, else why not.
    static func resolve(
        _ availability: CreativeAvailability?, fits: (AdCreative) -> Bool
    ) -> Result<AdCreative, Miss> {
        switch availability ?? .late {
        case .loaded(let creative): return fits(creative) ? .success(creative) : .failure(.mismatch)
        case .conditioning: return .failure(.conditioning)
        case .failed: return .failure(.failed)
        case .late: return .failure(.late)
        }
    }
}
