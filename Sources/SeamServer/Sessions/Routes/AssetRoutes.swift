import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// What sessions' playlists point at besides sessions: the empty WebVTT file ads' subtitle
/// renditions play, conditioned creatives (`/v1/conditioned/...`) and the creative prefetch
/// route (`POST /v1/creatives/prefetch`, `409 FEATURE_OFF` when conditioning is off).
struct AssetRoutes: Sendable {
    let sessions: SessionComposition
    let shared: SeamServices
    let addressing: RequestAddressing

    func add(to router: some RouterMethods<SeamRequestContext>) {
        router.get("/v1/assets/empty.vtt") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/vtt", .cacheControl: "max-age=86400"],
                body: .init(byteBuffer: ByteBuffer(string: "WEBVTT\n\n")))
        }
        guard let conditioning = sessions.planner.conditioning else {
            router.post("/v1/creatives/prefetch") { _, _ -> Response in
                throw SeamError(
                    .featureOff,
                    "conditioning is off on this deployment: set conditioning.directory (docs/conditioning.md)")
            }
            return
        }
        ConditionedCreativeFiles(directory: conditioning.conditioner.settings.directory).addRoutes(to: router)
        let limiter = NIOLockedValueBox(
            PrefetchRateLimiter(perMinute: shared.configuration.conditioning.prefetchPerMinute))
        let clock = shared.clock
        let started = clock.now
        let addressing = addressing
        CreativePrefetch(
            conditioning: conditioning, planner: sessions.planner, content: sessions.starter.content,
            domainMatcher: shared.domainMatcher, sessionIDs: sessions.starter.sessionIDs,
            token: shared.configuration.conditioning.prefetchToken,
            admit: { request, context in
                let client = addressing.deviceIP(request, context) ?? "unknown"
                let elapsed = clock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                return limiter.withLockedValue { $0.admit(client, at: seconds) }
            }
        )
        .addRoutes(to: router, baseURL: { request in addressing.baseURL(request) })
    }
}
