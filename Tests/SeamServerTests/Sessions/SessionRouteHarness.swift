import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore
import VAST
import SeamTesting
@testable import SeamServer

/// The session routes in process (`app.test(.router)`) over fakes: an origin and an ad CDN
/// answering from memory, an ad server that always fills the pre-roll with one ad, beacons
/// recorded instead of sent, and a wall clock the test moves. No sockets, no sleeps.
struct SessionRouteHarness: Sendable {
    static let vodURL = "https://origin.test/vod/index.m3u8"
    static let liveURL = "https://origin.test/live/index.m3u8"
    static let adURL = "https://ads.test/ad1/index.m3u8"
    /// The same title and ad as MPEG-DASH (a DASH session's ad server answers with the MPD).
    static let dashURL = "https://origin.test/vod/manifest.mpd"
    static let dashAdURL = "https://ads.test/ad1/manifest.mpd"
    static let ttlSeconds = 60.0
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    let upstream = HarnessUpstream()
    let ads = FillingAds()
    let beacons = RecordedBeacons()
    let clock = TestDateClock(start)
    let store: InMemorySessionStore
    let sessionIDs = SessionIDKey.random()
    let configuration: SeamConfiguration

    init(_ adjust: (inout SeamConfiguration) -> Void = { _ in }) {
        var configuration = SeamConfiguration()
        configuration.ads.adTagURL = "https://ads.test/vast"
        configuration.sessions.ttlSeconds = Self.ttlSeconds
        // The fakes answer at once; a test about budgets sets its own (`adjust`). The defaults
        // (2 s a request) let a loaded machine's stall decide a pre-roll as ADS_TIMEOUT.
        SeamStack.useGenerousTimeOuts(&configuration)
        adjust(&configuration)
        self.configuration = configuration
        store = InMemorySessionStore(
            ttlSeconds: configuration.sessions.ttlSeconds, maxSessions: configuration.sessions.maxSessions)
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "seam.session-routes")
        logger.logLevel = .critical
        return logger
    }

    /// The routes over this harness's fakes, storing into `store` (this harness's own by default).
    func routes(store: (any SessionStore)? = nil) throws -> SessionRoutes {
        let services = SeamServices(
            configuration: configuration, logger: Self.quietLogger, upstream: upstream,
            domainMatcher: try DomainMatcher(configuration: configuration.domains),
            metrics: SeamMetrics(), sessionIDs: sessionIDs)
        let clock = self.clock
        return SessionRoutes(
            services: services, ads: ads, beacons: beacons, store: store ?? self.store, clock: { clock.now })
    }

    func app(store: (any SessionStore)? = nil) throws -> some ApplicationProtocol {
        buildSeamApplication(configuration: configuration, logger: Self.quietLogger, routes: [try routes(store: store)])
    }

    /// Runs `body` with a client of the app: in process, or over loopback when the test needs a
    /// connection's peer address (`live`).
    func test<Value: Sendable>(
        store: (any SessionStore)? = nil, live: Bool = false,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await app(store: store).test(live ? .live : .router) { client in try await body(client) }
    }
}

/// A VOD origin (3 segments of 6 s) and an ad CDN (one 2-segment ad), in memory; it counts what
/// each is asked, and may make the origin slow so that session starts overlap.
final class HarnessUpstream: UpstreamFetching, Sendable {
    private let counts = NIOLockedValueBox<[String: Int]>([:])
    let originDelay = NIOLockedValueBox<Duration?>(nil)

    static let vod =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        + (0..<3).map { "#EXTINF:6.0,\nseg_\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
    static let ad =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        + (0..<2).map { "#EXTINF:4.0,\nad_\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"

    /// An MPD of one period, `seconds` long, video and audio in `segment`-second segments.
    static func mpd(seconds: Int, segment: Int) -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT\(seconds)S">
          <Period id="p0">
            <AdaptationSet id="1" contentType="video" mimeType="video/mp4" codecs="avc1.4d401f">
              <SegmentTemplate timescale="1" duration="\(segment)" initialization="v/init.mp4" media="v/$Number$.m4s"/>
              <Representation id="v" bandwidth="800000" width="640" height="360"/>
            </AdaptationSet>
            <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en">
              <SegmentTemplate timescale="1" duration="\(segment)" initialization="a/init.mp4" media="a/$Number$.m4s"/>
              <Representation id="a" bandwidth="64000"/>
            </AdaptationSet>
          </Period>
        </MPD>
        """
    }

    /// Requests for URLs starting with `prefix`.
    func requests(_ prefix: String) -> Int {
        counts.withLockedValue { $0.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +) }
    }

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        counts.withLockedValue { $0[request.url, default: 0] += 1 }
        let body: String
        switch request.url {
        case SessionRouteHarness.vodURL:
            if let delay = originDelay.withLockedValue({ $0 }) {
                do { try await Task.sleep(for: delay) } catch {
                    throw .unreachable(url: request.url, reason: "cancelled")
                }
            }
            body = Self.vod
        case SessionRouteHarness.adURL:
            body = Self.ad
        case SessionRouteHarness.dashURL:
            body = Self.mpd(seconds: 18, segment: 6)
        case SessionRouteHarness.dashAdURL:
            body = Self.mpd(seconds: 8, segment: 4)
        case SessionRouteHarness.liveURL:
            body =
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:100\n"
                + (100..<106).map { "#EXTINF:6.0,\nlive_\($0).ts\n" }.joined()
        default:
            throw .status(url: request.url, code: 404)
        }
        return UpstreamResponse(status: 200, body: ByteBuffer(string: body), finalURL: request.url)
    }
}

/// An ad server that fills every break with one 8 s ad with impression, start and complete beacons.
final class FillingAds: AdDecisionProviding, Sendable {
    private let asked = NIOLockedValueBox(0)
    /// False: the ad server answers with no ads (every break `NO_FILL`).
    let fills = NIOLockedValueBox(true)

    var requests: Int { asked.withLockedValue { $0 } }

    static func ad(_ format: StreamFormat) -> ResolvedAd {
        var ad = ad
        if format == .dash { ad.hlsURL = SessionRouteHarness.dashAdURL }
        return ad
    }

    static var ad: ResolvedAd {
        var ad = ResolvedAd(adID: "ad-1", duration: 8, hlsURL: SessionRouteHarness.adURL)
        ad.impressionURLs = ["https://track.test/impression"]
        ad.trackingURLs = ["start": ["https://track.test/start"], "complete": ["https://track.test/complete"]]
        return ad
    }

    func requestAdTag(
        context: AdRequestContext, template: String, deadline: ContinuousClock.Instant
    ) async -> AdTagAnswer {
        asked.withLockedValue { $0 += 1 }
        return .vast(VASTDocument(version: "4.2"), url: template)
    }

    func decide(
        _ document: VASTDocument, documentURL: String?, context: AdRequestContext, deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision {
        AdBreakDecision(ads: fills.withLockedValue { $0 } ? [Self.ad(context.streamFormat)] : [])
    }

    func decideBreak(
        _ adBreak: VMAPAdBreak, vmapURL: String?, context: AdRequestContext, deadline: ContinuousClock.Instant
    ) async -> AdBreakDecision {
        AdBreakDecision(ads: [Self.ad(context.streamFormat)])
    }
}

/// Beacons Seam would have sent, in order.
final class RecordedBeacons: BeaconSending, Sendable {
    private let sent = NIOLockedValueBox<[String]>([])

    var urls: [String] { sent.withLockedValue { $0 } }

    func drain() async {}

    func send(_ urls: [String], event: String, viewer: BeaconViewer, context: String, report: BeaconReport?) {
        sent.withLockedValue { $0 += urls }
    }
}

/// A wall clock that moves only when the test says.
final class TestDateClock: Sendable {
    private let time: NIOLockedValueBox<Date>

    init(_ start: Date) {
        time = NIOLockedValueBox(start)
    }

    var now: Date { time.withLockedValue { $0 } }

    func advance(by seconds: Double) {
        time.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}

extension TestClientProtocol {
    /// A request with a raw JSON body (for values `[String: String]` cannot carry).
    func call(_ path: String, method: HTTPRequest.Method = .get, rawJSON: String) async throws -> FaultMatrixApp.Answer
    {
        try await execute(
            uri: path, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(string: rawJSON)
        ) { response in
            FaultMatrixApp.Answer(status: Int(response.status.code), body: String(buffer: response.body))
        }
    }

    /// The `Location` of a redirect, and the status.
    func redirect(_ path: String) async throws -> (status: Int, location: String?) {
        try await execute(uri: path, method: .get) { response in
            (Int(response.status.code), response.headers[.location])
        }
    }
}
