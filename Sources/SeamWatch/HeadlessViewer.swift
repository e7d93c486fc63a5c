import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SeamKit

/// `seam watch`: a viewer with no screen, built on SeamKit as an app would be. It starts a
/// session, plays it with a `SimulatedPlayer` (real time, or `speed` times faster for VOD),
/// feeds SeamKit the playhead, and reports every event with when and where it happened. When
/// the session expires it takes SeamKit's ready restart and goes on from where it was.
package struct HeadlessViewer: Sendable {
    package struct Options: Sendable {
        package var seamBaseURL: URL
        package var contentURL: URL
        package var fallbackURL: URL?
        package var session: SessionOptions
        /// Playback speed for VOD (live plays in real time).
        package var speed: Double
        /// Real seconds between two steps of the simulated player.
        package var tick: Double
        /// Content seconds to start at (resume watching); the policy decides about the pre-roll.
        package var startContentTime: Double
        /// Stop after this many seconds of playhead (live has no end of its own).
        package var stopAfter: Double?
        /// Fetch the segments as they are reached (Seam's server-side beacons need it).
        package var fetchSegments: Bool
        /// Start SeamKit's ready restart when the session expires.
        package var restartOnExpiry: Bool
        /// Seeks the viewer makes: when the playhead reaches `at` (stream seconds), ask SeamKit to
        /// seek to `to`.
        package var seeks: [ScriptedSeek]
        /// Which content hosts go through Seam (SeamKit's client-side matcher).
        package var domainRules: DomainRules

        package init(
            seamBaseURL: URL, contentURL: URL, fallbackURL: URL? = nil, session: SessionOptions = SessionOptions(),
            speed: Double = 1, tick: Double = 0.25, startContentTime: Double = 0, stopAfter: Double? = nil,
            fetchSegments: Bool = true, restartOnExpiry: Bool = true, seeks: [ScriptedSeek] = [],
            domainRules: DomainRules = .all
        ) {
            self.seamBaseURL = seamBaseURL
            self.contentURL = contentURL
            self.fallbackURL = fallbackURL
            self.session = session
            self.speed = speed
            self.tick = tick
            self.startContentTime = startContentTime
            self.stopAfter = stopAfter
            self.fetchSegments = fetchSegments
            self.restartOnExpiry = restartOnExpiry
            self.seeks = seeks
            self.domainRules = domainRules
        }
    }

    package struct ScriptedSeek: Sendable, Equatable {
        package var at: Double
        package var to: Double

        package init(at: Double, to: Double) {
            self.at = at
            self.to = to
        }
    }

    /// Why the viewer could not watch.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// SeamKit did not get a session (the fallback would play; a viewer of Seam stops).
        case session(SeamKitError)
        /// The playlist Seam answered could not be played.
        case playlist(SimulatedPlayer.LoadError)
        /// The options cannot work (`--speed` on live).
        case invalidOptions(String)

        package var description: String {
            switch self {
            case .session(let error): return "no session: \(error)"
            case .playlist(let error): return "cannot play: \(error)"
            case .invalidOptions(let message): return message
            }
        }
    }

    package let options: Options
    private let urlSession: URLSession

    package init(options: Options, urlSession: URLSession = URLSession(configuration: .ephemeral)) {
        self.options = options
        self.urlSession = urlSession
    }

    /// Watches until the title ends, `stopAfter` seconds were played, or the session expired
    /// (without `restartOnExpiry`); `report` gets every event as it happens.
    package func run(_ report: @escaping @Sendable (WatchEvent) -> Void) async throws(Failure) {
        guard options.speed > 0, options.speed.isFinite, options.tick > 0 else {
            throw .invalidOptions("--speed and the tick must be positive numbers")
        }
        let client = SeamClient(
            configuration: SeamKitConfiguration(seamBaseURL: options.seamBaseURL, domainRules: options.domainRules),
            urlSession: urlSession)
        let began = ContinuousClock.now
        let wall = { @Sendable () -> Double in
            let elapsed = ContinuousClock.now - began
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        var start = client.startSession(
            contentURL: options.contentURL, fallbackURL: options.fallbackURL, options: options.session)
        var resume = (contentTime: options.startContentTime, watched: [Double]())
        var played = 0.0
        var restarted = false
        var seeks = options.seeks
        while true {
            let session: ResolvedSession
            do {
                session = try await start.resolved
            } catch {
                throw .session(error)
            }
            let outcome = try await watch(
                session, resume: resume, restarted: restarted, played: played, seeks: seeks, wall: wall,
                report: report)
            played = outcome.played
            seeks = outcome.seeks
            guard let restart = outcome.restart, options.restartOnExpiry else { return }
            start = restart.start()
            resume = (restart.resumeContentTime ?? 0, restart.watchedCuePoints)
            restarted = true
        }
    }

    private struct Outcome {
        var played: Double
        var restart: SessionRestart?
        /// Scripted seeks not made yet (a restart does not make them again).
        var seeks: [ScriptedSeek]
    }

    private func watch(
        _ session: ResolvedSession, resume: (contentTime: Double, watched: [Double]), restarted: Bool, played: Double,
        seeks: [ScriptedSeek], wall: @escaping @Sendable () -> Double, report: @escaping @Sendable (WatchEvent) -> Void
    ) async throws(Failure) -> Outcome {
        let player: any SimulatedPlayback =
            session.mode == .interstitials
            ? SimulatedInterstitialsPlayer(urlSession: urlSession, fetchSegments: options.fetchSegments)
            : SimulatedPlayer(urlSession: urlSession, fetchSegments: options.fetchSegments)
        do {
            try await player.load(multivariant: session.playbackURL)
        } catch {
            await session.handle.shutdown()
            throw .playlist(error)
        }
        let live = player.isLive
        if live && options.speed != 1 {
            await session.handle.shutdown()
            throw .invalidOptions("a live session plays in real time: leave --speed out (or 1)")
        }
        let step = options.tick * options.speed
        let configuration = SeamPlayback.Configuration(
            sampleInterval: nil, trackingRefreshInterval: 4, maxStep: max(2, 2 * step))
        let playback = SeamPlayback(
            session: session, playhead: player, configuration: configuration,
            beacons: URLSessionBeaconFiring(session: urlSession))
        let recorder = EventRecorder(sessionID: session.sessionID, player: player, wall: wall, report: report)
        playback.stream.delegate = recorder
        let opening: WatchEvent.Kind =
            restarted
            ? .sessionRestarted(id: session.sessionID, url: session.playbackURL, resumeContentTime: resume.contentTime)
            : .sessionStarted(
                id: session.sessionID, url: session.playbackURL, mode: session.mode.rawValue, live: live,
                format: session.format.rawValue)
        report(WatchEvent(wall: wall(), position: player.currentTime, sessionID: session.sessionID, kind: opening))
        await playback.start()
        if resume.contentTime > 0 || !resume.watched.isEmpty {
            await playback.start(atContentTime: resume.contentTime, watchedCuePoints: resume.watched)
        }
        // The first sample is where playback begins: a pre-roll counts from its first frame.
        await playback.sample()
        var total = played
        var pendingSeeks = seeks
        let clock = ContinuousClock()
        while true {
            try? await clock.sleep(for: .seconds(options.tick))
            let before = player.currentTime
            for failure in await player.advance(by: step) {
                await playback.playerReceived(httpStatus: failure.status, for: failure.url)
            }
            // Live counts real time: a player stalled at the window's edge still watches.
            total += live ? step : max(player.currentTime - before, 0)
            if let index = pendingSeeks.firstIndex(where: { player.currentTime >= $0.at }) {
                let seek = pendingSeeks.remove(at: index)
                let from = player.currentTime
                let landed = await playback.seek(to: seek.to)
                report(
                    WatchEvent(
                        wall: wall(), position: player.currentTime, sessionID: session.sessionID,
                        kind: .viewerSeek(from: from, to: seek.to, landed: landed)))
            }
            await playback.sample()
            if let restart = recorder.restart {
                return Outcome(played: total, restart: restart, seeks: pendingSeeks)
            }
            if player.ended || options.stopAfter.map({ total >= $0 }) == true {
                await playback.stop()
                let reason = player.ended ? "the title ended" : "played \(options.stopAfter ?? 0) s"
                report(
                    WatchEvent(
                        wall: wall(), position: player.currentTime, sessionID: session.sessionID, kind: .ended(reason)))
                return Outcome(played: total, restart: nil, seeks: pendingSeeks)
            }
        }
    }
}

/// Hears SeamKit's events as they are emitted (the delegate runs in line), so each carries the
/// playhead position it happened at.
private final class EventRecorder: SeamKitDelegate, @unchecked Sendable {
    private let sessionID: String
    private let player: any PlayheadAdapter
    private let wall: @Sendable () -> Double
    private let report: @Sendable (WatchEvent) -> Void
    private let lock = NSLock()
    private var storedRestart: SessionRestart?

    init(
        sessionID: String, player: any PlayheadAdapter, wall: @escaping @Sendable () -> Double,
        report: @escaping @Sendable (WatchEvent) -> Void
    ) {
        self.sessionID = sessionID
        self.player = player
        self.wall = wall
        self.report = report
    }

    var restart: SessionRestart? { lock.withLock { storedRestart } }

    func adEventStream(_ stream: AdEventStream, didEmit event: AdEvent) {
        if case .sessionExpired(_, let restart) = event { lock.withLock { storedRestart = restart } }
        report(
            WatchEvent(
                wall: wall(), position: player.currentTime, sessionID: sessionID, kind: .ad(event),
                interstitial: (player as? any InterstitialsPlayheadAdapter)?.interstitial))
    }
}
