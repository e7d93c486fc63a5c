import Foundation
import HLS
import Stitching

extension SessionBuilder {
    /// Starts a live session on `channel`: its timeline begins with the reference rendition's
    /// current window, and a break already in that window is decided before the player hears back.
    func startLive(_ channel: LiveChannel, id: SessionID, inputs: Inputs) async throws(SeamError) -> LiveSession {
        let mode = inputs.request.trackingMode(default: configuration.ads.trackingMode)
        // Most viewers of a channel share these strings; one copy serves them all.
        var inputs = inputs
        inputs.baseURL = channel.interner.intern(inputs.baseURL)
        inputs.request.url = channel.interner.intern(inputs.request.url)
        inputs.userAgent = inputs.userAgent.map(channel.interner.intern)
        let session = LiveSession(id: id, channel: channel, inputs: inputs, trackingMode: mode,
                                  defaultBreakSeconds: configuration.live.defaultBreakSeconds)
        try await refresh(session, waitForDecisions: true)
        return session
    }

    /// Brings a live session's timeline up to the origin's newest reference window.
    func refresh(_ session: LiveSession, waitForDecisions: Bool = false) async throws(SeamError) {
        guard let live else { return }
        guard let url = session.channel.renditionURLs[session.channel.referenceKey] else { return }
        let window = try await live.cache.window(url)
        // One budget for the ad server and the creatives' fetch, as for VOD starts.
        let budget = Duration.milliseconds(Int64(configuration.ads.totalBudgetSeconds * 1000))
        await session.advance(with: window.playlist, decider: live.decider, budget: budget,
                              waitForDecision: waitForDecisions)
    }

    /// One rendition's stitched window, serialized.
    func livePlaylist(_ session: LiveSession, rendition key: String) async throws(SeamError) -> MediaPlaylist {
        guard let live, let url = session.channel.renditionURLs[key] else {
            throw SeamError(.renditionNotFound, "this session has no rendition \(key); use the URIs in its master.m3u8")
        }
        try await refresh(session)
        let window = try await live.cache.window(url)
        return try session.render(key, window: window.playlist)
    }

    /// The channel behind a live URL: its renditions as fetched, the slate cut for each, the schedule.
    func makeChannel(_ url: String, content: Content, baseURL: String) async -> LiveChannel {
        var slate: AdCreative?
        let slateURL = configuration.live.slateURL
        if !slateURL.isEmpty {
            let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.upstream.adMediaTimeoutSeconds * 1000))
            switch await creatives.load(slateURL, deadline: deadline) {
            case .success(let loaded): slate = loaded
            case .failure(let error):
                logger.warning("slate unavailable; breaks are completed with content", metadata: ["slate": "\(slateURL)", "error": "\(error)"])
            }
        }
        let schedule = (try? configuration.live.schedule(for: url)).flatMap { $0 }.map {
            BreakSchedule(every: $0.everySeconds, offset: $0.offsetSeconds, duration: $0.durationSeconds)
        }
        return LiveChannel(url: url, content: content, slate: slate, schedule: schedule,
                           emptySubtitleURI: baseURL + "/v1/assets/empty.vtt")
    }

    /// The multivariant playlist a session serves: every rendition through the session.
    static func sessionMultivariant(_ original: MultivariantPlaylist, base: String, has: (String) -> Bool) -> MultivariantPlaylist {
        var multivariant = original
        for index in multivariant.variants.indices {
            multivariant.variants[index].uri = "\(base)/media/v\(index).m3u8"
        }
        for index in multivariant.renditions.indices where multivariant.renditions[index].uri != nil {
            let type = multivariant.renditions[index].type
            let prefix = type == .audio ? "a" : type == .subtitles ? "s" : type == .video ? "m" : nil
            if let prefix, has("\(prefix)\(index)") {
                multivariant.renditions[index].uri = "\(base)/media/\(prefix)\(index).m3u8"
            }
        }
        // I-frame playlists would not show the ads, and steering cannot redirect session URLs.
        multivariant.iFrameVariants = []
        multivariant.contentSteering = nil
        return multivariant
    }
}
