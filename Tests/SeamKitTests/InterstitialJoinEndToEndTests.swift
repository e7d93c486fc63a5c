import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import HLS
import SeamTesting
import SeamWatch
import Testing

/// A viewer that starts a live interstitials stream inside a break (the SGAI live join), on
/// loopback: a scripted live origin, the demo ad server's pre-roll pod (ad1 10 s, ad2 15 s) in a
/// 30 s break, and `seam watch`'s interstitials player joining as hls.js and Shaka do.
@Suite(.serialized) struct InterstitialJoinEndToEndTests {
    static let token = "interstitial-join-debug-token-0123456789"
    static let quartiles = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]

    /// Seam + demo ad server + a scripted origin whose window (segments 9–14, 6 s each) holds a
    /// 30 s break cued at segment 10; the session is created with that window, so its break is
    /// decided (ad1 + ad2) before the player starts.
    func withBreakUnderWay(
        _ body: @escaping @Sendable (SeamStack, _ session: [String: Any]) async throws -> Void
    )
        async throws
    {
        try await SeamStack.runLive(
            origin: .thirtySecondBreak(),
            { configuration in
                configuration.ads.trackingMode = "server"
                configuration.live.originCacheSeconds = 1
                configuration.debug.token = Self.token
            }
        ) { stack, channel in
            let session = try await stack.createSession(
                ["mode": "interstitials", "trackingMode": "server"], url: channel)
            try await body(stack, session)
        }
    }

    @Test(
        "Joined 12 s into a break of ad1 (10 s) + ad2 (15 s): the asset list asked with _HLS_start_offset=12; ad1 never fetched nor reported, ad2 played from 2 s in, each of its beacons once"
    )
    func joinInsideABreak() async throws {
        try await withBreakUnderWay { stack, session in
            let id = try #require(session["sessionId"] as? String)
            let masterText = try #require(session["interstitialsManifestUrl"] as? String)
            let master = try #require(URL(string: masterText))
            let player = SimulatedInterstitialsPlayer(urlSession: URLSession(configuration: .ephemeral))
            try await player.load(multivariant: master)
            // Three target durations from the live edge: segment 12's start, 12 s after the break's.
            let mark = try #require(player.primary.interstitials.first)
            #expect(player.currentTime - mark.time == 12)

            var failures = await player.advance(by: 0)
            let position = try #require(player.interstitial, "the player did not join the break under way")
            #expect(position.assetIndex == 1)
            #expect(position.assetTime == 2)
            for _ in 0..<40 where player.interstitial != nil { failures += await player.advance(by: 0.5) }
            #expect(player.interstitial == nil, "the interstitial did not end")
            #expect(player.problems.isEmpty, "\(player.problems)")
            #expect(failures.filter { !$0.url.path.contains("/live/") }.isEmpty, "\(failures)")

            // Every beacon the segment fetches queued is sent and answered: no wait on the wall clock.
            await stack.drainBeacons()
            let snapshot = await stack.demo.beaconLog.snapshot()
            for event in Self.quartiles {
                #expect(snapshot.counts["/track/ad2/\(event)"] == 1, "ad2 \(event): \(snapshot.counts)")
                #expect(snapshot.counts["/track/ad1/\(event)"] == nil, "ad1 \(event) was never played")
            }

            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(metrics.sum("seam_asset_lists_answered_total", ["join": "inside"]) == 1)
            #expect(metrics.sum("seam_asset_list_ads_passed_total") == 1)

            await stack.drainStories()
            let story = try await stack.request(
                "/v1/admin/sessions/\(id)", headers: [("Authorization", "Bearer \(Self.token)")])
            let entries = (story.json["story"] as? [[String: Any]] ?? []).filter {
                $0["event"] as? String == "assetList"
            }
            let entry = try #require(entries.first, "\(story.body)")
            #expect(entry["outcome"] as? String == "inside")
            #expect(entry["seconds"] as? Double == 12)
            #expect(entry["count"] as? Int == 1)
            #expect((entry["detail"] as? String)?.contains("_HLS_primary_id \(player.primaryID)") == true, "\(entry)")
        }
    }

    @Test(
        "The parameter sets hls.js, Shaka, AVPlayer and Media3 send get the same list; a malformed one is 400 naming it"
    )
    func playersParameterSets() async throws {
        try await withBreakUnderWay { stack, session in
            let master = try #require(session["interstitialsManifestUrl"] as? String)
            let variants = try MultivariantPlaylist(parsing: try await stack.request(master).body).variants
            let media = URIReference.resolve(try #require(variants.first?.uri), against: master)
            let primary = try MediaPlaylist(parsing: try await stack.request(media).body)
            let range = try #require(primary.segments.flatMap(\.dateRanges).first { $0.isInterstitial })
            let list = URIReference.resolve(try #require(range.assetList), against: media)
            let plain = try await stack.request(list)
            #expect(plain.status == 200)
            let assets = plain.json["ASSETS"] as? [[String: Any]] ?? []
            #expect(assets.map { $0["DURATION"] as? Double } == [10, 15], "\(plain.body)")
            let uuid = "5C8D6B2A-0F4E-4C1B-9B7A-3E2D1C0B9A88"
            let sets = [
                // hls.js and Shaka: the player's id always, the offset on a live join, to the millisecond.
                "_HLS_primary_id=\(uuid.lowercased())&_HLS_start_offset=12.345",
                "_HLS_primary_id=\(uuid.lowercased())&_HLS_start_offset=12",
                // AVPlayer: AVURLAssetPrimarySessionIdentifierKey's value.
                "_HLS_primary_id=\(uuid)",
                // Media3: the URL as the playlist wrote it (no parameter).
                "",
                // Past the list's end (a player that misjudged the live edge).
                "_HLS_start_offset=90",
            ]
            for query in sets {
                let answer = try await stack.request(query.isEmpty ? list : list + "?" + query)
                #expect(answer.status == 200, "\(query): \(answer.body)")
                #expect(answer.body == plain.body, "\(query)")
            }
            for (query, named) in [
                ("_HLS_start_offset=-3", "_HLS_start_offset"), ("_HLS_start_offset=abc", "_HLS_start_offset"),
                ("_HLS_start_offset=nan", "_HLS_start_offset"), ("_HLS_primary_id=", "_HLS_primary_id"),
                ("_HLS_primary_id=" + String(repeating: "x", count: 300), "_HLS_primary_id"),
            ] {
                let answer = try await stack.request(list + "?" + query)
                #expect(answer.status == 400, "\(query)")
                #expect(answer.errorCode == "INVALID_REQUEST")
                #expect(answer.body.contains(named), "\(answer.body)")
            }
            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(metrics.sum("seam_asset_lists_answered_total", ["join": "inside"]) == 2)
            #expect(metrics.sum("seam_asset_lists_answered_total", ["join": "start"]) == 3)
            #expect(metrics.sum("seam_asset_lists_answered_total", ["join": "after"]) == 1)
            #expect(metrics.sum("seam_asset_list_ads_passed_total") == 4)
        }
    }
}
