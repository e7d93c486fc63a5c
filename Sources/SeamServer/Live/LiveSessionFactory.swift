import DASH
import Foundation
import HLS
import Logging
import Stitching

/// Starts and serves live sessions: finds or builds the channel behind a live URL (shared by its
/// viewers), starts each session's timeline, and brings it up to the origin's newest window on
/// every playlist request. Breaks are decided as their cues appear (`LiveBreakDecider`).
struct LiveSessionFactory: Sendable {
    let services: LiveServices
    let creatives: CreativeLoader
    let configuration: SeamConfiguration
    let logger: Logger

    /// The channel of `url` when one is already built (a new viewer of a known channel skips the content fetch).
    func cachedChannel(_ url: String) async -> LiveChannel? {
        services.catalog.cached(url)
    }

    /// The channel of `url`, built from `content` (its first windows) when there is none yet.
    func channel(_ url: String, content: ContentSet) async throws(SeamError) -> LiveChannel {
        try await services.catalog.channel(url) { () async throws(SeamError) -> LiveChannel in
            await makeChannel(url, content: content)
        }
    }

    /// Starts a live session on `channel`: its timeline begins with the reference rendition's
    /// current window, and a break already in that window is decided before the player hears back.
    func start(
        _ channel: LiveChannel, id: SessionID, inputs: SessionInputs, mode sessionMode: SessionMode = .stitched
    ) async throws(SeamError) -> LiveSession {
        let mode = inputs.trackingMode(default: configuration.ads.trackingMode)
        let inputs = inputs.interned(by: channel.interner).sharing(channel.inputsPool)
        let session = LiveSession(
            id: id, channel: channel, inputs: inputs, trackingMode: mode,
            defaultBreakSeconds: configuration.live.defaultBreakSeconds, mode: sessionMode,
            completesAdOnEarlyReturn: configuration.live.earlyReturn == "complete",
            prerollSeconds: configuration.live.prerollMaxSeconds > 0 ? configuration.live.prerollMaxSeconds : nil)
        try await refresh(session, waitForDecisions: true)
        return session
    }

    /// Takes a live session up from its record (written by another replica) on `channel`: the
    /// inputs and modes it was started with, and its machine resumed from the record's snapshot
    /// (`LiveSessionMachine(resuming:)`). No ad request is made again: the decisions' media come
    /// from the channel by creative URL, fetched by the refresh when the channel lacks them
    /// (`loadMedia`). The timeline is brought to the origin's window before the session serves.
    func revive(
        _ record: SessionRecord, live: SessionRecord.Live, on channel: LiveChannel
    ) async throws(SeamError) -> LiveSession {
        let inputs = record.inputs.interned(by: channel.interner).sharing(channel.inputsPool)
        // Decoded, each decision has a body of its own: shared as the decider's are.
        var snapshot = live.session
        for index in snapshot.decisions.indices { snapshot.decisions[index].shareBody(channel.decisionBodies.intern) }
        if var prefetched = snapshot.prefetched {
            for index in prefetched.indices { prefetched[index].decision.shareBody(channel.decisionBodies.intern) }
            snapshot.prefetched = prefetched
        }
        let session = LiveSession(
            resuming: snapshot, id: record.id, channel: channel, inputs: inputs,
            trackingMode: record.trackingMode, mode: record.mode)
        try await refresh(session)
        return session
    }

    /// Fetches the media of creatives a session's decisions play and the channel lacks, and
    /// keeps them on the channel (a creative conditioned on this replica's disk, a shared
    /// directory, is read from it; the others through the creative loader, concurrently), each
    /// fitted by the channel as when decided. A creative that cannot be fetched now is kept as
    /// lost (logged): its ad's slots play content (the renderer's fallback).
    private func loadMedia(_ urls: [String], on channel: LiveChannel, session: SessionID) async {
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.upstream.adMediaTimeoutSeconds * 1000))
        var kept: [(url: String, playlists: [RenditionKey: MediaPlaylist])] = []
        var fetched: [String] = []
        for url in urls {
            if var local = services.conditioning?.localCreative(at: url) {
                // A DASH channel plays the conditioned creative as the ad MPD it is.
                if channel.dash != nil, case .success(let mpd) = DASHConditioning.creativeMPD(local) {
                    local = AdCreative(url: local.url, dash: mpd)
                }
                kept.append((url, fit(.success(local), url: url, on: channel, session: session) ?? [:]))
            } else {
                fetched.append(url)
            }
        }
        // A DASH channel's creatives are their MPDs.
        let loaded =
            channel.dash == nil
            ? await creatives.loadAll(fetched, deadline: deadline)
            : await creatives.loadAllDASH(fetched, deadline: deadline)
        for (url, loaded) in zip(fetched, loaded) {
            kept.append((url, fit(loaded, url: url, on: channel, session: session) ?? [:]))
        }
        channel.keepMedia(kept)
    }

    /// A decided creative's playlists in each rendition of `channel`; nil (logged) when it could
    /// not be fetched (or not before the deadline) or no longer fits.
    private func fit(
        _ loaded: Result<AdCreative, CreativeLoader.CreativeError>?, url: String, on channel: LiveChannel,
        session: SessionID
    ) -> [RenditionKey: MediaPlaylist]? {
        let reason: String
        switch loaded {
        case nil: reason = "not fetched within upstream.adMediaTimeoutSeconds"
        case .failure(let error)?: reason = "\(error)"
        case .success(let creative)?:
            switch channel.fit(creative) {
            case .usable(let playlists): return playlists
            case .unusable(let why): reason = why
            }
        }
        logger.warning(
            "a live session lost an ad's media (taken up from its record, or let go by its channel); its slots play content",
            metadata: [
                "session": "\(session)", "creative": "\(url)", "reason": "\(reason)",
            ])
        return nil
    }

    /// Brings a live session's timeline up to the origin's newest reference window.
    /// - Returns: the reference window it advanced with (nil for a channel without one).
    @discardableResult
    func refresh(_ session: LiveSession, waitForDecisions: Bool = false) async throws(SeamError) -> OriginWindow? {
        guard let url = session.channel.renditionURLs[session.channel.referenceKey] else { return nil }
        let window = try await services.cache.window(url)
        await session.advance(
            with: window.playlist, decider: services.decider, budget: adBudget,
            waitForDecision: waitForDecisions, announced: services.announcements.breaks(for: session.channel.url),
            prefetchLead: prefetchLead(session))
        let missing = session.creativesWithoutMedia()
        if !missing.isEmpty { await loadMedia(missing, on: session.channel, session: session.id) }
        return window
    }

    /// One budget for the ad server and the creatives' fetch, as for VOD starts.
    private var adBudget: Duration { .milliseconds(Int64(configuration.ads.totalBudgetSeconds * 1000)) }

    private func prefetchLead(_ session: LiveSession) -> Duration? {
        PrefetchLead.lead(
            for: session.id, seconds: configuration.live.prefetchSeconds,
            spread: configuration.live.prefetchSpreadSeconds)
    }

    /// A reload of one rendition answered without suspending, as `playlist` and
    /// `interstitialsPlaylist` answer it, when everything it needs is at hand: both origin
    /// windows in the cache (fresh, or a busy channel's served while it refreshes) and every
    /// creative's media loaded. Nil otherwise — the timeline may have moved on with the window
    /// at hand; the router's path then does the rest (an advance with the same window changes
    /// nothing) — and for a request the router answers with an error.
    func playlistAtHand(_ session: LiveSession, rendering: SessionMode, rendition key: RenditionKey) -> MediaPlaylist? {
        let channel = session.channel
        // A DASH session answers its MPD only: the router says so.
        guard channel.dash == nil, let referenceURL = channel.renditionURLs[channel.referenceKey],
            let url = channel.renditionURLs[key],
            let reference = services.cache.windowAtHand(referenceURL),
            let window = url == referenceURL ? reference : services.cache.windowAtHand(url)
        else { return nil }
        guard advancedAtHand(session, with: reference.playlist, announced: announcedBreaks(channel)) else {
            return nil
        }
        switch rendering {
        case .stitched:
            do { return try session.render(key.path, window: window.playlist) } catch { return nil }
        case .interstitials:
            return session.renderInterstitials(window: window.playlist)
        }
    }

    /// One rendition's stitched window.
    func playlist(_ session: LiveSession, rendition key: RenditionKey) async throws(SeamError) -> MediaPlaylist {
        guard let url = session.channel.renditionURLs[key] else {
            throw SessionAnswerError.noRendition(key.path, .stitched)
        }
        try await refresh(session)
        let window = try await services.cache.window(url)
        return try session.render(key.path, window: window.playlist)
    }

    /// One rendition's primary playlist in the interstitials rendering.
    func interstitialsPlaylist(
        _ session: LiveSession, rendition key: RenditionKey
    ) async throws(SeamError) -> MediaPlaylist {
        guard let url = session.channel.renditionURLs[key] else {
            throw SessionAnswerError.noRendition(key.path, .interstitials)
        }
        try await refresh(session)
        let window = try await services.cache.window(url)
        return session.renderInterstitials(window: window.playlist)
    }

    /// A live DASH session's MPD answered without suspending, as `dashManifest` answers it, when
    /// everything it needs is at hand: the origin's MPD in the cache (fresh, or a busy channel's
    /// served while it refreshes) and every creative's media loaded. Nil otherwise (the router's
    /// path then does the rest), and for an HLS session or a reload the router answers with an
    /// error.
    func dashManifestAtHand(_ session: LiveSession) -> MPD? {
        let channel = session.channel
        guard channel.dash != nil, let url = channel.renditionURLs[channel.referenceKey],
            let window = services.cache.windowAtHand(url), let dash = window.dash
        else { return nil }
        let announced = announcedBreaks(channel)
        guard advancedAtHand(session, with: window.playlist, announced: announced) else { return nil }
        return try? session.renderDASH(dash, upcoming: announced.map(\.start))
    }

    /// The breaks announced on `channel` (the break API).
    private func announcedBreaks(_ channel: LiveChannel) -> [AnnouncedBreak] {
        services.announcements.breaks(for: channel.url)
    }

    /// The session's timeline advanced on the reference window at hand without suspending;
    /// false when a creative it plays has no media loaded (the router's path fetches it).
    private func advancedAtHand(
        _ session: LiveSession, with reference: MediaPlaylist, announced: [AnnouncedBreak]
    ) -> Bool {
        session.advanceNow(
            with: reference, decider: services.decider, budget: adBudget, announced: announced,
            prefetchLead: prefetchLead(session))
        return session.creativesWithoutMedia().isEmpty
    }

    /// A live DASH session's MPD: the timeline brought to the origin's newest MPD, then written
    /// from it (`LiveSession.renderDASH`).
    func dashManifest(_ session: LiveSession) async throws(SeamError) -> MPD {
        // Written from the very window the timeline advanced with.
        guard let dash = try await refresh(session)?.dash else {
            throw SeamError(.originInvalidPlaylist, "\(session.channel.url) no longer answers a live MPD")
        }
        return try session.renderDASH(
            dash, upcoming: services.announcements.breaks(for: session.channel.url).map(\.start))
    }

    /// The channel of live MPD `url`, built from the origin's MPD as the cache reads it (the one
    /// fetch every session of the channel then shares) when there is none yet.
    func dashChannel(_ url: String) async throws(SeamError) -> LiveChannel {
        try await services.catalog.channel(url) { () async throws(SeamError) -> LiveChannel in
            let window = try await services.cache.window(url)
            guard let dash = window.dash, let content = dash.contentSet() else {
                throw SeamError(
                    .originInvalidPlaylist,
                    "the live MPD at \(url) has no period whose video representations a SegmentTemplate addresses; Seam's live DASH needs one"
                )
            }
            let slateURL = configuration.live.dashSlateURL
            let slate = await loadSlate(slateURL, dash: true)
            if slateURL.isEmpty, !configuration.live.slateURL.isEmpty {
                logger.warning(
                    "live.slateURL is an HLS slate: a DASH channel's breaks play their ads, then the channel's content for the rest; set live.dashSlateURL to an MPD of the slate",
                    metadata: ["channel": "\(url)"])
            }
            let channel = LiveChannel(
                url: url, content: content, slate: slate, schedule: schedule(for: url),
                removeOriginCues: configuration.sessions.removeOriginCues, dash: dash)
            if slate != nil, channel.dashSlate == nil {
                logger.warning(
                    "the DASH slate cannot play in this channel (its adaptation sets do not match the channel's); breaks play their ads, then the channel's content",
                    metadata: ["slate": "\(slateURL)", "channel": "\(url)"])
            }
            return channel
        }
    }

    /// `live.schedules`' breaks for channel `url`, if it has one.
    private func schedule(for url: String) -> BreakSchedule? {
        (try? configuration.live.schedule(for: url)).flatMap { $0 }.map {
            BreakSchedule(every: $0.everySeconds, offset: $0.offsetSeconds, duration: $0.durationSeconds)
        }
    }

    /// The multivariant playlist of a live session's interstitials rendering.
    func interstitialsMultivariant(_ session: LiveSession) -> MultivariantPlaylist {
        let channel = session.channel
        let admitted = session.admittedVariants
        return SessionMultivariant.interstitials(channel.content.multivariant, urls: session.urls) {
            channel.renditionURLs[$0] != nil && ($0.kind != .variant || admitted?.contains($0.index) != false)
        }
    }

    /// The multivariant playlist a live session serves.
    func multivariant(_ session: LiveSession) -> MultivariantPlaylist {
        let channel = session.channel
        return SessionMultivariant.make(
            channel.content.multivariant,
            urls: SessionURLs(baseURL: session.inputs.baseURL, sessionID: session.id.value)
        ) {
            channel.renditionURLs[$0] != nil
                && ($0.kind != .variant || session.admittedVariants?.contains($0.index) != false)
        }
    }

    /// The slate at `url` (`live.slateURL`, or `live.dashSlateURL` as an MPD when `dash`), loaded
    /// within the ad media budget; nil when none is configured or it cannot be had (logged: the
    /// breaks are then completed with content).
    private func loadSlate(_ url: String, dash: Bool) async -> AdCreative? {
        guard !url.isEmpty else { return nil }
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.upstream.adMediaTimeoutSeconds * 1000))
        let loaded =
            dash ? await creatives.loadDASH(url, deadline: deadline) : await creatives.load(url, deadline: deadline)
        switch loaded {
        case .success(let slate): return slate
        case .failure(let error):
            logger.warning(
                "slate unavailable; breaks are completed with content",
                metadata: ["slate": "\(url)", "error": "\(error)"])
            return nil
        }
    }

    /// The channel behind a live URL: its renditions as fetched, the slate cut for each, the schedule.
    func makeChannel(_ url: String, content: ContentSet) async -> LiveChannel {
        for warning in content.playback.warnings {
            logger.warning(
                "rendition disagrees with the channel's playback kind",
                metadata: ["channel": "\(url)", "detail": "\(warning)"])
        }
        let slateURL = configuration.live.slateURL
        let slate = await loadSlate(slateURL, dash: false)
        let channel = LiveChannel(
            url: url, content: content, slate: slate, schedule: schedule(for: url),
            removeOriginCues: configuration.sessions.removeOriginCues)
        if let slate, channel.slate.isEmpty {
            let reason =
                CreativeFit.incompatibility(of: slate, with: content) ?? "its renditions are segmented differently"
            logger.warning(
                "slate cannot play in every rendition; breaks are completed with content",
                metadata: ["slate": "\(slateURL)", "reason": "\(reason)"])
        }
        return channel
    }
}
