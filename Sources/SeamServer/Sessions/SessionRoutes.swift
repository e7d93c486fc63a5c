import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import Stitching

/// The session half of Seam's HTTP surface (SEAM.md section 2), as four route collections on one
/// runtime: the session API (`SessionAPIRoutes`), playlists and documents (`PlaylistRoutes`), ad
/// segments (`AdSegmentRoutes`) and assets (`AssetRoutes`). Cross-origin access is the router's
/// (Hummingbird's `CORSMiddleware`, `buildSeamApplication`).
package struct SessionRoutes: SeamRouteProvider {
    package let shared: SeamServices
    package let store: any SessionStore
    /// The session machinery, built once (`SessionComposition`).
    let sessions: SessionComposition
    /// This replica's sessions (one map in front of the store).
    let runtime: SessionRuntime
    let access: SessionAccess
    /// The wall clock session lifetimes are counted with (stores read none); tests move it.
    package let clock: @Sendable () -> Date
    package let beacons: any BeaconSending
    /// Session analytics (`docs/analytics.md`, sent only when `analytics.endpoints` is set) and
    /// the ad KPIs at `/metrics` (`AdDeliveryMetrics`).
    package let analytics: SessionAnalytics
    /// Each session's story (`debug.*`): the debug route's and the sampled log's.
    package let story: SessionStoryRecorder
    /// Background services the routes need (the session sweeper, the beacon workers).
    package let backgroundServices: [any Service]
    /// Sessions this replica holds, by kind, read at each scrape.
    package static let sessionsActiveName = "seam_sessions_active"

    package init(
        services: SeamServices, ads: any AdDecisionProviding, beacons: any BeaconSending,
        backgroundServices: [any Service] = [], store: (any SessionStore)? = nil,
        clock: (@Sendable () -> Date)? = nil, analytics: SessionAnalytics = .off
    ) {
        self.analytics = analytics
        shared = services
        self.beacons = beacons
        let seamClock = services.clock
        let clock = clock ?? { seamClock.date }
        self.clock = clock
        let configuration = services.configuration
        let store =
            store
            ?? InMemorySessionStore(
                ttlSeconds: configuration.sessions.ttlSeconds, maxSessions: configuration.sessions.maxSessions)
        self.store = store
        let story = SessionStoryRecorder(
            settings: SessionStoryRecorder.Settings(configuration.debug), store: store, clock: clock,
            logger: services.logger)
        self.story = story
        let sessions = SessionComposition(services: services, ads: ads, story: story)
        self.sessions = sessions
        // Sessions this replica does not hold are taken up by the starter, live ones included.
        let runtime = SessionRuntime(
            store: store, ttlSeconds: configuration.sessions.ttlSeconds, reviver: sessions.starter,
            logger: services.logger, metricsFactory: services.metrics.factory)
        self.runtime = runtime
        let active = (
            vod: Gauge(
                label: Self.sessionsActiveName, dimensions: [("kind", "vod")], factory: services.metrics.factory),
            live: Gauge(
                label: Self.sessionsActiveName, dimensions: [("kind", "live")], factory: services.metrics.factory)
        )
        services.metrics.onScrape { [map = runtime.map] in
            let held = map.countByKind()
            active.vod.record(held.vod)
            active.live.record(held.live)
        }
        access = SessionAccess(
            runtime: runtime, sessions: sessions, analytics: analytics, clock: clock, logger: services.logger)
        var background: [any Service] =
            backgroundServices + [
                SessionSweeper(runtime: runtime, interval: .seconds(30), clock: clock, analytics: analytics)
            ] + (story.settings.storing ? [story] : [])
        // Replicas sharing a store read each other's announced breaks (the break API on).
        if !configuration.live.breaksToken.isEmpty, let shared = store as? any BreakAnnouncementSharing {
            background.append(
                BreakAnnouncementSync(
                    shared: shared, announcements: sessions.announcements, interval: .seconds(1), clock: clock,
                    logger: services.logger))
        }
        self.backgroundServices = background
    }

    package var services: [any Service] { backgroundServices }

    package var cachedPlaylists: (any CachedPlaylistAnswering)? {
        CachedSessionPlaylists(
            runtime: runtime, clock: clock, live: sessions.live, analytics: analytics,
            gzip: shared.configuration.server.gzip)
    }

    /// Ready while the session store answers (`/readyz`; docs/store.md says what a balancer does).
    package func isReady() async -> Bool { await store.isReachable() }

    package func addRoutes(to router: Router<SeamRequestContext>) {
        let addressing = RequestAddressing(shared: shared)
        let creation = SessionCreation(access: access, shared: shared, addressing: addressing)
        SessionAPIRoutes(access: access, creation: creation, shared: shared).add(to: router)
        PlaylistRoutes(access: access).add(to: router)
        AdSegmentRoutes(access: access, beacons: beacons, addressing: addressing).add(to: router)
        AssetRoutes(sessions: sessions, shared: shared, addressing: addressing).add(to: router)
        if story.settings.storing {
            SessionDebugRoutes(access: access, token: shared.configuration.debug.token).add(to: router)
        }
        let live = shared.configuration.live
        if !live.breaksToken.isEmpty {
            BreakAnnouncementRoutes(
                announcements: sessions.announcements, token: live.breaksToken,
                shared: store as? any BreakAnnouncementSharing, clock: clock
            ).add(to: router)
        }
    }

    // MARK: Shared by the route collections

    static func sessionID(_ context: SeamRequestContext) throws(SeamError) -> SessionID {
        guard let text = context.parameters.get("id"), let id = SessionID(text[...]) else {
            throw SeamError(.sessionNotFound, "no such session; create one with POST /v1/sessions")
        }
        return id
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
