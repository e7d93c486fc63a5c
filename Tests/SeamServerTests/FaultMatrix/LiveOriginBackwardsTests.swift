import HLS
import HummingbirdTesting
import SeamTesting
import Testing
@testable import SeamServer

/// A live origin whose window goes backwards (a packager restart, a stale edge behind a CDN):
/// Seam serves the last good window for `live.maxStaleSeconds`, then answers
/// `502 ORIGIN_INVALID_PLAYLIST`, never a `200` with no segments and never a media sequence
/// lower than one it already served. The live clock is the test's, so no test sleeps.
@Suite struct LiveOriginBackwardsTests {
    static let maxStale = 4.0

    static var configuration: SeamConfiguration {
        var configuration = SeamConfiguration()
        configuration.live.originCacheSeconds = 1
        configuration.live.maxStaleSeconds = maxStale
        return configuration
    }

    /// One reload of a rendition, with the time since the last good origin window.
    struct Reload: CustomStringConvertible {
        var elapsed: Double
        var rendition: Int
        var status: Int
        var code: String?
        var mediaSequence: Int?
        var segments: [String]

        var description: String {
            "t+\(elapsed)s v\(rendition): \(status) \(code ?? "") seq \(mediaSequence.map(String.init) ?? "-") \(segments.count) segments"
        }
    }

    func reload(
        _ client: some TestClientProtocol, _ url: String, rendition: Int, elapsed: Double
    ) async throws -> Reload {
        let answer = try await client.call(url)
        var reload = Reload(
            elapsed: elapsed, rendition: rendition, status: answer.status, code: answer.errorCode, segments: [])
        if answer.status == 200 {
            let playlist = try MediaPlaylist(parsing: answer.body)
            reload.mediaSequence = playlist.mediaSequence
            reload.segments = playlist.segments.map(\.uri)
        }
        return reload
    }

    func mediaURLs(_ client: some TestClientProtocol) async throws -> [String] {
        let created = try await client.call("/v1/sessions", method: .post, json: ["url": FaultMatrixOrigin.liveURL])
        #expect(created.status == 201, "\(created.body)")
        let manifest = try #require(created.json["manifestUrl"] as? String)
        let master = try MultivariantPlaylist(parsing: try await client.call(manifest).body)
        return master.variants.map(\.uri)
    }

    /// `servedLast` 19: a window wholly behind what the session played; 22: one that overlaps it.
    @Test(
        "Backwards origin: last good window until live.maxStaleSeconds, then 502 ORIGIN_INVALID_PLAYLIST, never an empty 200 or a lower media sequence",
        arguments: [19, 22])
    func backwardsAfterTheStalePeriod(servedLast: Int) async throws {
        let origin = FaultMatrixOrigin()
        let clock = TestClock()
        let app = try FaultMatrixApp.make(Self.configuration, upstream: origin, clock: clock)
        try await app.test(.router) { client in
            let urls = try await mediaURLs(client)
            try #require(urls.count == 2)
            origin.update { $0.last = 24 }
            clock.advance(.milliseconds(1100))
            var good: [Reload] = []
            for (index, url) in urls.enumerated() {
                let answer = try await reload(client, url, rendition: index, elapsed: 0)
                #expect(answer.status == 200 && answer.segments.last?.hasSuffix("seg_24.ts") == true, "\(answer)")
                good.append(answer)
            }
            let goodAt = clock.now

            origin.update { $0.servedLast = servedLast }
            var reloads: [Reload] = []
            for _ in 0..<16 {
                clock.advance(.milliseconds(500))
                let elapsed =
                    Double((clock.now - goodAt).components.attoseconds / 1_000_000_000_000_000) / 1000
                    + Double((clock.now - goodAt).components.seconds)
                for (index, url) in urls.enumerated() {
                    reloads.append(try await reload(client, url, rendition: index, elapsed: elapsed))
                }
            }
            let log = reloads.map(\.description).joined(separator: "\n")
            for answer in reloads {
                if answer.status == 200 {
                    // Only ever the last good window: same numbers, same segments.
                    #expect(!answer.segments.isEmpty, "an empty 200:\n\(log)")
                    #expect(
                        answer.mediaSequence == good[answer.rendition].mediaSequence, "media sequence moved:\n\(log)")
                    #expect(answer.segments == good[answer.rendition].segments, "\(log)")
                    #expect(
                        answer.elapsed < Self.maxStale, "a window older than live.maxStaleSeconds was served:\n\(log)")
                } else {
                    #expect(answer.status == 502 && answer.code == "ORIGIN_INVALID_PLAYLIST", "\(log)")
                    #expect(
                        answer.elapsed >= Self.maxStale,
                        "the last good window was not served for the whole stale period:\n\(log)")
                }
            }
            // Once refused, refused for good (the cache follows the origin's new numbering by then).
            let firstRefusal = try #require(reloads.firstIndex { $0.status != 200 }, "never refused:\n\(log)")
            #expect(reloads[firstRefusal...].allSatisfy { $0.status == 502 }, "\(log)")
            #expect(reloads.last?.elapsed ?? 0 >= Self.maxStale + 2)

            // A viewer who starts now is served the origin's current (restarted) window.
            let fresh = try await mediaURLs(client)
            let now = try await reload(client, fresh[0], rendition: 0, elapsed: 0)
            #expect(now.status == 200, "\(now)")
            #expect(now.segments.last?.hasSuffix("seg_\(servedLast).ts") == true, "\(now)")
        }
    }

    @Test(
        "An origin that goes backwards briefly and recovers within live.maxStaleSeconds: the session plays on, numbers only go up"
    )
    func briefGlitch() async throws {
        let origin = FaultMatrixOrigin()
        let clock = TestClock()
        let app = try FaultMatrixApp.make(Self.configuration, upstream: origin, clock: clock)
        try await app.test(.router) { client in
            let url = try await mediaURLs(client)[0]
            var last = try await reload(client, url, rendition: 0, elapsed: 0)
            let script: [(last: Int, servedLast: Int?)] = [(21, nil), (22, 18), (23, 18), (24, nil), (25, nil)]
            for step in script {
                origin.update {
                    $0.last = step.last; $0.servedLast = step.servedLast
                }
                clock.advance(.milliseconds(1100))
                let answer = try await reload(client, url, rendition: 0, elapsed: 0)
                #expect(answer.status == 200, "\(answer)")
                #expect(!answer.segments.isEmpty)
                #expect((answer.mediaSequence ?? -1) >= (last.mediaSequence ?? 0), "\(last) then \(answer)")
                #expect(
                    answer.segments.count + (answer.mediaSequence ?? 0) >= last.segments.count
                        + (last.mediaSequence ?? 0))
                last = answer
            }
            #expect(last.segments.last?.hasSuffix("seg_25.ts") == true, "\(last)")
        }
    }
}
