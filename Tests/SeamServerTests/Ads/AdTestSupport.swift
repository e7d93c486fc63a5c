import Foundation
import Logging
import NIOCore
import Testing
import VAST
@testable import SeamServer
import Stitching

/// A logger that prints nothing: decisions log at info, and test output should stay readable.
let quietLogger = Logger(label: "seam.tests.ads") { _ in SwiftLogNoOpLogHandler() }

/// Records every request a fake or real upstream received, in order.
actor RequestRecorder {
    private(set) var requests: [UpstreamRequest] = []

    func record(_ request: UpstreamRequest) { requests.append(request) }

    var urls: [String] { requests.map(\.url) }

    func requests(purpose: UpstreamPurpose) -> [UpstreamRequest] { requests.filter { $0.purpose == purpose } }

    func urls(purpose: UpstreamPurpose) -> [String] { requests(purpose: purpose).map(\.url) }
}

/// What a ``FakeUpstream`` answers for one URL.
indirect enum FakeRoute: Sendable {
    case body(String)
    case status(Int, String)
    case error(UpstreamError)
    /// Waits (cancellably, as a real client would stop on cancellation), then answers.
    case delay(Duration, FakeRoute)
    /// Answers with the routes in turn, the last one for every later request.
    case sequence([FakeRoute], counter: HitCounter)
}

/// Counts hits per route for ``FakeRoute/sequence(_:counter:)``.
actor HitCounter {
    private var hits = 0
    func next() -> Int {
        defer { hits += 1 }
        return hits
    }
}

/// An in-memory `UpstreamFetching`: routes by URL without its query; unknown URLs answer 404,
/// and beacon-looking URLs (`/track/`) answer 200. Every request is recorded.
///
/// Note it does not enforce `UpstreamRequest.timeout` by itself: tests of the client's own
/// deadline backstop rely on that.
struct FakeUpstream: UpstreamFetching {
    let routes: [String: FakeRoute]
    let recorder = RequestRecorder()

    init(_ routes: [String: FakeRoute] = [:]) {
        self.routes = routes
    }

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        await recorder.record(request)
        let key = String(request.url.prefix { $0 != "?" })
        guard let route = routes[key] ?? routes[request.url] else {
            if key.contains("/track/") { return FakeUpstream.response(200, "", url: request.url) }
            throw .status(url: request.url, code: 404)
        }
        return try await answer(route, request: request)
    }

    private func answer(_ route: FakeRoute, request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        switch route {
        case .body(let body):
            return FakeUpstream.response(200, body, url: request.url)
        case .status(let code, let body):
            return FakeUpstream.response(code, body, url: request.url)
        case .error(let error):
            throw error
        case .delay(let duration, let then):
            do {
                try await Task.sleep(for: duration)
            } catch {
                throw .unreachable(url: request.url, reason: "cancelled")
            }
            return try await answer(then, request: request)
        case .sequence(let routes, let counter):
            let index = await counter.next()
            guard let route = routes.indices.contains(index) ? routes[index] : routes.last else {
                throw .status(url: request.url, code: 404)
            }
            return try await answer(route, request: request)
        }
    }

    static func response(_ status: Int, _ body: String, url: String) -> UpstreamResponse {
        UpstreamResponse(status: status, body: ByteBuffer(string: body), finalURL: url)
    }
}

/// The demo VAST/VMAP files in `Samples/vast`, with their placeholders filled.
enum SampleVAST {
    static let adsBase = "http://ads.test"
    static let trackBase = "http://track.test"

    static var directory: URL {
        // Tests/SeamServerTests/Ads/AdTestSupport.swift → the package root.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/vast")
    }

    static func text(_ name: String, adsBase: String = adsBase, trackBase: String = trackBase) throws -> String {
        let raw = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return raw.replacingOccurrences(of: "{{ADS_BASE}}", with: adsBase).replacingOccurrences(of: "{{TRACK_BASE}}", with: trackBase)
    }

    static func document(_ name: String) throws -> VASTDocument {
        try VASTParser().parse(text(name))
    }
}

/// Inline VAST fixtures.
enum InlineVAST {
    /// An InLine ad with one HLS creative (or only an MP4 when `hls` is false).
    static func ad(id: String, sequence: Int? = nil, duration: String = "00:00:10", hls: Bool = true,
                   track: String = SampleVAST.trackBase) -> String {
        let sequenceAttribute = sequence.map { " sequence=\"\($0)\"" } ?? ""
        let media = hls
            ? "<MediaFile delivery=\"streaming\" type=\"application/x-mpegURL\" width=\"1280\" height=\"720\"><![CDATA[http://ads.test/media/\(id)/master.m3u8]]></MediaFile>"
            : "<MediaFile delivery=\"progressive\" type=\"video/mp4\" width=\"1280\" height=\"720\"><![CDATA[http://ads.test/media/\(id).mp4]]></MediaFile>"
        return """
        <Ad id="\(id)"\(sequenceAttribute)><InLine>
          <AdSystem>Fixture</AdSystem><AdTitle>\(id)</AdTitle>
          <Error><![CDATA[\(track)/track/\(id)/error?code=[ERRORCODE]]]></Error>
          <Impression><![CDATA[\(track)/track/\(id)/impression]]></Impression>
          <Creatives><Creative id="\(id)-creative"><Linear>
            <Duration>\(duration)</Duration>
            <TrackingEvents>
              <Tracking event="start"><![CDATA[\(track)/track/\(id)/start]]></Tracking>
              <Tracking event="progress" offset="00:00:05"><![CDATA[\(track)/track/\(id)/progress5]]></Tracking>
            </TrackingEvents>
            <MediaFiles>\(media)</MediaFiles>
          </Linear></Creative></Creatives>
        </InLine></Ad>
        """
    }

    static func vast(_ ads: String...) -> String {
        "<VAST version=\"4.2\">" + ads.joined() + "</VAST>"
    }

    /// A wrapper ad pointing at `target`, with its own error and impression beacons.
    static func wrapper(id: String, target: String, track: String = SampleVAST.trackBase) -> String {
        """
        <VAST version="4.2"><Ad id="\(id)"><Wrapper>
          <AdSystem>Fixture Wrapper</AdSystem>
          <Error><![CDATA[\(track)/track/\(id)/error?code=[ERRORCODE]]]></Error>
          <Impression><![CDATA[\(track)/track/\(id)/impression]]></Impression>
          <VASTAdTagURI><![CDATA[\(target)]]></VASTAdTagURI>
        </Wrapper></Ad></VAST>
        """
    }
}

/// Runs `body` with an `AdDecisionClient` over `upstream` and a running beacon dispatcher; waits
/// for the beacons to be sent before returning, so tests can read what was fired.
func withAdClient<T: Sendable>(
    upstream: some UpstreamFetching,
    ads: SeamConfiguration.Ads = SeamConfiguration.Ads(),
    _ body: @Sendable (AdDecisionClient) async throws -> T
) async throws -> T {
    var beaconConfiguration = SeamConfiguration.Beacons()
    beaconConfiguration.maxAttempts = 1
    let beacons = BeaconDispatcher(upstream: upstream, configuration: beaconConfiguration, logger: quietLogger)
    let client = AdDecisionClient(upstream: upstream, configuration: ads, beacons: beacons, logger: quietLogger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await beacons.run() }
        defer { group.cancelAll() }
        let result = try await body(client)
        await beacons.drain()
        return result
    }
}

extension AdBreakDecision {
    var skippedIDs: [String] { skippedAds.map(\.adID) }
}

/// A context with the device and consent values most tests want.
func sampleContext(breakPosition: BreakPosition = .preroll) -> AdRequestContext {
    var context = AdRequestContext(sessionID: "sess-1", contentURL: "https://cdn.example/title/master.m3u8", breakPosition: breakPosition)
    context.deviceIP = "203.0.113.7"
    context.userAgent = "TestPlayer/1.0 (SmartTV)"
    return context
}

func farDeadline() -> ContinuousClock.Instant { .now + .seconds(30) }
