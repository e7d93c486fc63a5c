import Foundation
import HLS
import HummingbirdTesting
import Testing
import SeamTesting
@testable import SeamServer

/// A picture-in-picture session of a live session, in process on the test's clock over the
/// scripted origin (also the ad server): it follows its main's decision record, so it lists the
/// breaks the main decided before it joined and shares those decided after, each asked of the ad
/// server once, whichever session's reload saw the cue first.
@Suite(.serialized) struct LivePictureInPictureTests {
    func withInProcessLive(
        origin: ScriptedLiveOrigin, clock: TestClock,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = SeamConfiguration()
        configuration.live.originCacheSeconds = 1
        configuration.ads.adTagURL = ScriptedLiveOrigin.vastURL
        let app = try FaultMatrixApp.make(configuration, upstream: origin, clock: clock)
        try await app.test(.router) { client in try await body(client) }
    }

    /// Creates a session; its id and media playlist URLs.
    func start(_ client: any TestClientProtocol, _ json: [String: String]) async throws -> (id: String, media: [String])
    {
        let created = try await client.call("/v1/sessions", method: .post, json: json)
        #expect(created.status == 201, "\(created.body)")
        let id = try #require(created.json["sessionId"] as? String)
        let manifest = try #require(created.json["stitchedManifestUrl"] as? String)
        return (id, try MultivariantPlaylist(parsing: try await client.call(manifest).body).variants.map(\.uri))
    }

    func media(_ client: any TestClientProtocol, _ url: String) async throws -> MediaPlaylist? {
        let answer = try await client.call(url)
        guard answer.status == 200 else { return nil }
        return try MediaPlaylist(parsing: answer.body)
    }

    /// The decided breaks a session's tracking JSON lists: avail id, ads and skip reason.
    func breaks(_ client: any TestClientProtocol, _ id: String) async throws -> [String] {
        let tracking = try await client.call("/v1/sessions/\(id)/tracking")
        #expect(tracking.status == 200, "\(tracking.body)")
        let document = try JSONDecoder().decode(TrackingDocument.self, from: Data(tracking.body.utf8))
        return document.avails.map { "\($0.availId) \($0.ads.map(\.adId)) \($0.skipReason ?? "filled")" }
    }

    /// Whether `url`'s playlist lists ad segments of break `number` under session `id`'s URLs.
    func listsBreak(_ client: any TestClientProtocol, _ url: String, number: Int, id: String) async -> Bool {
        guard let playlist = try? await media(client, url) else { return false }
        return playlist.segments.contains { $0.uri.contains("/v1/sessions/\(id)/ad/\(number)/") }
    }

    @Test func aLivePipListsTheMainsDecidedBreaksAndSharesLaterOnes() async throws {
        let origin = ScriptedLiveOrigin()
        let clock = TestClock()
        try await withInProcessLive(origin: origin, clock: clock) { client in
            let main = try await start(client, ["url": ScriptedLiveOrigin.liveURL])
            origin.update {
                $0.last = 21; $0.cueOuts[21] = 24
            }
            clock.advance(.milliseconds(1100))
            _ = try await media(client, main.media[0])
            #expect(await liveEventually { await listsBreak(client, main.media[0], number: 0, id: main.id) })
            #expect(origin.requests("vast.xml") == 1)

            // The pip joins after the main's first break was decided: it lists it, asking nothing.
            let pip = try await start(client, ["url": ScriptedLiveOrigin.liveURL, "pipOf": main.id])
            #expect(await listsBreak(client, pip.media[0], number: 0, id: pip.id))
            #expect(origin.requests("vast.xml") == 1)
            // Both play the break's first ad segment in both renditions: its beacons reach the ad
            // server once (the dispatcher sends them through the scripted origin, which counts them).
            var fetched = 0
            for url in main.media + pip.media {
                for segment in try #require(try await media(client, url)).segments
                where segment.uri.contains("/ad/0/0/") {
                    #expect(try await client.call(segment.uri).status == 302)
                    fetched += 1
                }
            }
            #expect(fetched >= 4, "each session lists the ad in both renditions")
            #expect(await liveEventually { origin.requests("impression") >= 1 && origin.requests("start") >= 1 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(origin.requests("impression") == 1)
            #expect(origin.requests("start") == 1)

            let first = try await breaks(client, main.id)
            #expect(first.count == 1)
            #expect(try await breaks(client, pip.id) == first)

            // The next break: the pip's reload sees its cue first; the decision is the main's too.
            origin.update {
                $0.last = 29; $0.cueOuts[29] = 24
            }
            clock.advance(.milliseconds(1100))
            _ = try await media(client, pip.media[0])
            #expect(await liveEventually { await listsBreak(client, pip.media[0], number: 1, id: pip.id) })
            #expect(await listsBreak(client, main.media[0], number: 1, id: main.id))
            #expect(origin.requests("vast.xml") == 2, "one ad request per break for main and pip together")
            let both = try await breaks(client, main.id)
            #expect(both.count == 2)
            #expect(try await breaks(client, pip.id) == both)

            // The main ends; the pip plays on.
            #expect(try await client.call("/v1/sessions/\(main.id)", method: .delete).status == 204)
            #expect(try await media(client, pip.media[0]) != nil)
            #expect(try await breaks(client, pip.id) == both)
        }
    }

    @Test func aLivePipKeepsTheMainsTrackingModeAndRefusesAnother() async throws {
        let origin = ScriptedLiveOrigin()
        let clock = TestClock()
        try await withInProcessLive(origin: origin, clock: clock) { client in
            let main = try await start(client, ["url": ScriptedLiveOrigin.liveURL, "trackingMode": "client"])
            let refused = try await client.call(
                "/v1/sessions", method: .post,
                json: ["url": ScriptedLiveOrigin.liveURL, "pipOf": main.id, "trackingMode": "server"])
            #expect(refused.status == 400)
            #expect(
                refused.errorMessage?.contains("trackingMode must be the main session's (\"client\")") == true,
                "\(refused.body)")
            let pip = try await start(
                client, ["url": ScriptedLiveOrigin.liveURL, "pipOf": main.id, "mode": "interstitials"])
            let tracking = try await client.call("/v1/sessions/\(pip.id)/tracking")
            let document = try JSONDecoder().decode(TrackingDocument.self, from: Data(tracking.body.utf8))
            #expect(document.trackingMode == .client)
            #expect(document.mode == .interstitials)
        }
    }
}
