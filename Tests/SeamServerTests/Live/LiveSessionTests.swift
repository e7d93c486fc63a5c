import Foundation
import HLS
import HummingbirdTesting
import Testing
import SeamTesting
@testable import SeamServer

/// Live sessions against a scripted origin: over real HTTP (the shared origin cache, LL-HLS
/// input) and in process on the test's clock (one ad decision per break per session, origin
/// trouble), so no test sleeps.
@Suite(.serialized) struct LiveSessionTests {
    /// Seam + the demo ad server (20 s mid-roll ad3) + a scripted origin; `body` gets the stack and the channel URL.
    func withLive(
        _ adjust: @escaping (inout SeamConfiguration) -> Void = { _ in },
        origin: ScriptedLiveOrigin = ScriptedLiveOrigin(),
        _ body: @escaping @Sendable (SeamStack, String) async throws -> Void
    ) async throws {
        try await SeamStack.run(
            adTag: { $0.vmapURL },
            { configuration in
                configuration.live.originCacheSeconds = 1
                adjust(&configuration)
            }
        ) { stack in
            try await origin.run { base in
                try await body(stack, base + "/master.m3u8")
            }
        }
    }

    func mediaURLs(_ stack: SeamStack, _ session: [String: Any]) async throws -> [String] {
        let manifest = try #require(session["manifestUrl"] as? String)
        let master = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
        return master.variants.map(\.uri)
    }

    func media(_ stack: SeamStack, _ url: String) async throws -> MediaPlaylist {
        let answer = try await stack.request(url)
        #expect(answer.status == 200, "\(answer.body)")
        return try MediaPlaylist(parsing: answer.body)
    }

    @Test func manyViewersCauseOneOriginFetchPerRenditionPerRefresh() async throws {
        let origin = ScriptedLiveOrigin()
        try await withLive({ $0.live.originCacheSeconds = 30 }, origin: origin) { stack, channel in
            var playlists: [String] = []
            for _ in 0..<20 {
                playlists += try await mediaURLs(stack, try await stack.createSession(url: channel))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for url in playlists {
                    group.addTask { for _ in 0..<3 { _ = try await media(stack, url) } }
                }
                try await group.waitForAll()
            }
            // 20 viewers × 2 renditions × 3 reloads within one cache period: fetched once each.
            // (The first session's start also fetched each rendition once to learn the channel.)
            #expect(origin.requests("v0.m3u8") <= 2)
            #expect(origin.requests("v1.m3u8") <= 2)
            #expect(origin.requests("master.m3u8") == 1)
        }
    }

    // MARK: In process, on the test's clock

    /// Seam in process (`app.test(.router)`) over `origin` in memory (also the ad server), with
    /// the live clock the test moves: what needs time to pass, without sockets or sleeps.
    func withInProcessLive(
        _ adjust: (inout SeamConfiguration) -> Void = { _ in }, origin: ScriptedLiveOrigin, clock: TestClock,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = SeamConfiguration()
        configuration.live.originCacheSeconds = 1
        configuration.ads.adTagURL = ScriptedLiveOrigin.vastURL
        adjust(&configuration)
        let app = try FaultMatrixApp.make(configuration, upstream: origin, clock: clock)
        try await app.test(.router) { client in try await body(client) }
    }

    func mediaURLs(_ client: any TestClientProtocol) async throws -> [String] {
        let created = try await client.call("/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
        #expect(created.status == 201, "\(created.body)")
        let manifest = try #require(created.json["manifestUrl"] as? String)
        return try MultivariantPlaylist(parsing: try await client.call(manifest).body).variants.map(\.uri)
    }

    func media(_ client: any TestClientProtocol, _ url: String) async throws -> MediaPlaylist {
        let answer = try await client.call(url)
        #expect(answer.status == 200, "\(answer.body)")
        return try MediaPlaylist(parsing: answer.body)
    }

    static func adNumbers(_ playlist: MediaPlaylist) -> [Int] {
        playlist.segments.indices.filter { playlist.segments[$0].uri.contains("/ad/0/") }.map {
            playlist.mediaSequence + $0
        }
    }

    @Test func aBreakIsDecidedOncePerSessionAndReplacedInEveryRendition() async throws {
        let origin = ScriptedLiveOrigin()
        let clock = TestClock()
        try await withInProcessLive(origin: origin, clock: clock) { client in
            let sessions = [try await mediaURLs(client), try await mediaURLs(client)]
            origin.update {
                $0.last = 21; $0.cueOuts[21] = 24
            }
            clock.advance(.milliseconds(1100))
            // The reloads that reveal the cue queue one decision per session and do not wait for
            // it: the break is listed once the decision has landed.
            for urls in sessions {
                for url in urls { _ = try await media(client, url) }
            }
            for urls in sessions {
                let listed = await liveEventually {
                    let playlist = try? await media(client, urls[0])
                    return playlist.map { !Self.adNumbers($0).isEmpty } == true
                }
                #expect(listed)
            }
            // The origin publishes the rest of the break: the whole 20 s ad (4 × 5 s) is listed.
            origin.update { $0.last = 24 }
            clock.advance(.milliseconds(1100))
            for urls in sessions {
                let whole = await liveEventually {
                    let playlist = try? await media(client, urls[0])
                    return playlist.map { Self.adNumbers($0).count == 4 } == true
                }
                #expect(whole)
                let video = try await media(client, urls[0])
                let other = try await media(client, urls[1])
                // The same numbers in both renditions.
                #expect(Self.adNumbers(video).count == 4)
                #expect(Self.adNumbers(video) == Self.adNumbers(other))
                #expect(RenditionSetValidator.check([("v0", video), ("v1", other)]).isEmpty)
                #expect(!video.segments.contains { $0.uri.hasSuffix("seg_21.ts") })
            }
            // One ad request per session for the break, however many reloads and renditions.
            #expect(origin.requests("vast.xml") == 2)
        }
    }

    @Test func originTroubleServesTheLastGoodWindowThenAnOriginError() async throws {
        let origin = ScriptedLiveOrigin()
        let clock = TestClock()
        try await withInProcessLive({ $0.live.maxStaleSeconds = 3 }, origin: origin, clock: clock) { client in
            let urls = try await mediaURLs(client)
            let before = try await media(client, urls[0])
            origin.update { $0.failing = true }
            clock.advance(.milliseconds(1200))
            let stale = try await media(client, urls[0])
            #expect(stale.mediaSequence == before.mediaSequence)
            #expect(stale.segments.map(\.uri) == before.segments.map(\.uri))
            clock.advance(.seconds(3))
            let gone = try await client.call(urls[0])
            #expect(gone.status == 502)
            #expect(gone.errorCode == "ORIGIN_UNAVAILABLE")
            // The origin comes back: the session goes on from where it was.
            origin.update {
                $0.failing = false; $0.last = 22
            }
            clock.advance(.milliseconds(600))
            let back = try await media(client, urls[0])
            #expect(back.mediaSequence >= before.mediaSequence)
            #expect(back.segments.last?.uri.hasSuffix("seg_22.ts") == true)
        }
    }

    // (A window that moves backwards is never served: `LiveOriginBackwardsTests`, in process on
    // the test's clock, covers what the loopback test with sleeps here did.)

    @Test func lowLatencyInputIsServedAsRegularLatencyHLS() async throws {
        let origin = ScriptedLiveOrigin()
        origin.update { $0.lowLatency = true }
        try await withLive(origin: origin) { stack, channel in
            let urls = try await mediaURLs(stack, try await stack.createSession(url: channel))
            let answer = try await stack.request(urls[0] + "?_HLS_msn=21&_HLS_part=2")
            #expect(answer.status == 200)
            for tag in [
                "#EXT-X-PART", "#EXT-X-PRELOAD-HINT", "#EXT-X-RENDITION-REPORT", "#EXT-X-SERVER-CONTROL", "#EXT-X-SKIP",
            ] {
                #expect(!answer.body.contains(tag), "\(tag) leaked into a stitched live playlist")
            }
            let playlist = try MediaPlaylist(parsing: answer.body)
            #expect(playlist.segments.count == 6)
            let errors = PlaylistValidator.validate(answer.body).errors
            #expect(errors.isEmpty, "\(errors.map(\.message))")
        }
    }
}
