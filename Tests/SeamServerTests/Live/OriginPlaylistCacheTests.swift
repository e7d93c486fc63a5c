import Foundation
import HLS
import NIOCore
import SeamTesting
import Testing
@testable import SeamServer

@Suite("Live: origin playlist cache", .timeLimit(.minutes(2)))
struct OriginPlaylistCacheTests {
    static let url = "http://origin.example/live/ch1/720p.m3u8"
    /// Where the fake origin "redirects": URIs must resolve against this, not the request URL.
    static let finalURL = "http://cdn.example/live/ch1/v2/720p.m3u8"

    func makeCache(
        _ origin: ScriptedOrigin, clock: TestClock, freshFor: Duration = .seconds(1),
        maxStale: Duration = .seconds(12), retryAfterFailure: Duration = .milliseconds(500),
        maxEntries: Int = 10_000, metrics: SeamMetrics = SeamMetrics()
    ) -> OriginPlaylistCache {
        OriginPlaylistCache(
            upstream: origin, freshFor: freshFor, maxStale: maxStale, retryAfterFailure: retryAfterFailure,
            maxEntries: maxEntries, clock: clock.seamClock, metricsFactory: metrics.factory)
    }

    @Test("100 concurrent callers cause one upstream fetch and all get its window")
    func coalescing() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        origin.hold()
        let metrics = SeamMetrics()
        let cache = makeCache(origin, clock: TestClock(), metrics: metrics)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await cache.window(Self.url).playlist.mediaSequence }
            }
            // Every caller is parked on the one fetch before the origin answers.
            #expect(await liveEventually { cache.waitingCallers == 100 })
            #expect(await liveEventually { origin.calls == 1 })
            #expect(cache.upstreamFetchCount == 1)
            origin.release()
            var answers: [Int] = []
            for try await sequence in group { answers.append(sequence) }
            #expect(answers == Array(repeating: 10, count: 100))
        }
        #expect(origin.calls == 1)
        #expect(cache.upstreamFetchCount == 1)
        #expect(cache.waitingCallers == 0)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains("\(SeamMetrics.originPlaylistFetchesName) 1"), "\(text)")
    }

    @Test("A window over the segment cap is refused like an unusable window; the last good one is served meanwhile")
    func segmentCap() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = OriginPlaylistCache(
            upstream: origin, freshFor: .seconds(1), maxStale: .seconds(4),
            maxSegments: 5, clock: clock.seamClock, metricsFactory: SeamMetrics().factory)
        #expect(try await cache.window(Self.url).playlist.mediaSequence == 10)
        origin.answer = .media(sequence: 11, segments: 100_000)
        clock.advance(.seconds(2))
        let stale = try await cache.window(Self.url)
        #expect(stale.isStale && stale.playlist.segments.count == 3)
        clock.advance(.seconds(3))
        do {
            _ = try await cache.window(Self.url)
            Issue.record("a 100,000-segment window was accepted")
        } catch {
            #expect(error.code == .originInvalidPlaylist)
            #expect(error.message.contains("sessions.maxSegmentsPerPlaylist"), "\(error.message)")
        }
    }

    /// A live MPD of ten 6 s segments, `type` dynamic (still live) or static (the channel ended,
    /// its last 30 s kept as a live window).
    static func tenSegmentMPD(_ type: String) -> String {
        let live =
            type == "dynamic"
            ? #"minimumUpdatePeriod="PT6S""# : #"mediaPresentationDuration="PT60S" timeShiftBufferDepth="PT30S""#
        return """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" \(live) availabilityStartTime="2026-01-01T00:00:00Z" profiles="urn:mpeg:dash:profile:isoff-live:2011" minBufferTime="PT2S">
              <Period id="p0" start="PT0S">
                <AdaptationSet contentType="video" mimeType="video/mp4">
                  <Representation id="v" bandwidth="1000000" codecs="avc1.64001f" width="1280" height="720">
                    <SegmentTemplate timescale="1" media="v/$Number$.m4s" initialization="v/init.mp4" startNumber="1">
                      <SegmentTimeline><S t="0" d="6" r="9"/></SegmentTimeline>
                    </SegmentTemplate>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """
    }

    /// A live MPD over `sessions.maxSegmentsPerPlaylist` is refused in words that fit it: a live
    /// window lists a few minutes; a channel's last MPD, static once it ended, may list its whole
    /// event, and plays to its end under a higher setting (its last `timeShiftBufferDepth` kept, as
    /// a live window).
    @Test(arguments: ["dynamic", "static"]) func anMPDOverTheSegmentCapIsRefusedInItsOwnWords(type: String) async throws
    {
        let origin = ScriptedOrigin(.body(Self.tenSegmentMPD(type)))
        let clock = TestClock()
        let url = "http://origin.example/live/ch1/manifest.mpd"
        func cache(maxSegments: Int) -> OriginPlaylistCache {
            OriginPlaylistCache(
                upstream: origin, freshFor: .seconds(1), maxStale: .seconds(4), maxSegments: maxSegments,
                clock: clock.seamClock, metricsFactory: SeamMetrics().factory)
        }
        do {
            _ = try await cache(maxSegments: 5).window(url)
            Issue.record("an MPD of ten segments was accepted under a cap of five")
        } catch {
            #expect(error.code == .originInvalidPlaylist)
            #expect(error.message.contains("sessions.maxSegmentsPerPlaylist (5)"), "\(error.message)")
            if type == "static" {
                #expect(error.message.contains("the channel ended"), "\(error.message)")
                #expect(error.message.contains("raise sessions.maxSegmentsPerPlaylist"), "\(error.message)")
                #expect(!error.message.contains("a live window"), "\(error.message)")
            } else {
                #expect(error.message.contains("a live window lists a few minutes"), "\(error.message)")
            }
        }
        guard type == "static" else { return }
        let ended = try await cache(maxSegments: 20).window(url)
        #expect(ended.playlist.endList)
        #expect(ended.playlist.segments.first?.uri.hasSuffix("v/6.m4s") == true, "\(ended.playlist.serialized())")
        #expect(ended.playlist.segments.last?.uri.hasSuffix("v/10.m4s") == true, "\(ended.playlist.serialized())")
        #expect(ended.playlist.segments.count == 5)
    }

    @Test("A fresh window is answered without fetching; URIs are resolved against the final URL")
    func freshHit() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let metrics = SeamMetrics()
        let cache = makeCache(origin, clock: clock, metrics: metrics)
        let first = try await cache.window(Self.url)
        #expect(first.finalURL == Self.finalURL)
        #expect(first.playlist.segments.first?.uri == "http://cdn.example/live/ch1/v2/seg10.ts")
        #expect(first.isStale == false)

        origin.answer = .media(sequence: 11, segments: 3)
        clock.advance(.milliseconds(999))
        let second = try await cache.window(Self.url)
        #expect(second.playlist.mediaSequence == 10)
        #expect(second.fetchedAt == first.fetchedAt)
        #expect(second.isStale == false)
        #expect(origin.calls == 1)
        #expect(cache.upstreamFetchCount == 1)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains("\(SeamMetrics.originPlaylistCacheHitsName) 1"), "\(text)")
    }

    @Test("After freshFor the window is fetched again")
    func refetchAfterFreshFor() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = makeCache(origin, clock: clock)
        _ = try await cache.window(Self.url)
        origin.answer = .media(sequence: 11, segments: 3)
        clock.advance(.seconds(1))
        let next = try await cache.window(Self.url)
        #expect(next.playlist.mediaSequence == 11)
        #expect(next.fetchedAt == clock.now)
        #expect(origin.calls == 2)
    }

    @Test("A busy channel past freshFor is answered from the last window while one refresh runs")
    func servedWhileRefreshing() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = OriginPlaylistCache(
            upstream: origin, freshFor: .seconds(1), serveWhileRefreshing: .seconds(2),
            maxStale: .seconds(12), clock: clock.seamClock, metricsFactory: SeamMetrics().factory)
        // A busy channel: more than `busyAfter` (8) callers within the cache period.
        for _ in 0..<10 { _ = try await cache.window(Self.url) }
        origin.answer = .media(sequence: 11, segments: 3)
        origin.hold()
        clock.advance(.milliseconds(1500))
        // The origin is slow: callers do not wait for it, and only one refresh is made.
        for _ in 0..<20 {
            let answer = try await cache.window(Self.url)
            #expect(answer.playlist.mediaSequence == 10)
            #expect(!answer.isStale)
        }
        #expect(await liveEventually { origin.calls == 2 })
        origin.release()
        #expect(await liveEventually { (try? await cache.window(Self.url).playlist.mediaSequence) == 11 })
        #expect(origin.calls == 2)
        // A quiet channel (nobody asked for two periods) waits for the fresh window.
        origin.answer = .media(sequence: 12, segments: 3)
        clock.advance(.seconds(3))
        #expect(try await cache.window(Self.url).playlist.mediaSequence == 12)
    }

    @Test("An origin failure serves the last good window, marked stale, while it is young")
    func staleServed() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let metrics = SeamMetrics()
        let cache = makeCache(origin, clock: clock, metrics: metrics)
        let good = try await cache.window(Self.url)
        origin.answer = .error(.unreachable(url: Self.url, reason: "connection refused"))
        clock.advance(.seconds(5))
        let stale = try await cache.window(Self.url)
        #expect(stale.isStale)
        #expect(stale.playlist == good.playlist)
        #expect(stale.fetchedAt == good.fetchedAt)
        #expect(origin.calls == 2)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains("\(SeamMetrics.originPlaylistStaleServedName) 1"), "\(text)")

        // The origin recovers: fresh windows again, no longer stale.
        origin.answer = .media(sequence: 12, segments: 3)
        clock.advance(.milliseconds(500))
        let recovered = try await cache.window(Self.url)
        #expect(!recovered.isStale)
        #expect(recovered.playlist.mediaSequence == 12)
    }

    @Test(
        "Once the last good window is older than maxStale the ORIGIN_* error is thrown",
        arguments: [
            (UpstreamError.timeout(url: Self.url, after: .seconds(5)), SeamError.Code.originTimeout),
            (UpstreamError.unreachable(url: url, reason: "refused"), SeamError.Code.originUnavailable),
            (UpstreamError.status(url: url, code: 503), SeamError.Code.originUnavailable),
            (UpstreamError.blocked(host: "origin.example", reason: "private address"), SeamError.Code.domainNotAllowed),
        ])
    func tooOldThrows(error: UpstreamError, code: SeamError.Code) async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = makeCache(origin, clock: clock)
        _ = try await cache.window(Self.url)
        origin.answer = .error(error)
        clock.advance(.seconds(12))
        let thrown = await #expect(throws: SeamError.self) { try await cache.window(Self.url) }
        #expect(thrown?.code == code)
        #expect(origin.calls == 2)
    }

    @Test("Without any good window a failure throws at once")
    func failureWithoutLastGood() async throws {
        let origin = ScriptedOrigin(.error(.timeout(url: Self.url, after: .seconds(5))))
        let cache = makeCache(origin, clock: TestClock())
        let thrown = await #expect(throws: SeamError.self) { try await cache.window(Self.url) }
        #expect(thrown?.code == .originTimeout)
    }

    @Test("A window that moves backwards is a failure: last good kept, then an error, then the new numbering followed")
    func backwards() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = makeCache(origin, clock: clock)
        let good = try await cache.window(Self.url)

        origin.answer = .media(sequence: 8, segments: 3)
        clock.advance(.seconds(2))
        let kept = try await cache.window(Self.url)
        #expect(kept.isStale)
        #expect(kept.playlist.mediaSequence == 10)
        #expect(kept.fetchedAt == good.fetchedAt)

        clock.advance(.seconds(10))  // last good is now 12 s old: too old to serve
        let thrown = await #expect(throws: SeamError.self) { try await cache.window(Self.url) }
        #expect(thrown?.code == .originInvalidPlaylist)
        #expect(
            thrown?.message.contains("moved backwards (media sequence 8 after 10)") == true,
            "\(String(describing: thrown))")
        #expect(thrown?.message.contains(Self.url) == true)

        // An origin that restarted its numbering is followed after that error.
        clock.advance(.milliseconds(500))
        let restarted = try await cache.window(Self.url)
        #expect(restarted.playlist.mediaSequence == 8)
        #expect(!restarted.isStale)
    }

    @Test("A window whose last segment moves backwards is a failure; an equal window is fine")
    func lastSegmentBackwards() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = makeCache(origin, clock: clock)
        _ = try await cache.window(Self.url)

        clock.advance(.seconds(1))
        let equal = try await cache.window(Self.url)
        #expect(!equal.isStale)
        #expect(equal.fetchedAt == clock.now)

        origin.answer = .media(sequence: 10, segments: 2)
        clock.advance(.seconds(1))
        let kept = try await cache.window(Self.url)
        #expect(kept.isStale)
        #expect(kept.playlist.segments.count == 3)
        #expect(origin.calls == 3)
    }

    @Test("After a failure nobody refetches before retryAfterFailure; all get the same outcome")
    func retryAfterFailure() async throws {
        let origin = ScriptedOrigin(.error(.unreachable(url: Self.url, reason: "refused")))
        let clock = TestClock()
        let cache = makeCache(origin, clock: clock, retryAfterFailure: .milliseconds(500))
        for step in 0..<6 {
            if step > 0 { clock.advance(.milliseconds(99)) }
            let thrown = await #expect(throws: SeamError.self) { try await cache.window(Self.url) }
            #expect(thrown?.code == .originUnavailable)
            if step == 1 { origin.answer = .media(sequence: 10, segments: 3) }  // recovered, but not asked yet
        }
        #expect(origin.calls == 1)  // asked at 0, 99, ... 495 ms: one fetch

        clock.advance(.milliseconds(5))  // 500 ms after the failure
        let window = try await cache.window(Self.url)
        #expect(window.playlist.mediaSequence == 10)
        #expect(origin.calls == 2)
    }

    @Test("A cancelled caller leaves at once; the fetch goes on for the others")
    func cancelledCaller() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        origin.hold()
        let cache = makeCache(origin, clock: TestClock())
        let first = Task { try await cache.window(Self.url) }
        #expect(await liveEventually { origin.calls == 1 })
        let second = Task { try await cache.window(Self.url) }
        #expect(await liveEventually { cache.waitingCallers == 2 })

        // A safety net so a broken implementation fails instead of hanging the run.
        let safetyNet = Task {
            try await Task.sleep(for: .seconds(60))
            origin.release()
        }
        defer { safetyNet.cancel() }
        first.cancel()
        let cancelled = await first.result
        #expect(origin.isHolding, "the cancelled caller returned while the fetch was still running")
        #expect(throws: SeamError.self) { try cancelled.get() }
        #expect(cache.waitingCallers == 1)

        origin.release()
        let window = try await second.value
        #expect(window.playlist.mediaSequence == 10)
        #expect(origin.calls == 1)
        // The fetch completed into the cache although its first caller was gone.
        let again = try await cache.window(Self.url)
        #expect(again.fetchedAt == window.fetchedAt)
        #expect(origin.calls == 1)
    }

    @Test(
        "Garbage and multivariant playlists are ORIGIN_INVALID_PLAYLIST",
        arguments: [
            "<html>502 Bad Gateway</html>",
            "",
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000\nvideo.m3u8\n",
        ])
    func invalidBody(body: String) async throws {
        let origin = ScriptedOrigin(.body(body))
        let cache = makeCache(origin, clock: TestClock())
        let thrown = await #expect(throws: SeamError.self) { try await cache.window(Self.url) }
        #expect(thrown?.code == .originInvalidPlaylist)
        #expect(thrown?.message.contains(Self.url) == true)
    }

    @Test("Garbage after a good window serves the last good window")
    func garbageAfterGood() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = makeCache(origin, clock: clock)
        _ = try await cache.window(Self.url)
        origin.answer = .body("not a playlist")
        clock.advance(.seconds(2))
        #expect(try await cache.window(Self.url).isStale)
    }

    @Test("Entries nobody asked for in 60 s are dropped; the entry count is bounded")
    func idleEntriesDropped() async throws {
        let origin = ScriptedOrigin(.media(sequence: 10, segments: 3))
        let clock = TestClock()
        let cache = makeCache(origin, clock: clock, maxEntries: 2)
        _ = try await cache.window("http://origin.example/a.m3u8")
        _ = try await cache.window("http://origin.example/b.m3u8")
        #expect(cache.entryCount == 2)

        clock.advance(.seconds(1))
        _ = try await cache.window("http://origin.example/a.m3u8")  // b is now the least recently asked
        _ = try await cache.window("http://origin.example/c.m3u8")
        #expect(cache.entryCount == 2)
        let callsBefore = origin.calls
        _ = try await cache.window("http://origin.example/a.m3u8")  // still cached and fresh
        #expect(origin.calls == callsBefore)

        clock.advance(.seconds(61))
        cache.removeIdleEntries()
        #expect(cache.entryCount == 0)

        _ = try await cache.window("http://origin.example/d.m3u8")
        clock.advance(.seconds(61))
        _ = try await cache.window("http://origin.example/e.m3u8")  // the access sweeps d away
        #expect(cache.entryCount == 1)
    }
}

// MARK: - Test doubles shared by the live tests

/// An origin answering one scripted playlist (or error) for every URL, counting requests; it can
/// hold requests until the test releases them.
final class ScriptedOrigin: UpstreamFetching, @unchecked Sendable {
    enum Answer {
        /// A live media playlist with `segments` segments from `sequence` on (`seg<N>.ts`, relative).
        case media(sequence: Int, segments: Int)
        case body(String)
        case error(UpstreamError)
    }

    private let lock = NSLock()
    private var _answer: Answer
    private var _calls = 0
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []

    init(_ answer: Answer) { _answer = answer }

    var answer: Answer {
        get { lock.withLock { _answer } }
        set { lock.withLock { _answer = newValue } }
    }

    var calls: Int { lock.withLock { _calls } }
    var isHolding: Bool { lock.withLock { holding } }

    func hold() { lock.withLock { holding = true } }

    func release() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            holding = false
            defer { held = [] }
            return held
        }
        for continuation in waiting { continuation.resume() }
    }

    func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let mustWait = lock.withLock { () -> Bool in
            _calls += 1
            return holding
        }
        if mustWait {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock { () -> Bool in
                    guard holding else { return true }
                    held.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        switch answer {
        case .error(let error):
            throw error
        case .body(let text):
            return UpstreamResponse(
                status: 200, body: ByteBuffer(string: text), finalURL: OriginPlaylistCacheTests.finalURL)
        case .media(let sequence, let segments):
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
            for number in sequence..<(sequence + segments) { text += "#EXTINF:6.0,\nseg\(number).ts\n" }
            return UpstreamResponse(
                status: 200, body: ByteBuffer(string: text), finalURL: OriginPlaylistCacheTests.finalURL)
        }
    }
}

/// Waits until `condition` holds, polling; false after a generous time-out (busy machines are slow).
func liveEventually(timeout: Duration = .seconds(30), _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}
