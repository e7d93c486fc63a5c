import Foundation
import HLS
import SeamDemo
import SeamTesting
import Stitching
import Testing

@testable import SeamServer

/// `live.prerollMaxSeconds` on loopback: a live session starts with a pre-roll pod (the demo's
/// pre-roll, ad1 10 s + ad2 15 s) before the first content it plays, in both renderings.
@Suite struct LivePrerollEndToEndTests {
    /// A scripted channel (segments 9–14, no cue): the pre-roll opens at 13.
    @Test func bothRenderingsOpenWithThePrerollAndSeamValidateIsClean() async throws {
        let origin = ScriptedLiveOrigin()
        origin.update { $0.last = 14 }
        try await SeamStack.runLive(
            origin: origin,
            {
                $0.live.prerollMaxSeconds = 30
                $0.ads.trackingMode = "server"
                $0.ads.adTagURL += "&bp=[BREAKPOSITION]"
            }
        ) { stack, channel in
            let session = try await stack.createSession(url: channel)
            let master = try #require(session["manifestUrl"] as? String)
            let variant = try #require(
                try MultivariantPlaylist(parsing: try await stack.request(master).body).variants.first)
            let media = try MediaPlaylist(
                parsing: try await stack.request(URIReference.resolve(variant.uri, against: master)).body)
            // The first playlist is the pre-roll's first seconds, numbered from the origin's 13:
            // ad1's two segments and ad2's first (listed as the origin publishes, one ahead).
            #expect(media.mediaSequence == 13)
            #expect(media.segments.count == 3, "\(media.serialized())")
            #expect(media.segments.allSatisfy { $0.uri.contains("/ad/0/") }, "\(media.serialized())")
            #expect(media.segments.first?.uri.hasSuffix("/ad/0/0/v0/0.ts") == true)

            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avail = try #require((tracking["avails"] as? [[String: Any]])?.first)
            #expect(avail["position"] as? String == "preroll")
            #expect((avail["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } == ["ad1", "ad2"])
            #expect(avail["durationSeconds"] as? Double == 25, "ads only: no slate after a pre-roll")
            // The ad server was asked for a pre-roll (IAB [BREAKPOSITION] 1).
            let requests = try await stack.request(stack.demo.beaconsURL).json["adRequests"] as? [[String: Any]] ?? []
            #expect(requests.compactMap { $0["query"] as? String }.contains { $0.contains("bp=1") }, "\(requests)")
            let validation = try await InterstitialsEndToEndTests.validate(master)
            #expect(validation.run.status == 0 && validation.errors.isEmpty, "\(validation.run.output.prefix(3000))")

            // The interstitials rendering of the same session: the content passes through, and
            // the pre-roll is an interstitial the player plays before it.
            let stitchedOnly = try #require(session["sessionId"] as? String)
            let interstitials = stack.seamBaseURL + "/v1/sessions/\(stitchedOnly)/interstitials/master.m3u8"
            let primaryMaster = try MultivariantPlaylist(parsing: try await stack.request(interstitials).body)
            let primary = try MediaPlaylist(
                parsing: try await stack.request(try #require(primaryMaster.variants.first?.uri)).body)
            let range = try #require(primary.segments.flatMap(\.dateRanges).first { $0.isInterstitial })
            #expect(range.cue == ["PRE", "ONCE"])
            #expect(range.id.hasPrefix("pre-"))
            #expect(range.attributes.string("X-RESUME-OFFSET") == nil)
            let list = try await InterstitialsEndToEndTests.assetList(
                stack, try #require(range.attributes.string("X-ASSET-LIST")))
            #expect(list.assets.map(\.duration) == [10, 15])
            let primaryValidation = try await InterstitialsEndToEndTests.validate(interstitials)
            #expect(
                primaryValidation.run.status == 0 && primaryValidation.errors.isEmpty,
                "\(primaryValidation.run.output.prefix(3000))")
        }
    }

    @Test func aPrerollMaxOutOfRangeIsRefusedNamingTheKey() throws {
        for value in ["1", "-5", "601"] {
            #expect {
                try ConfigurationLoader(environment: ["SEAM_LIVE_PREROLL_MAX_SECONDS": value]).load(yaml: nil)
            } throws: { error in
                let message = "\(error)"
                return message.contains("live.prerollMaxSeconds") && message.contains("2 to 600")
            }
        }
        let loaded = try ConfigurationLoader(environment: ["SEAM_LIVE_PREROLL_MAX_SECONDS": "30"]).load(yaml: nil)
        #expect(loaded.live.prerollMaxSeconds == 30)
    }
}

/// Chromium's native HLS player joins a live session with a pre-roll: it plays the pre-roll from
/// its first segment, then the channel, without a stall longer than a segment.
@Suite(.heavy, .serialized) struct LivePrerollChromiumTests {
    @Test(.timeLimit(HeavyTier.timeLimit)) func chromiumPlaysThePrerollFromItsFirstFrameThenTheChannel() async throws {
        guard PlayerTools.require("chromium", for: "Chromium live playback of a pre-roll") else { return }
        // The browser's place first: the pre-roll plays from the session's start.
        try await PlayerTools.withChromium(realTime: true) { try await Self.playThePreroll() }
    }

    static func playThePreroll() async throws {
        try await SeamStack.run(configure: { configuration, _ in
            configuration.ads.trackingMode = "server"
            configuration.live.prerollMaxSeconds = 30
        }) { stack in
            let session = try await stack.createSession(url: stack.demo.liveURL(dialect: "none"))
            let manifest = try #require(session["manifestUrl"] as? String)
            let sessionID = try #require(session["sessionId"] as? String)
            let trace = FileManager.default.temporaryDirectory.appendingPathComponent(
                "seam-preroll-chromium-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: trace) }
            let watch = 40.0
            let run = try await PlayerTools.runAsync(
                "python3",
                [
                    "scripts/players/chromium_play.py", manifest, "--live", "--watch", String(watch),
                    "--max-stall", String(LiveEndToEndTests.maxStall), "--gap-jump", "0.5", "--timeout", "180",
                    "--trace", trace.path, "--json",
                ], timeout: 240)
            let json = run.json
            let summary =
                "ok \(json["ok"] ?? "?"), reason \(json["reason"] ?? "?"), advanced \(json["advanced"] ?? "?") s, "
                + "longest stall \(json["longest_stall"] ?? "?") s, errors \(json["errors"] ?? "?")"
            #expect(run.status == 0 && json["ok"] as? Bool == true, "\(summary)\n\(run.output.suffix(2000))")
            #expect((json["network_errors"] as? [Any])?.isEmpty == true, "\(summary)")
            // The player fetched the pre-roll's (break 0) first segment of its first ad, and its
            // second ad's last: the whole pre-roll, from its first frame.
            let fetched =
                LiveEndToEndTests.adSegmentsFetched(
                    in: LiveEndToEndTests.requestedURLs(trace: trace), sessionID: sessionID)[0] ?? []
            #expect(fetched.contains { $0.ad == 0 && $0.segment == 0 }, "\(fetched)")
            #expect(fetched.contains { $0.ad == 1 && $0.segment == 2 }, "\(fetched)")
            let avails = try await LiveEndToEndTests.avails(stack, session: session)
            #expect(avails.first?.ads == ["ad1", "ad2"], "\(avails)")
            // Each of the pre-roll's beacons once: ad1's impression and ad2's completion.
            #expect(try await LiveEndToEndTests.beaconCount(stack, path: "/track/ad1/impression", atLeast: 1) == 1)
            #expect(try await LiveEndToEndTests.beaconCount(stack, path: "/track/ad2/complete", atLeast: 1) == 1)
            print("live pre-roll e2e: chromium: \(summary); pre-roll segments fetched \(fetched.count)")
        }
    }
}
