import Foundation
import HLS
import SeamTesting
import Testing

@testable import SeamServer

/// A break announced through the break API on the demo's live channel without cues, played by
/// Chromium: the player reaches the break, plays ad3 through Seam (its impression once), and the
/// interstitials rendering of the same session lists the break as an interstitial whose asset
/// list names ad3.
@Suite(.heavyLong) struct AnnouncedBreakEndToEndTests {
    static let token = "announced-break-e2e-token-0123456789"

    @Test(.timeLimit(HeavyTier.timeLimit)) func chromiumPlaysAnAnnouncedBreak() async throws {
        guard PlayerTools.require("chromium", for: "Chromium live playback of an announced break") else { return }
        // The browser's place first: the break is announced for about 30 s into the watch.
        try await PlayerTools.withChromium(realTime: true) { try await Self.playAnAnnouncedBreak() }
    }

    static func playAnAnnouncedBreak() async throws {
        try await SeamStack.run(
            configure: { configuration, demo in
                configuration.ads.trackingMode = "server"
                configuration.live.slateURL = demo.origin.baseURL + "/media/slate/master.m3u8"
                configuration.live.breaksToken = Self.token
            }
        ) { stack in
            let channel = stack.demo.liveURL(dialect: "none")
            let session = try await stack.createSession(["trackingMode": "server"], url: channel)
            let manifest = try #require(session["manifestUrl"] as? String)
            let sessionID = try #require(session["sessionId"] as? String)
            // Three segments past the origin's live edge, on a segment boundary as a cue would be:
            // the player, a few segments behind live, gets there some 30 s into the watch.
            let channelMaster = try MultivariantPlaylist(parsing: try await stack.request(channel).body)
            let firstVariant = try #require(channelMaster.variants.first?.uri)
            let origin = try MediaPlaylist(
                parsing: try await stack.request(URIReference.resolve(firstVariant, against: channel)).body)
            let edge = try #require(origin.segments.last?.programDateTime?.secondsSince1970)
            let start = Date(timeIntervalSince1970: edge + 3 * 6).formatted(.iso8601)
            let announced = try await stack.request(
                "/v1/admin/breaks", method: .POST,
                json: ["channelUrl": channel, "start": start, "durationSeconds": 24],
                headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(announced.status == 201, "\(announced.body)")

            // While Chromium plays the stitched rendition, the same session's interstitials
            // rendering is read until it lists the break (it leaves the window after it ends).
            let interstitials = try #require(session["interstitialsManifestUrl"] as? String)
            async let interstitialWindow = Self.firstWindowListingAnInterstitial(stack, interstitials)

            let trace = FileManager.default.temporaryDirectory.appendingPathComponent(
                "seam-announced-chromium-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: trace) }
            let run = try await PlayerTools.runAsync(
                "python3",
                [
                    "scripts/players/chromium_play.py", manifest, "--live", "--watch", "60",
                    "--max-stall", String(LiveEndToEndTests.maxStall), "--gap-jump", "0.5", "--timeout", "200",
                    "--trace", trace.path, "--json",
                ], timeout: 260)
            let json = run.json
            let summary =
                "ok \(json["ok"] ?? "?"), reason \(json["reason"] ?? "?"), advanced \(json["advanced"] ?? "?") s, "
                + "longest stall \(json["longest_stall"] ?? "?") s, media errors \(json["media_errors"] ?? "?")"
            #expect(run.status == 0, "\(summary)\n\(run.output.suffix(3000))")
            #expect(json["ok"] as? Bool == true, "\(summary)")
            #expect((json["errors"] as? [Any])?.isEmpty == true, "\(summary)")

            // The player fetched the announced break's ad segments through this session.
            let fetched = LiveEndToEndTests.adSegmentsFetched(
                in: LiveEndToEndTests.requestedURLs(trace: trace), sessionID: sessionID)
            #expect(!fetched.isEmpty, "no ad segment of the announced break was fetched; \(summary)")
            let avails = try await LiveEndToEndTests.avails(stack, session: session)
            #expect(avails.contains { $0.ads == ["ad3"] && $0.skipReason == nil }, "\(avails)")
            let started = fetched.filter { $0.value.contains { $0.ad == 0 && $0.segment == 0 } }.count
            if started > 0 {
                let impressions = try await LiveEndToEndTests.beaconCount(
                    stack, path: "/track/ad3/impression", atLeast: started)
                #expect(
                    impressions == started, "ad3 impressions \(impressions), breaks entered at ad3's start \(started)")
            }

            // The same session's interstitials rendering listed the break as an interstitial.
            let listing = try await interstitialWindow
            let media = try #require(listing, "the interstitials rendering never listed the announced break")
            let errors = PlaylistValidator.validate(media.body).errors
            #expect(errors.isEmpty, "\(errors.map(\.message))")
            let assetList = try #require(
                media.body.split(separator: "\n").first { $0.contains("X-ASSET-LIST") }.flatMap { line in
                    line.range(of: "X-ASSET-LIST=\"").map { line[$0.upperBound...].prefix { $0 != "\"" } }
                })
            let assets = try await stack.request(String(assetList))
            #expect(assets.status == 200, "\(assets.body)")
            #expect(assets.body.contains("\"ASSETS\""), "\(assets.body)")
        }
    }

    /// The interstitials media playlist of the session, read every 2 s for up to 90 s, the first
    /// time it lists an interstitial; nil when it never did.
    static func firstWindowListingAnInterstitial(
        _ stack: SeamStack, _ interstitials: String
    ) async throws -> SeamStack.Answer? {
        let master = try MultivariantPlaylist(parsing: try await stack.request(interstitials).body)
        let mediaURL = try #require(master.variants.first?.uri)
        for _ in 0..<45 {
            let media = try await stack.request(mediaURL)
            if media.body.contains("com.apple.hls.interstitial") { return media }
            try await Task.sleep(for: .seconds(2))
        }
        return nil
    }
}
