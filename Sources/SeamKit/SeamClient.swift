import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's way into Seam: starts sessions for content, playing a fallback until Seam answers.
/// The `URLSession` is the app's (its proxies, its certificates, its tests' stubs); the clock
/// paces keep-alives, and `date` is what they compare with the session's expiry.
public struct SeamClient: Sendable {
    public let configuration: SeamKitConfiguration?
    let http: SeamHTTP
    let time: KeepAliveTime

    /// A client for the Seam `configuration` names; nil makes every session fail with
    /// `notConfigured` (playback still starts on the fallback), for apps whose remote settings
    /// have not arrived yet.
    ///
    /// `clock` and `date` are for tests that move time by hand: the date must move as the clock
    /// does (by default the system's).
    public init(
        configuration: SeamKitConfiguration?, urlSession: URLSession = .shared,
        clock: any Clock<Duration> = ContinuousClock(),
        date: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        http = SeamHTTP(urlSession: urlSession)
        time = KeepAliveTime(clock: clock, date: date)
    }

    /// Starts playback of `contentURL` through Seam. Answers at once with `playNow` (the
    /// fallback, else the content) while Seam makes the session; `resolved` then gives the
    /// stitched or interstitials URL (by `options.renderingMode`), or a `SeamKitError`, on which
    /// the app keeps playing `playNow`. Content the domain rules leave alone never reaches Seam.
    public func startSession(
        contentURL: URL, fallbackURL: URL? = nil, options: SessionOptions = SessionOptions()
    ) -> PlaybackStart {
        startSession(contentURL: contentURL, fallbackURL: fallbackURL, options: options, ledger: BeaconLedger())
    }

    /// Starts a picture-in-picture session of `main`: the same content and the same ads (Seam
    /// shares the main's decisions, asks the ad server nothing, and claims server-side beacons
    /// once for both), its own session, playlists and playhead. Client-side beacons the main
    /// fired are not fired again, nor the other way round: the two share a `BeaconLedger`.
    /// Ad parameters and consent are the main's; only the rendering may differ.
    public func startPictureInPicture(
        of main: ResolvedSession, renderingMode: SessionOptions.RenderingMode? = nil
    ) -> PlaybackStart {
        guard let origin = main.origin else {
            return PlaybackStart(playNow: main.playbackURL, resolution: Task { .failure(.notConfigured) })
        }
        let options = SessionOptions(
            trackingMode: origin.options.trackingMode, renderingMode: renderingMode ?? origin.options.renderingMode,
            policy: origin.options.policy, adPlaybackPolicy: origin.options.adPlaybackPolicy,
            pipOf: main.sessionID)
        return startSession(
            contentURL: origin.contentURL, fallbackURL: origin.fallbackURL, options: options, ledger: main.beaconLedger)
    }

    func startSession(
        contentURL: URL, fallbackURL: URL?, options: SessionOptions, ledger: BeaconLedger
    ) -> PlaybackStart {
        let configuration = configuration
        // A URL that cannot play is never the one to play now.
        let fallback = fallbackURL.flatMap { SeamHTTP.isPlayable($0) ? $0 : nil }
        let early: SeamKitError?
        if configuration == nil {
            early = .notConfigured
        } else if !SeamHTTP.isPlayable(contentURL) {
            early = .invalidPlaybackURL(contentURL.absoluteString)
        } else if let fallbackURL, fallback == nil {
            early = .invalidPlaybackURL(fallbackURL.absoluteString)
        } else if let configuration, !configuration.domainRules.intercepts(url: contentURL) {
            early = .notIntercepted
        } else {
            early = nil
        }
        if let early {
            // Content Seam does not take plays as it is, at once; otherwise the fallback plays.
            let playNow = early == .notIntercepted ? contentURL : fallback ?? contentURL
            return PlaybackStart(playNow: playNow, resolution: Task { .failure(early) })
        }
        let http = http
        let time = time
        let task = Task<Result<ResolvedSession, SeamKitError>, Never> {
            guard let configuration else { return .failure(.notConfigured) }
            do throws(SeamKitError) {
                var session = try await Self.create(
                    contentURL: contentURL, options: options, configuration: configuration, http: http,
                    time: time)
                session.origin = SessionOrigin(
                    contentURL: contentURL, fallbackURL: fallbackURL, options: options, client: self,
                    ledger: ledger)
                session.beaconLedger = ledger
                if Task.isCancelled {
                    await session.handle.shutdown()
                    return .failure(.sessionCreationFailed(status: nil, code: nil, message: "cancelled"))
                }
                await session.handle.startKeepAlive()
                return .success(session)
            } catch {
                return .failure(error)
            }
        }
        return PlaybackStart(playNow: fallback ?? contentURL, resolution: task)
    }

    /// `POST /v1/sessions` and the answer read.
    static func create(
        contentURL: URL, options: SessionOptions, configuration: SeamKitConfiguration, http: SeamHTTP,
        time: KeepAliveTime
    ) async throws(SeamKitError) -> ResolvedSession {
        let endpoint = configuration.seamBaseURL.appendingPathComponent("v1").appendingPathComponent("sessions")
        let answer: SeamHTTP.Answer
        do {
            let body = try SeamHTTP.encoder().encode(options.body(contentURL: contentURL))
            answer = try await http.send("POST", endpoint, json: body)
        } catch {
            throw .sessionCreationFailed(
                status: nil, code: nil,
                message:
                    "Seam at \(configuration.seamBaseURL.absoluteString) did not answer: \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        switch answer.status {
        case 201:
            guard let created = try? decoder.decode(SessionCreated.self, from: answer.body) else {
                throw .sessionCreationFailed(status: 201, code: nil, message: "the answer is not Seam's session JSON")
            }
            return try resolved(created, configuration: configuration, http: http, time: time)
        case 200 where (try? decoder.decode(PassThrough.self, from: answer.body))?.intercepted == false:
            throw .notIntercepted
        default:
            let detail = answer.error
            throw .sessionCreationFailed(
                status: answer.status, code: detail?.code,
                message: detail?.message ?? "Seam answered \(answer.status)")
        }
    }

    static func resolved(
        _ created: SessionCreated, configuration: SeamKitConfiguration, http: SeamHTTP,
        time: KeepAliveTime
    ) throws(SeamKitError) -> ResolvedSession {
        guard let manifest = SeamHTTP.playbackURL(created.manifestUrl) else {
            throw .invalidPlaybackURL(created.manifestUrl)
        }
        guard let stitched = SeamHTTP.playbackURL(created.stitchedManifestUrl) else {
            throw .invalidPlaybackURL(created.stitchedManifestUrl)
        }
        guard let interstitials = SeamHTTP.playbackURL(created.interstitialsManifestUrl) else {
            throw .invalidPlaybackURL(created.interstitialsManifestUrl)
        }
        guard let tracking = SeamHTTP.playbackURL(created.trackingUrl) else {
            throw .invalidPlaybackURL(created.trackingUrl)
        }
        guard let mode = SessionOptions.RenderingMode(rawValue: created.mode) else {
            throw .sessionCreationFailed(
                status: 201, code: nil, message: "Seam answered a mode SeamKit does not know: \(created.mode)")
        }
        guard let format = ResolvedSession.Format(rawValue: created.format ?? "hls") else {
            throw .sessionCreationFailed(
                status: 201, code: nil,
                message: "Seam answered a format SeamKit does not know: \(created.format ?? ""); update SeamKit")
        }
        guard let expiry = SeamHTTP.date(created.expiresAt) else {
            throw .sessionCreationFailed(
                status: 201, code: nil, message: "Seam answered an expiry that is not ISO 8601: \(created.expiresAt)")
        }
        let interval = configuration.keepAliveInterval(serverSuggests: created.keepAliveSeconds)
        let handle = SeamSessionHandle(
            sessionID: created.sessionId, trackingURL: tracking, seamBaseURL: configuration.seamBaseURL,
            expiresAt: expiry, keepAliveInterval: interval, http: http, time: time)
        return ResolvedSession(
            sessionID: created.sessionId, playbackURL: manifest, format: format, mode: mode, stitchedURL: stitched,
            interstitialsURL: interstitials, trackingURL: tracking, expiresAt: expiry, keepAliveInterval: interval,
            handle: handle)
    }
}
