import Foundation
import HLS
import Testing
import SeamTesting
@testable import SeamServer

/// Live sessions over real HTTP against a scripted origin: the shared origin cache, one ad
/// decision per break per session, origin trouble, and LL-HLS input.
@Suite(.serialized) struct LiveSessionTests {
    /// Seam + the demo ad server (20 s mid-roll ad3) + a scripted origin; `body` gets the stack and the channel URL.
    func withLive(_ adjust: @escaping (inout SeamConfiguration) -> Void = { _ in },
                  origin: ScriptedLiveOrigin = ScriptedLiveOrigin(),
                  _ body: @escaping @Sendable (SeamStack, String) async throws -> Void) async throws {
        try await SeamStack.run(adTag: { $0.vmapURL }, { configuration in
            configuration.live.originCacheSeconds = 1
            adjust(&configuration)
        }) { stack in
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

    @Test func aBreakIsDecidedOncePerSessionAndReplacedInEveryRendition() async throws {
        let origin = ScriptedLiveOrigin()
        try await withLive(origin: origin) { stack, channel in
            let sessions = [try await stack.createSession(url: channel), try await stack.createSession(url: channel)]
            origin.update { $0.last = 21; $0.cueOuts[21] = 24 }
            for _ in 0..<3 {
                for session in sessions {
                    for url in try await mediaURLs(stack, session) { _ = try await media(stack, url) }
                }
                try await Task.sleep(for: .milliseconds(1100))
            }
            origin.update { $0.last = 24 }
            // Past the cache period the first reload gets the old window and refreshes it.
            try await Task.sleep(for: .milliseconds(1100))
            _ = try await media(stack, try await mediaURLs(stack, sessions[0])[0])
            try await Task.sleep(for: .milliseconds(200))
            for session in sessions {
                let urls = try await mediaURLs(stack, session)
                // The reload that reveals the cue queues the decision and does not wait for it:
                // the break is listed once the decision has landed.
                let listed = await liveEventually(timeout: .seconds(10)) {
                    let playlist = try? await media(stack, urls[0])
                    return playlist?.segments.contains { $0.uri.contains("/ad/0/") } == true
                }
                #expect(listed)
                let video = try await media(stack, urls[0])
                let other = try await media(stack, urls[1])
                // The 20 s ad (4 × 5 s) is listed in both renditions under the same numbers.
                let adNumbers = video.segments.indices.filter { video.segments[$0].uri.contains("/ad/0/") }.map { video.mediaSequence + $0 }
                let otherNumbers = other.segments.indices.filter { other.segments[$0].uri.contains("/ad/0/") }.map { other.mediaSequence + $0 }
                #expect(adNumbers.count == 4)
                #expect(adNumbers == otherNumbers)
                #expect(RenditionSetValidator.check([("v0", video), ("v1", other)]).isEmpty)
                #expect(!video.segments.contains { $0.uri.hasSuffix("seg_21.ts") })
            }
            // One VMAP request per session for the break, however many reloads and renditions.
            let requests = try await stack.request(stack.demo.beaconsURL).json["adRequests"] as? [[String: Any]] ?? []
            let vmapRequests = requests.filter { ($0["path"] as? String)?.hasPrefix("/vmap") == true }
            #expect(vmapRequests.count == 2, "\(requests)")
        }
    }

    @Test func originTroubleServesTheLastGoodWindowThenAnOriginError() async throws {
        let origin = ScriptedLiveOrigin()
        try await withLive({ $0.live.maxStaleSeconds = 3 }, origin: origin) { stack, channel in
            let urls = try await mediaURLs(stack, try await stack.createSession(url: channel))
            let before = try await media(stack, urls[0])
            origin.update { $0.failing = true }
            try await Task.sleep(for: .milliseconds(1200))
            let stale = try await media(stack, urls[0])
            #expect(stale.mediaSequence == before.mediaSequence)
            #expect(stale.segments.map(\.uri) == before.segments.map(\.uri))
            try await Task.sleep(for: .seconds(3))
            let gone = try await stack.request(urls[0])
            #expect(gone.status == 502)
            #expect(gone.errorCode == "ORIGIN_UNAVAILABLE")
            // The origin comes back: the session goes on from where it was.
            origin.update { $0.failing = false; $0.last = 22 }
            try await Task.sleep(for: .milliseconds(600))
            let back = try await media(stack, urls[0])
            #expect(back.mediaSequence >= before.mediaSequence)
            #expect(back.segments.last?.uri.hasSuffix("seg_22.ts") == true)
        }
    }

    @Test func aWindowThatMovesBackwardsIsNeverServed() async throws {
        let origin = ScriptedLiveOrigin()
        try await withLive(origin: origin) { stack, channel in
            let urls = try await mediaURLs(stack, try await stack.createSession(url: channel))
            origin.update { $0.last = 24 }
            try await Task.sleep(for: .milliseconds(1100))
            let ahead = try await media(stack, urls[0])
            origin.update { $0.servedLast = 21 }
            try await Task.sleep(for: .milliseconds(1100))
            let after = try await media(stack, urls[0])
            #expect(after.mediaSequence >= ahead.mediaSequence)
            #expect(after.segments.count + after.mediaSequence >= ahead.segments.count + ahead.mediaSequence)
        }
    }

    @Test func lowLatencyInputIsServedAsRegularLatencyHLS() async throws {
        let origin = ScriptedLiveOrigin()
        origin.update { $0.lowLatency = true }
        try await withLive(origin: origin) { stack, channel in
            let urls = try await mediaURLs(stack, try await stack.createSession(url: channel))
            let answer = try await stack.request(urls[0] + "?_HLS_msn=21&_HLS_part=2")
            #expect(answer.status == 200)
            for tag in ["#EXT-X-PART", "#EXT-X-PRELOAD-HINT", "#EXT-X-RENDITION-REPORT", "#EXT-X-SERVER-CONTROL", "#EXT-X-SKIP"] {
                #expect(!answer.body.contains(tag), "\(tag) leaked into a stitched live playlist")
            }
            let playlist = try MediaPlaylist(parsing: answer.body)
            #expect(playlist.segments.count == 6)
            let errors = PlaylistValidator.validate(answer.body).errors
            #expect(errors.isEmpty, "\(errors.map(\.message))")
        }
    }

    @Test func adSegmentRouteKeepsTheCreativesFileExtension() {
        #expect(LiveSession.extensionSuffix("https://ads.example/ad3/360p/seg_001.ts") == ".ts")
        #expect(LiveSession.extensionSuffix("https://ads.example/a/seg.m4s?token=1.2") == ".m4s")
        #expect(LiveSession.extensionSuffix("https://ads.example/a.b/segment") == "")
        #expect(LiveSession.extensionSuffix("https://ads.example/a/seg.verylongextension") == "")
        #expect(LiveSession.extensionSuffix("seg.") == "")
    }
}
