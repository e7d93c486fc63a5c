import DASH
import Foundation
import HLS
import NIOConcurrencyHelpers
import Stitching

/// What every session of one live channel shares: the origin's renditions, the session target
/// duration and the slate cut for each rendition. Built once per channel URL (see
/// `LiveChannelCatalog`), so a session holds a reference, not a copy. Nothing here belongs to one
/// viewer: the empty subtitle URI in fitted creatives and the slate is
/// `SessionURLs.emptySubtitlesPlaceholder`, which each session swaps for its own when it renders.
final class LiveChannel: Sendable {
    let url: String
    /// The multivariant playlist and each rendition's first window (URIs absolute).
    let content: ContentSet
    /// Origin URL of each rendition's media playlist.
    let renditionURLs: [RenditionKey: String]
    /// The rendition whose windows drive every session's timeline (the first variant).
    let referenceKey: RenditionKey
    /// Chosen once: covers the content and the slate; ads with longer segments are not used.
    let targetDuration: Int
    /// The slate per rendition (nil: no slate, content fills the rest of a break).
    let slate: [RenditionKey: MediaPlaylist]
    /// The slate's segment durations in the reference rendition.
    let slateDurations: [Double]?
    /// A DASH channel's slate (`live.dashSlateURL`) fitted to the channel as its ads are; nil
    /// when there is none (content fills what the ads leave).
    let dashSlate: DASHCreativeFit?
    let schedule: BreakSchedule?
    /// `sessions.removeOriginCues`: the origin's signals of filled breaks leave the stitched windows.
    let removeOriginCues: Bool
    /// A live DASH channel's MPD as first read: its newest period is what ads are fitted to
    /// (`DASHCreativeFit`). Nil for an HLS channel. Its sessions render MPDs
    /// (`DASHLiveRenderer`); the HLS view in `content` gives the ladder and the reference.
    let dash: DASHLiveWindow?
    /// Each DASH creative's fit to the channel, by creative URL: its ad periods are written from
    /// it on every reload. Kept as long as the media (`keepMedia`).
    private let dashFits = NIOLockedValueBox<[String: DASHCreativeFit]>([:])
    /// Content periods written from the newest MPD, shared by the sessions whose runs match.
    let contentPeriods = DASHLiveRenderer.ContentPeriodCache()
    /// Ad periods as every session writes them (`dashAdPeriod`), by creative, tracking and listing.
    private let dashAdPeriods = NIOLockedValueBox<[String: XMLElement]>([:])
    /// Shares the strings of ad answers between the channel's sessions (see `StringInterner`).
    let interner = StringInterner()
    /// Shares the decisions' bodies (ads, layout, beacons) between the channel's sessions that
    /// got the same answer for a break: each then keeps its break number and a reference.
    let decisionBodies = Interner<LiveBreakDecision.Shared>(capacity: 256)
    /// Shares the request between the channel's sessions that sent the same one (`SessionInputs.Pool`).
    let inputsPool = SessionInputs.Pool()
    /// How each creative fits this channel, worked out once for all sessions (`fit(_:)`).
    private let fits = NIOLockedValueBox<[String: CreativeFit.Verdict]>([:])
    /// The media of every creative the channel's sessions play, by creative URL: each rendition's
    /// fitted playlist, or none for a creative whose media is lost (its slots play content).
    /// Decisions name creatives by URL (`LiveBreakDecision`), so one copy serves every viewer and
    /// a session record carries no playlists. Let go only past `mediaCapacity` creatives; a
    /// session whose creative was let go fetches it again on its next reload
    /// (`LiveSession.creativesWithoutMedia`).
    private let media = NIOLockedValueBox<[String: [RenditionKey: MediaPlaylist]]>([:])
    private let mediaCapacity = 4096
    private let layouts = NIOLockedValueBox<[String: LiveBreakLayout]>([:])
    /// A session of this channel as it began, as its record keeps it in a store only this process
    /// reads (`SessionRecord.LiveState.asBegun`): one box for every session whose timeline starts
    /// from the same configuration, not one per viewer.
    private let begun = NIOLockedValueBox<Begun?>(nil)

    private struct Begun: Sendable {
        var timeline: LiveTimeline
        var kind: SessionRecord.Kind
    }

    /// The record kind of a session of this channel before its first reload: the channel and the
    /// timeline's `configuration`, no window, no decision.
    func begunRecordKind(_ configuration: LiveTimeline.Configuration) -> SessionRecord.Kind {
        begun(configuration).kind
    }

    /// The timeline a session of this channel starts from: a copy of one timeline per
    /// configuration, so the sessions share its configuration's allocation (`SharedValue`).
    func begunTimeline(_ configuration: LiveTimeline.Configuration) -> LiveTimeline {
        begun(configuration).timeline
    }

    private func begun(_ configuration: LiveTimeline.Configuration) -> Begun {
        begun.withLockedValue { cached in
            if let cached, cached.timeline.configuration == configuration { return cached }
            let timeline = LiveTimeline(configuration: configuration)
            let kind = SessionRecord.Kind.live(
                SessionRecord.Live(
                    channelURL: url,
                    session: LiveSessionMachine.Snapshot(timeline: timeline, decisions: [], served: [])))
            let made = Begun(timeline: timeline, kind: kind)
            cached = made
            return made
        }
    }

    init(
        url: String, content: ContentSet, slate: AdCreative?, schedule: BreakSchedule?, removeOriginCues: Bool = false,
        dash: DASHLiveWindow? = nil
    ) {
        self.url = url
        self.removeOriginCues = removeOriginCues
        self.content = content
        self.dash = dash
        referenceKey = content.referenceKey
        var urls: [RenditionKey: String] = [:]
        // A DASH channel has one origin document: every rendition's window is read from its MPD.
        for rendition in content.renditions { urls[rendition.key] = dash == nil ? rendition.sourceURL : url }
        renditionURLs = urls
        // A slate that cannot play in every rendition, or not with the same number of segments
        // in each, is no slate: the rule ads are fitted by (`CreativeFit.livePlaylists`,
        // `DASHCreativeFit` for a DASH channel's MPD slate).
        var slateByRendition: [RenditionKey: MediaPlaylist] = [:]
        var dashSlate: DASHCreativeFit?
        if let dash {
            if let slate, let mpd = slate.dash,
                case .success(let fit) = DASHCreativeFit.fit(mpd, url: slate.url, content: dash.mpd, cuePoint: -1),
                fit.playlists()[content.referenceKey]?.segments.isEmpty == false
            {
                dashSlate = fit
                slateByRendition = fit.playlists()
            }
        } else {
            slateByRendition =
                slate.flatMap {
                    try? CreativeFit.livePlaylists(
                        creative: $0, content: content, emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder
                    ).get()
                } ?? [:]
        }
        self.dashSlate = dashSlate
        let usable = !slateByRendition.isEmpty
        self.slate = usable ? slateByRendition : [:]
        slateDurations = usable ? slateByRendition[referenceKey]?.segments.map(\.duration) : nil
        var target = VODSplicer.targetDuration(covering: content.renditions.map(\.playlist))
        if usable { target = max(target, VODSplicer.targetDuration(covering: Array(slateByRendition.values))) }
        targetDuration = target
        self.schedule = schedule
    }

    /// The rendition named by its path form (`v0`), as sessions key their windows.
    func rendition(_ key: String) -> ContentSet.Rendition? {
        RenditionKey(key).flatMap(content.rendition)
    }

    /// How `creative` plays in each rendition (`CreativeFit.live`); worked out once per creative for all sessions.
    func fit(_ creative: AdCreative) -> CreativeFit.Verdict {
        if let known = fits.withLockedValue({ $0[creative.url] }) {
            // A DASH creative's fit may have been let go apart from its verdict: fit it again.
            if dash == nil || dashFit(creative.url) != nil { return known }
            if case .unusable = known { return known }
        }
        let fit: CreativeFit.Verdict
        if let dash {
            fit = fitDASH(creative, to: dash)
        } else {
            fit = CreativeFit.live(
                creative, in: content, targetDuration: targetDuration,
                emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        }
        fits.withLockedValue { fits in
            if fits.count > 256 { fits.removeAll() }
            fits[creative.url] = fit
        }
        return fit
    }

    /// A DASH creative fitted to the channel's newest period (`DASHCreativeFit`, the VOD rules):
    /// its playlists keyed as its ad periods name its representations, its fit kept for them.
    private func fitDASH(_ creative: AdCreative, to dash: DASHLiveWindow) -> CreativeFit.Verdict {
        guard let mpd = creative.dash else {
            return .unusable("creative \(creative.url) is not an MPD; a DASH channel plays ads' MPEG-DASH MediaFiles")
        }
        switch DASHCreativeFit.fit(mpd, url: creative.url, content: dash.mpd, cuePoint: -1) {
        case .failure(let skip):
            return .unusable(skip.reason)
        case .success(let fit):
            let playlists = fit.playlists()
            guard let reference = playlists[referenceKey], !reference.segments.isEmpty else {
                return .unusable("the ad's MPD \(creative.url) lists no video segment")
            }
            dashFits.withLockedValue { fits in
                if fits.count >= mediaCapacity { fits.removeAll(keepingCapacity: true) }
                fits[creative.url] = fit
            }
            return .usable(playlists)
        }
    }

    /// The ad period of DASH creative `url` listing its first `listing` seconds, as every session
    /// of the channel writes it but for its own id and ad segment route (`DASHAdPeriod.fitted`
    /// with placeholders, which `LiveSession.renderDASH` swaps for the session's): built once per
    /// creative and listing, not on every viewer's every reload. Nil when the creative was not
    /// fitted (or its fit was let go).
    func dashAdPeriod(creative url: String, mode: TrackingMode, listing: Double) -> XMLElement? {
        let key = "\(url)\n\(mode.rawValue)\n\(listing)"
        if let known = dashAdPeriods.withLockedValue({ $0[key] }) { return known }
        guard let fit = dashFit(url) else { return nil }
        let element = DASHAdPeriod.fitted(
            fit, id: "", pod: 0, ad: 0, mode: mode, urls: Self.placeholderURLs, listing: listing
        ).element
        dashAdPeriods.withLockedValue { periods in
            if periods.count >= 256 { periods.removeAll(keepingCapacity: true) }
            periods[key] = element
        }
        return element
    }

    /// The DASH slate's period listing its first `listing` seconds, its segments at the slate's
    /// own addresses (no beacons: it is not an ad); the same for every session, which names it.
    /// Nil without a DASH slate.
    func dashSlatePeriod(listing: Double) -> XMLElement? {
        guard let dashSlate else { return nil }
        return unroutedPeriod(key: "slate\n\(listing)", listing: listing) { dashSlate }
    }

    /// The period of DASH bumper `url` (a creative fitted to the channel, `fit`) listing its first
    /// `listing` seconds, its segments at the bumper's own addresses (no beacons: it is not an
    /// ad); the same for every session, which names it. Nil when it was not fitted (or its fit
    /// was let go).
    func dashBumperPeriod(creative url: String, listing: Double) -> XMLElement? {
        unroutedPeriod(key: "bumper\n\(url)\n\(listing)", listing: listing) { dashFit(url) }
    }

    /// A period kept by `key` for every session, written once from `fit` with the clip's own
    /// segment addresses (`.client`: nothing routed through Seam); nil when there is no fit.
    private func unroutedPeriod(key: String, listing: Double, fit: () -> DASHCreativeFit?) -> XMLElement? {
        if let known = dashAdPeriods.withLockedValue({ $0[key] }) { return known }
        guard let fit = fit() else { return nil }
        let element = DASHAdPeriod.fitted(
            fit, id: "", pod: 0, ad: 0, mode: .client, urls: Self.placeholderURLs, listing: listing
        ).element
        dashAdPeriods.withLockedValue { periods in
            if periods.count >= 256 { periods.removeAll(keepingCapacity: true) }
            periods[key] = element
        }
        return element
    }

    /// The session URLs shared ad periods are written with; `routePlaceholder` is their ad
    /// segment route's start.
    static let placeholderURLs = SessionURLs(baseURL: "seam-placeholder:", sessionID: "live")
    static let routePlaceholder = placeholderURLs.session + "/ad/0/0/"

    /// How DASH creative `url` was fitted to the channel; nil when it was not (or was let go:
    /// its ad period is then not written, as a lost creative's segments are not listed).
    func dashFit(_ url: String) -> DASHCreativeFit? {
        dashFits.withLockedValue { $0[url] }
    }

    /// The layout of a break of `duration` seconds offered these creatives (in order); one shared
    /// copy for the viewers of a break (all but late joiners ask for the same duration).
    func layout(
        _ creatives: [(url: String, playlists: [RenditionKey: MediaPlaylist])],
        bumpers: [Bumper.Position: (url: String, playlists: [RenditionKey: MediaPlaylist])] = [:],
        duration: Double, slate useSlate: Bool = true
    ) -> LiveBreakLayout {
        var key = creatives.map(\.url).joined(separator: "\n") + "\n\(duration)" + (useSlate ? "" : "\nno slate")
        for position in Bumper.Position.allCases {
            if let url = bumpers[position]?.url { key += "\n\(position):\(url)" }
        }
        if let known = layouts.withLockedValue({ $0[key] }) { return known }
        let built = LiveBreakLayout.make(
            breakDuration: duration,
            ads: creatives.map { $0.playlists[referenceKey]?.segments.map(\.duration) ?? [] },
            slate: useSlate ? slateDurations : nil,
            bumpers: bumpers.mapValues { $0.playlists[referenceKey]?.segments.map(\.duration) ?? [] })
        return layouts.withLockedValue { layouts in
            if layouts.count > 256 { layouts.removeAll() }
            if let raced = layouts[key] { return raced }
            layouts[key] = built
            return built
        }
    }

    /// Keeps the media of creatives fitted for this channel (a decision's usable ads, or those a
    /// session taken up from its record fetched again; empty playlists: the media is lost).
    func keepMedia(_ creatives: [(url: String, playlists: [RenditionKey: MediaPlaylist])]) {
        media.withLockedValue { media in
            if media.count + creatives.count > mediaCapacity { media.removeAll(keepingCapacity: true) }
            for creative in creatives where media[creative.url]?.isEmpty != false {
                media[creative.url] = creative.playlists
            }
        }
    }

    /// Of `urls`, the creatives whose media the channel holds no entry for (not even a lost one).
    func creativesWithoutMedia(_ urls: [String]) -> [String] {
        media.withLockedValue { media in urls.filter { media[$0] == nil } }
    }

    /// The fitted playlist of creative `url` in rendition `key`; nil when it has none or its media is lost.
    func playlist(creative url: String, rendition key: RenditionKey) -> MediaPlaylist? {
        media.withLockedValue { $0[url]?[key] }
    }

    /// What plays in `decision`'s break in rendition `key`: each ad's fitted playlist (by the
    /// layout's ad index) and the slate.
    func breakMedia(_ decision: LiveBreakDecision, rendition key: RenditionKey) -> LiveBreakMedia {
        let (ads, bumpers) = media.withLockedValue { media in
            let ads = decision.ads.map { ad in ad.flatMap { media[$0.creativeURL]?[key] } }
            var bumpers: [Bumper.Position: MediaPlaylist] = [:]
            for (position, url) in decision.bumperURLs ?? [:] { bumpers[position] = media[url]?[key] }
            return (ads, bumpers)
        }
        return LiveBreakMedia(ads: ads, slate: slate[key], bumpers: bumpers)
    }
}
