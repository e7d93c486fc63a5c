import DASH
import Foundation
import Stitching

/// Starts a session for a playback URL: issues its id, loads the title, and hands it to the VOD
/// or the live factory (a title whose video is still growing is live: `ContentSet.playback`).
/// Throws only for what the player must hear about: a bad URL or origin trouble (the route turns
/// that into a fallback redirect or an error). Ad trouble never fails a start.
struct SessionStarter: Sendable {
    let content: ContentLoader
    let vod: VODSessionFactory
    /// Nil refuses live streams.
    let live: LiveSessionFactory?
    /// Signs the ids of new sessions (see `SessionIDKey`).
    let sessionIDs: SessionIDKey
    let now: @Sendable () -> ContinuousClock.Instant
    /// `sessions.defaultMode` and `sessions.modeRules`, for requests that name no mode.
    var defaultMode: SessionMode = .stitched
    var modeRules: [SessionModeRule] = []
    /// Records `session.revive` spans (docs/tracing.md); off by default.
    var tracer: SeamTracer = .off

    /// The rendering `manifestUrl` names: the request's `mode`, else the first mode rule matching
    /// the player's User-Agent, else the configured default.
    func mode(of inputs: SessionInputs) -> SessionMode {
        inputs.request.mode ?? SessionModeRule.mode(for: inputs.userAgent, rules: modeRules, fallback: defaultMode)
    }

    /// - Parameter main: for a picture-in-picture session, its main session (found, and the
    ///   request checked against it, by the route): the pip is made from it, asking nothing of
    ///   the origin or the ad server.
    func start(_ inputs: SessionInputs, pipOf main: SeamSession? = nil) async throws(SeamError) -> SeamSession {
        if let main {
            return PipSessionFactory().make(
                inputs, id: sessionIDs.issue(), of: main, mode: mode(of: inputs), createdAt: vod.date())
        }
        let url = inputs.request.url
        guard UpstreamURL.hasHTTPScheme(url), url.utf8.count < 8192 else {
            throw SeamError(.invalidPlaybackURL, "url must be an absolute http(s) URL of an HLS playlist or a DASH MPD")
        }
        let id = sessionIDs.issue()
        if DASHTitle.names(url) {
            // A DASH session has one rendering, its MPD, whatever the mode rules say.
            if let live, let channel = await live.cachedChannel(url), let dash = channel.dash {
                try Self.checkLivePolicy(inputs)
                try Self.checkDASHFilter(inputs, content: dash.mpd, live: true)
                return .live(try await live.start(channel, id: id, inputs: inputs, mode: .stitched))
            }
            let started = now()
            let (mpd, finalURL) = try await content.fetchMPD(url)
            if mpd.isDynamic {
                guard let live else {
                    throw SeamError(
                        .originInvalidPlaylist,
                        "\(url) is a live stream, and live ad replacement is not set up in this server")
                }
                try Self.checkLivePolicy(inputs)
                let channel = try await live.dashChannel(url)
                try Self.checkDASHFilter(inputs, content: channel.dash?.mpd ?? mpd, live: true)
                return .live(try await live.start(channel, id: id, inputs: inputs, mode: .stitched))
            }
            var title = try content.dashTitle(mpd, url: url, finalURL: finalURL)
            if let filter = inputs.request.renditions {
                try Self.checkDASHFilter(inputs, content: title.mpd)
                title.mpd = filter.filtered(title.mpd)
            }
            return .vod(try await vod.makeDASH(inputs, id: id, title: title, started: started))
        }
        let mode = mode(of: inputs)
        if let live, let channel = await live.cachedChannel(url) {
            try Self.checkLivePolicy(inputs)
            _ = try inputs.request.renditions?.admittedVariants(of: channel.content.multivariant.variants)
            return .live(try await live.start(channel, id: id, inputs: inputs, mode: mode))
        }
        let started = now()
        var title = try await content.load(url)
        if let filter = inputs.request.renditions {
            let admitted = try filter.admittedVariants(of: title.multivariant.variants)
            // A live title stays whole: its channel is every viewer's; the session lists its part.
            if title.playback.kind == .vod, let kept = title.keepingVariants(admitted) { title = kept }
        }
        guard title.playback.kind == .vod else {
            guard let live else {
                throw SeamError(
                    .originInvalidPlaylist,
                    "\(url) is a live stream, and live ad replacement is not set up in this server")
            }
            try Self.checkLivePolicy(inputs)
            let channel = try await live.channel(url, content: title)
            return .live(try await live.start(channel, id: id, inputs: inputs, mode: mode))
        }
        return .vod(await vod.make(inputs, id: id, content: title, started: started, mode: mode))
    }

    /// A `renditions` filter that lets no video of `content` through, or none of its audio,
    /// is refused, naming what the content has: the session would play nothing, or silent.
    /// - Parameter live: the audio is judged in the newest period (a live channel's), else in
    ///   the first (a title's).
    static func checkDASHFilter(_ inputs: SessionInputs, content mpd: MPD, live: Bool = false) throws(SeamError) {
        guard let filter = inputs.request.renditions else { return }
        let (admitted, ladder) = filter.admittedVideo(in: mpd)
        guard admitted > 0 else {
            throw SeamError(
                .invalidRequest,
                "renditions (\(filter.summary)) lets no video representation of the content through, and a player needs one: its representations are \(ladder.joined(separator: "; ")); loosen the filter"
            )
        }
        let filtered = filter.filtered(mpd)
        let judged = { (mpd: MPD) in live ? mpd.periods.last : mpd.periods.first }
        let audio = { (mpd: MPD) in
            judged(mpd)?.adaptationSets.contains { $0.contentType == "audio" } ?? false
        }
        if audio(mpd), !audio(filtered) {
            let codecs =
                judged(mpd)?.adaptationSets.filter { $0.contentType == "audio" }
                .compactMap { $0.codecs ?? $0.representations.first?.codecs } ?? []
            throw SeamError(
                .invalidRequest,
                "renditions (\(filter.summary)) lets none of the content's audio through (its audio is \(codecs.joined(separator: ", "))), and the title would play silent; loosen the filter"
            )
        }
    }

    /// A live break resumes at the live point: a resume offset would put the viewer behind live
    /// for good, so asking for one on a live stream is refused, not ignored.
    static func checkLivePolicy(_ inputs: SessionInputs) throws(SeamError) {
        if inputs.request.policy?.resumeOffset != nil {
            throw SeamError(
                .invalidRequest,
                "policy.resumeOffset applies to VOD titles only: this is a live stream, whose interstitial breaks resume at the live point; leave resumeOffset out"
            )
        }
    }
}

extension SessionStarter: SessionReviving {
    /// A stored session taken up on this replica. VOD: from the bytes of its record. Live: on its
    /// channel (this replica's, or built from the origin as a start would), with the recorded
    /// timeline and decisions; a live picture-in-picture session on its `main` (opened first by
    /// the runtime). Nil when the record cannot be served here (a live record on a server
    /// without live, a pip without its main).
    func revive(_ record: SessionRecord, main: SeamSession?) async throws(SeamError) -> SeamSession? {
        // Its channel's origin fetches and the creatives' fetches are the span's children.
        try await tracer.span("session.revive") { (span) async throws(SeamError) -> SeamSession? in
            span.set("seam.session.id", record.id.value)
            switch record.kind {
            case .vod: span.set("seam.session.kind", "vod")
            case .live: span.set("seam.session.kind", "live")
            }
            let revived = try await reviveUntraced(record, main: main)
            span.set("seam.session.outcome", revived == nil ? "lost" : "revived")
            return revived
        }
    }

    private func reviveUntraced(_ record: SessionRecord, main: SeamSession?) async throws(SeamError) -> SeamSession? {
        switch record.kind {
        case .vod:
            return StitchedSession(record: record).map { .vod($0) }
        case .live(let state):
            guard let live else { return nil }
            if record.pipOf != nil {
                guard let main, case .live = main else { return nil }
                return PipSessionFactory().make(
                    record.inputs, id: record.id, of: main, mode: record.mode, createdAt: vod.date())
            }
            let url = state.channelURL
            let channel: LiveChannel
            if let cached = await live.cachedChannel(url) {
                channel = cached
            } else if DASHTitle.names(url) {
                channel = try await live.dashChannel(url)
            } else {
                let title = try await content.load(url)
                guard title.playback.kind != .vod else {
                    throw SeamError(
                        .originInvalidPlaylist,
                        "\(url) was a live stream when this session started and is a finished title now: start playback again to get a new session"
                    )
                }
                channel = try await live.channel(url, content: title)
            }
            return .live(try await live.revive(record, live: state, on: channel))
        }
    }
}
