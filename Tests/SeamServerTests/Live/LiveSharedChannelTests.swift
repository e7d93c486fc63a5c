import Foundation
import HLS
import Testing
import SeamTesting
@testable import SeamServer

/// What a live channel shares between its viewers holds nothing of one viewer's request: the
/// creatives fitted once per channel keep the empty-subtitle URI as a placeholder, and each
/// session lists its own.
@Suite(.serialized) struct LiveSharedChannelTests {
    /// `url` (which names `host`, Seam's answer for that Host header) as a path on the real listener.
    func path(_ url: String, host: String) -> String {
        String(url.dropFirst("http://\(host)".count))
    }

    func subtitles(_ stack: SeamStack, _ manifest: String, host: String) async throws -> MediaPlaylist? {
        let master = try MultivariantPlaylist(
            parsing: try await stack.request(path(manifest, host: host), headers: [("Host", host)]).body)
        let uri = try #require(master.renditions.first { $0.type == .subtitles }?.uri)
        let answer = try await stack.request(path(uri, host: host), headers: [("Host", host)])
        guard answer.status == 200 else { return nil }
        return try MediaPlaylist(parsing: answer.body)
    }

    @Test func eachViewerGetsItsOwnEmptySubtitleURLDuringAds() async throws {
        let origin = ScriptedLiveOrigin()
        origin.update { $0.subtitles = true }
        try await SeamStack.run(adTag: { $0.vmapURL }, { $0.live.originCacheSeconds = 0.2 }) { stack in
            try await origin.run { base in
                let hosts = ["viewer-a.example", "viewer-b.example"]
                var sessions: [String] = []
                for host in hosts {
                    let answer = try await stack.request(
                        "/v1/sessions", method: .POST, json: ["url": base + "/master.m3u8"],
                        headers: [("Host", host)])
                    #expect(answer.status == 201, "\(answer.body)")
                    sessions.append(try #require(answer.json["manifestUrl"] as? String))
                }
                // The origin moves on to a break; each viewer sees it once the channel's cached
                // window (0.2 s) has expired: polled, not slept for.
                origin.update {
                    $0.last = 21; $0.cueOuts[21] = 24
                }
                for (host, session) in zip(hosts, sessions) {
                    let listed = await liveEventually(timeout: .seconds(15)) {
                        let playlist = try? await subtitles(stack, session, host: host)
                        return playlist?.segments.contains { $0.uri.hasSuffix("/v1/assets/empty.vtt") } == true
                    }
                    #expect(listed, "\(host) never listed the break in its subtitles")
                    let playlist = try #require(try await subtitles(stack, session, host: host))
                    let empty = playlist.segments.map(\.uri).filter { $0.hasSuffix("empty.vtt") }
                    #expect(!empty.isEmpty)
                    #expect(empty.allSatisfy { $0 == "http://\(host)/v1/assets/empty.vtt" }, "\(host): \(empty)")
                }
            }
        }
    }
}
