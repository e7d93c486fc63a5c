import Foundation
import HLS
import Logging
import SCTE35
import Stitching
import VAST

/// Creates sessions. VOD: fetches the content, asks for ads within the time budget, fetches
/// the creatives, splices every rendition and precomputes everything the session serves.
/// Live: shares the channel with its other viewers and starts the session's timeline (each
/// break is decided when its cue appears). Ad trouble never fails a session; origin trouble
/// does (the caller falls back).
public struct SessionBuilder: Sendable {
    public let configuration: SeamConfiguration
    public let upstream: any UpstreamFetching
    public let ads: any AdDecisionProviding
    public let creatives: CreativeLoader
    public let logger: Logger
    /// Shared live machinery (origin cache, channels, the break decision queue); nil refuses live streams.
    let live: LiveServices?
    /// Signs the ids of new sessions (see `SessionIDKey`).
    public let sessionIDs: SessionIDKey

    /// - Parameters:
    ///   - sessionIDs: the deployment's id key; a random one (ids unknown after a restart) by default.
    ///   - now: the clock live origin windows are timed with (freshness, `live.maxStaleSeconds`).
    public init(configuration: SeamConfiguration, upstream: any UpstreamFetching, ads: any AdDecisionProviding,
                creatives: CreativeLoader, logger: Logger,
                background: BackgroundExecutor = BackgroundExecutor(name: "seam-background",
                                                                    maxThreads: ProcessInfo.processInfo.activeProcessorCount),
                sessionIDs: SessionIDKey = .random(),
                now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.configuration = configuration
        self.upstream = upstream
        self.ads = ads
        self.creatives = creatives
        self.logger = logger
        self.sessionIDs = sessionIDs
        live = LiveServices(configuration: configuration, upstream: upstream, ads: ads, creatives: creatives, logger: logger,
                            background: background, now: now)
    }

    /// The parts of an incoming request a session is built from.
    public struct Inputs: Sendable {
        public var request: SessionRequest
        public var deviceIP: String?
        public var userAgent: String?
        /// Where players reach Seam, e.g. `http://127.0.0.1:8080`.
        public var baseURL: String

        public init(request: SessionRequest, deviceIP: String?, userAgent: String?, baseURL: String) {
            self.request = request
            self.deviceIP = deviceIP
            self.userAgent = userAgent
            self.baseURL = baseURL
        }
    }

    // MARK: Content

    struct ContentRendition: Sendable {
        enum Kind: Sendable { case variant, audio, subtitles }
        var key: String
        var kind: Kind
        var variant: VariantStream?
        var rendition: Rendition?
        var playlist: MediaPlaylist
        /// Where the media playlist comes from (live sessions fetch it again on every reload).
        var sourceURL: String
    }

    struct Content: Sendable {
        var multivariant: MultivariantPlaylist
        var renditions: [ContentRendition]
        var reference: MediaPlaylist { renditions[0].playlist }
    }

    static func originError(_ error: UpstreamError, url: String) -> SeamError {
        switch error {
        case .timeout: return SeamError(.originTimeout, "the origin did not answer in time for \(url); try again, or check the origin")
        case .blocked(let host, let reason): return SeamError(.domainNotAllowed, "Seam may not fetch from \(host): \(reason)")
        case .invalidURL: return SeamError(.invalidPlaybackURL, "\(url) is not an http(s) URL")
        default: return SeamError(.originUnavailable, "the origin could not be reached for \(url): \(error)")
        }
    }

    /// Why the origin's answer for `url` cannot be used, for `ORIGIN_INVALID_PLAYLIST`.
    static func unusablePlaylistMessage(_ url: String, _ error: PlaylistParseError) -> String {
        if case .valueOutOfRange = error {
            return "the origin's playlist at \(url) has a number no stream can carry, so Seam does not serve it: \(error)"
        }
        return "the origin's answer for \(url) is not an HLS playlist: \(error)"
    }

    /// Fetches and parses one content playlist, within the session's cost limits: its bytes count
    /// against `budget`, and a media playlist over `sessions.maxSegmentsPerPlaylist` is refused
    /// before it is parsed.
    func fetchPlaylist(_ url: String, budget: ContentByteBudget) async throws(SeamError) -> (Playlist, String) {
        let response: UpstreamResponse
        let observer = SessionCostLimits(configuration.sessions).observer(for: url, budget: budget)
        do {
            response = try await upstream.fetch(UpstreamRequest(url: url, purpose: .origin, bodyObserver: observer))
        } catch {
            switch error {
            case .refused(_, let reason):
                throw SeamError(.originInvalidPlaylist, reason)
            case .tooLarge:
                throw SeamError(.originInvalidPlaylist, "the origin's playlist at \(url) is larger than upstream.maxPlaylistBytes (\(configuration.upstream.maxPlaylistBytes) bytes); raise upstream.maxPlaylistBytes if this content is meant to play")
            default:
                throw Self.originError(error, url: url)
            }
        }
        if let reason = observer.finish(response.body) { throw SeamError(.originInvalidPlaylist, reason) }
        let playlist: Playlist
        do {
            playlist = try Playlist(parsing: String(buffer: response.body))
        } catch {
            throw SeamError(.originInvalidPlaylist, SessionBuilder.unusablePlaylistMessage(url, error))
        }
        if case .media(let media) = playlist {
            try SessionCostLimits(configuration.sessions).checkSegments(media.segments.count, url: url)
        }
        return (playlist, response.finalURL)
    }

    func loadContent(_ url: String) async throws(SeamError) -> Content {
        let budget = ContentByteBudget(limit: SessionCostLimits(configuration.sessions).maxContentBytes)
        let (playlist, finalURL) = try await fetchPlaylist(url, budget: budget)
        switch playlist {
        case .media(var media):
            media.resolveURIs(against: finalURL)
            var multivariant = MultivariantPlaylist(version: media.version)
            let variant = VariantStream(uri: finalURL, bandwidth: 0)
            multivariant.variants = [variant]
            return Content(multivariant: multivariant, renditions: [ContentRendition(key: "v0", kind: .variant, variant: variant, playlist: media, sourceURL: finalURL)])
        case .multivariant(var multivariant):
            multivariant.resolveURIs(against: finalURL)
            guard !multivariant.variants.isEmpty else {
                throw SeamError(.originInvalidPlaylist, "the multivariant playlist at \(url) lists no variants")
            }
            var wanted: [(key: String, kind: ContentRendition.Kind, variant: VariantStream?, rendition: Rendition?, uri: String)] = []
            for (index, variant) in multivariant.variants.enumerated() {
                wanted.append(("v\(index)", .variant, variant, nil, variant.uri))
            }
            for (index, rendition) in multivariant.renditions.enumerated() {
                guard let uri = rendition.uri else { continue }
                switch rendition.type {
                case .audio: wanted.append(("a\(index)", .audio, nil, rendition, uri))
                case .subtitles: wanted.append(("s\(index)", .subtitles, nil, rendition, uri))
                case .video: wanted.append(("m\(index)", .variant, nil, rendition, uri))
                default: continue
                }
            }
            // Counted before any media playlist is fetched.
            try SessionCostLimits(configuration.sessions).checkRenditions(wanted.count, url: url)
            var fetched: [String: MediaPlaylist] = [:]
            let results = await withTaskGroup(of: (String, Result<MediaPlaylist, SeamError>).self) { group in
                for item in wanted {
                    group.addTask {
                        let fetched = await Result { () async throws(SeamError) in try await fetchPlaylist(item.uri, budget: budget) }
                        switch fetched {
                        case .failure(let error):
                            return (item.key, .failure(error))
                        case .success((.media(var media), let final)):
                            media.resolveURIs(against: final)
                            return (item.key, .success(media))
                        case .success:
                            return (item.key, .failure(SeamError(.originInvalidPlaylist, "\(item.uri) is not a media playlist")))
                        }
                    }
                }
                var all: [(String, Result<MediaPlaylist, SeamError>)] = []
                for await result in group {
                    all.append(result)
                    // One failure fails the start: the other fetches are of no more use.
                    if case .failure = result.1 {
                        group.cancelAll()
                        break
                    }
                }
                return all
            }
            for (key, result) in results {
                switch result {
                case .success(let media): fetched[key] = media
                case .failure(let error): throw error
                }
            }
            let renditions = wanted.compactMap { item -> ContentRendition? in
                guard let playlist = fetched[item.key] else { return nil }
                return ContentRendition(key: item.key, kind: item.kind, variant: item.variant, rendition: item.rendition, playlist: playlist, sourceURL: item.uri)
            }
            return Content(multivariant: multivariant, renditions: renditions)
        }
    }

    // MARK: Ads

    /// One break as decided: where it goes and what plays (or why nothing does).
    struct PlannedBreak {
        var position: BreakPosition
        var decision: AdBreakDecision
        /// The break's own length when its marker gives one (`EXT-X-CUE-OUT:30`, a date range's
        /// planned duration): the pod never runs longer.
        var breakSeconds: Double? = nil
        var creatives: [(ad: ResolvedAd, creative: AdCreative)] = []
        /// VMAP `breakStart` / `breakEnd` beacons of the break.
        var breakStartURLs: [String] = []
        var breakEndURLs: [String] = []
    }

    /// Break positions from markers in a VOD playlist (`EXT-X-CUE-OUT`, `EXT-X-DATERANGE` with
    /// `SCTE35-OUT`): the content time of each marked segment.
    static func markerPositions(in playlist: MediaPlaylist) -> [BreakPosition] {
        markerBreaks(in: playlist).map(\.position)
    }

    /// The marked breaks of a VOD playlist with their planned durations when the marker gives one.
    static func markerBreaks(in playlist: MediaPlaylist) -> [(position: BreakPosition, seconds: Double?)] {
        var breaks: [(position: BreakPosition, seconds: Double?)] = []
        var elapsed = 0.0
        for segment in playlist.segments {
            let cues = segment.cues.filter { $0.kind == .cueOut || $0.kind == .oatclsSCTE35 }
            let ranges = segment.dateRanges.filter { $0.scte35Out != nil }
            if !cues.isEmpty || !ranges.isEmpty {
                let seconds = cues.lazy.compactMap { CueDialect.signal(from: $0, options: .lenient)?.plannedDuration }.first
                    ?? ranges.lazy.compactMap { $0.plannedDuration ?? $0.duration }.first
                breaks.append((elapsed == 0 ? .preroll : .midroll(seconds: elapsed), seconds))
            }
            elapsed += segment.duration
        }
        return breaks
    }

    static func position(forCuePoint seconds: Double) -> BreakPosition {
        seconds < 0 ? .postroll : (seconds == 0 ? .preroll : .midroll(seconds: seconds))
    }

    func adContext(_ inputs: Inputs, id: SessionID, content: Content, position: BreakPosition, index: Int) -> AdRequestContext {
        Self.adContext(inputs, id: id, contentDuration: content.reference.duration, position: position, index: index)
    }

    /// The ad request values of a session (`contentDuration` nil for live streams).
    static func adContext(_ inputs: Inputs, id: SessionID, contentDuration: Double?, position: BreakPosition, index: Int) -> AdRequestContext {
        var context = AdRequestContext(sessionID: id.value, contentURL: inputs.request.url, breakPosition: position, breakIndex: index)
        context.contentID = inputs.request.contentId
        context.contentDurationSeconds = inputs.request.durationMs.map { Double($0) / 1000 } ?? contentDuration
        context.deviceIP = inputs.deviceIP
        context.userAgent = inputs.userAgent
        context.adParameters = inputs.request.adParams ?? [:]
        context.customParameters = inputs.request.customParams ?? [:]
        context.adTagHeaders = inputs.request.adTagHeaders ?? [:]
        context.gdpr = inputs.request.consent?.gdpr
        context.gdprConsent = inputs.request.consent?.gdprConsent
        context.allowStorage = inputs.request.consent?.allowStorage
        context.palNonce = inputs.request.palNonce
        return context
    }

    /// Most breaks one VOD session plans: each may cost ad requests, so a playlist with 20,000
    /// cue markers (or a VMAP with 20,000 breaks) must not turn into 20,000 requests. The first
    /// ones in content order are kept; the rest play as content.
    static let maxBreaks = 64

    func planBreaks(_ inputs: Inputs, id: SessionID, content: Content, deadline: ContinuousClock.Instant) async -> [PlannedBreak] {
        let template = configuration.ads.adTagURL
        guard !template.isEmpty else { return [] }
        let duration = content.reference.duration
        let markerBreaks = Array(Self.markerBreaks(in: content.reference).prefix(Self.maxBreaks))
        let markers = markerBreaks.map(\.position)
        let firstPosition = markers.first ?? configuration.ads.cuePoints.first.map(Self.position(forCuePoint:)) ?? .preroll
        let first = await ads.requestAdTag(context: adContext(inputs, id: id, content: content, position: firstPosition, index: 0),
                                           template: template, deadline: deadline)
        switch first {
        case .failed(let reason, let detail):
            let positions = markers.isEmpty ? configuration.ads.cuePoints.map(Self.position(forCuePoint:)) : markers
            return positions.map { PlannedBreak(position: $0, decision: AdBreakDecision(ads: [], skipReason: reason, detail: detail)) }
        case .vmap(let vmap, let url):
            return await withTaskGroup(of: (Int, PlannedBreak?).self) { group in
                for (index, adBreak) in vmap.adBreaks.prefix(Self.maxBreaks).enumerated() {
                    guard adBreak.breakTypes.isEmpty || adBreak.isLinear else { continue }
                    let position: BreakPosition
                    switch adBreak.timeOffset {
                    case .start: position = .preroll
                    case .end: position = .postroll
                    default:
                        guard let seconds = adBreak.timeOffset.seconds(contentDuration: duration) else { continue }
                        position = seconds <= 0 ? .preroll : (seconds >= duration ? .postroll : .midroll(seconds: seconds))
                    }
                    let context = adContext(inputs, id: id, content: content, position: position, index: index)
                    let starts = adBreak.trackingEvents.filter { $0.event == .breakStart }.map(\.url)
                    let ends = adBreak.trackingEvents.filter { $0.event == .breakEnd }.map(\.url)
                    group.addTask {
                        let decision = await ads.decideBreak(adBreak, vmapURL: url, context: context, deadline: deadline)
                        return (index, PlannedBreak(position: position, decision: decision, breakStartURLs: starts, breakEndURLs: ends))
                    }
                }
                var planned: [(Int, PlannedBreak)] = []
                for await (index, item) in group { if let item { planned.append((index, item)) } }
                return planned.sorted { $0.0 < $1.0 }.map(\.1)
            }
        case .vast(let document, let url):
            let positions = markers.isEmpty ? configuration.ads.cuePoints.map(Self.position(forCuePoint:)) : markers
            return await withTaskGroup(of: (Int, PlannedBreak).self) { group in
                for (index, position) in positions.enumerated() {
                    let context = adContext(inputs, id: id, content: content, position: position, index: index)
                    let seconds = markers.isEmpty ? nil : markerBreaks[index].seconds
                    group.addTask {
                        if index == 0 {
                            return (index, PlannedBreak(position: position, decision: await ads.decide(document, documentURL: url, context: context, deadline: deadline),
                                                        breakSeconds: seconds))
                        }
                        // Each further cue point asks the ad server again with its own [BREAKPOSITION].
                        switch await ads.requestAdTag(context: context, template: template, deadline: deadline) {
                        case .vast(let more, let moreURL):
                            return (index, PlannedBreak(position: position, decision: await ads.decide(more, documentURL: moreURL, context: context, deadline: deadline),
                                                        breakSeconds: seconds))
                        case .vmap:
                            return (index, PlannedBreak(position: position, decision: AdBreakDecision(ads: [], skipReason: .invalidVAST, detail: "the ad tag switched from VAST to VMAP")))
                        case .failed(let reason, let detail):
                            return (index, PlannedBreak(position: position, decision: AdBreakDecision(ads: [], skipReason: reason, detail: detail)))
                        }
                    }
                }
                var planned: [(Int, PlannedBreak)] = []
                for await item in group { planned.append(item) }
                return planned.sorted { $0.0 < $1.0 }.map(\.1)
            }
        }
    }

    /// Why `creative` cannot play in `content` (another container, no rendition in the content's
    /// codecs), or nil. VOD sessions and live channels apply the same rule.
    static func incompatibility(of creative: AdCreative, with content: Content) -> String? {
        if creative.isFragmentedMP4 != (content.reference.segments.first?.map != nil) {
            return "creative is \(creative.isFragmentedMP4 ? "fMP4" : "MPEG-TS") but the content is not"
        }
        let streams = creative.variants.map(\.stream)
        if content.renditions.contains(where: { $0.kind == .variant && $0.variant.map { CreativeMatcher.bestMatch(for: $0, among: streams) == nil } ?? false }) {
            return "no creative rendition has the content's codecs"
        }
        return nil
    }

    /// Applies `ads.maxAdsPerPod` and the pod's length cap (`ads.maxPodSeconds`, the break's own
    /// duration) to every decided break, before any creative is fetched.
    func capPods(_ breaks: [PlannedBreak]) -> [PlannedBreak] {
        let limits = PodLimits(configuration.ads)
        return breaks.map { planned in
            var planned = planned
            let (kept, skipped) = limits.apply(to: planned.decision.ads, breakSeconds: planned.breakSeconds)
            planned.decision.ads = kept
            planned.decision.skippedAds += skipped
            return planned
        }
    }

    /// Fetches the decided ads' creatives, all breaks together, a few at a time
    /// (`CreativeLoader.concurrencyPerPod`), all by `deadline` (the end of the ad budget). Ads whose
    /// creative cannot be used, or did not arrive in time, are moved to `skippedAds` with the
    /// reason; a break left with none gets a skip reason.
    func loadCreatives(_ breaks: [PlannedBreak], content: Content, deadline: ContinuousClock.Instant) async -> [PlannedBreak] {
        var numbers: [[Int]] = []
        var urls: [String] = []
        for planned in breaks {
            numbers.append(planned.decision.ads.map { ad in
                urls.append(ad.hlsURL)
                return urls.count - 1
            })
        }
        let loaded = await creatives.loadAll(urls, deadline: deadline)
        var result = breaks
        for index in result.indices {
            var usable: [(ResolvedAd, AdCreative)] = []
            for (adIndex, ad) in result[index].decision.ads.enumerated() {
                switch loaded[numbers[index][adIndex]] {
                case .success(let creative)?:
                    if let reason = Self.incompatibility(of: creative, with: content) {
                        result[index].decision.skippedAds.append((ad.adID, reason))
                    } else {
                        usable.append((ad, creative))
                    }
                case .failure(let error)?:
                    result[index].decision.skippedAds.append((ad.adID, error.description))
                case nil:
                    result[index].decision.skippedAds.append((ad.adID, "creative \(ad.hlsURL) not loaded within the ad budget (ads.totalBudgetSeconds)"))
                }
            }
            result[index].creatives = usable
            if usable.isEmpty && result[index].decision.skipReason == nil {
                let hadAds = !result[index].decision.ads.isEmpty
                result[index].decision.skipReason = hadAds ? .noVariantMatch : .noFill
            }
            result[index].decision.ads = usable.map(\.0)
        }
        return result
    }
}

extension Result {
    /// `Result(catching:)` for async typed-throwing work.
    init(_ body: () async throws(Failure) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
