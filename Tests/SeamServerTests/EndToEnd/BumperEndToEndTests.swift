import Foundation
import HLS
import SeamDemo
import SeamTesting
import Stitching
import Testing

@testable import SeamServer

/// Bumpers (`ads.bumpers.*`) on loopback, with the demo's 2 s bumper (the slate's first two
/// seconds, `Samples/media/bumper`) before and after every filled break: the stitched title
/// grows by them, Chromium plays it to the end, the interstitials asset lists frame each pod with
/// them, and the ad server's beacons are exactly those of the title without bumpers.
@Suite(.heavy, .serialized) struct BumperEndToEndTests {
    /// The demo title's 111 s (content 60 s, pre-roll 25 s, mid-roll 20 s, post-roll 6 s) and a
    /// 2 s bumper on each side of each of its three breaks.
    static let expectedDuration = VODEndToEndTests.expectedDuration + 3 * 4

    static func bumpers(
        preroll: Bool = true, startURL: String? = nil
    ) -> (inout SeamConfiguration, DemoServers) -> Void {
        { configuration, demo in
            configuration.ads.bumpers.startURL = startURL ?? demo.origin.baseURL + "/media/bumper/master.m3u8"
            configuration.ads.bumpers.endURL = demo.origin.baseURL + "/media/bumper/master.m3u8"
            configuration.ads.bumpers.preroll = preroll
            configuration.ads.trackingMode = "server"
        }
    }

    static func tracking(_ stack: SeamStack, _ session: [String: Any]) async throws -> [[String: Any]] {
        let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
        return try #require(tracking["avails"] as? [[String: Any]])
    }

    static func positions(_ avail: [String: Any]) -> [String] {
        (avail["bumpers"] as? [[String: Any]] ?? []).compactMap { $0["position"] as? String }
    }

    @Test(.timeLimit(HeavyTier.timeLimit)) func chromiumPlaysTheStitchedTitleWithBumpersAndEveryBeaconFiresOnce()
        async throws
    {
        guard PlayerTools.require("chromium", for: "Chromium playback of a title with bumpers") else { return }
        try await SeamStack.run(configure: Self.bumpers()) { stack in
            let session = try await stack.createSession()
            let manifest = try #require(session["manifestUrl"] as? String)
            let avails = try await Self.tracking(stack, session)
            #expect(avails.map(Self.positions) == [["start", "end"], ["start", "end"], ["start", "end"]])
            // Each break starts with its start bumper and lasts its ads plus 4 s; the ads follow the bumper.
            #expect(avails.map { $0["startTimeSeconds"] as? Double } == [0, 59, Self.expectedDuration - 10])
            #expect(avails.map { $0["durationSeconds"] as? Double } == [29, 24, 10])
            let mid = avails[1]
            #expect((mid["ads"] as? [[String: Any]])?.first?["startTimeSeconds"] as? Double == 61)
            #expect(
                (mid["bumpers"] as? [[String: Any]])?.compactMap { $0["startTimeSeconds"] as? Double } == [59, 81])

            // Every rendition: valid, the bumpers' segments straight from their host (never
            // through Seam's beacon route), one discontinuity more on each side of each pod.
            let multivariant = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
            for variant in multivariant.variants {
                let media = try MediaPlaylist(parsing: try await stack.request(variant.uri).body)
                #expect(abs(media.duration - Self.expectedDuration) < 0.01, "\(variant.uri)")
                let bumperSegments = media.segments.filter { $0.uri.contains("/media/slate/") }
                #expect(bumperSegments.count == 12, "two 1 s segments on each side of three breaks")
                #expect(media.segments.filter(\.discontinuity).count == 5 + 6, "\(variant.uri)")
            }
            let validation = try await InterstitialsEndToEndTests.validate(manifest)
            #expect(validation.run.status == 0 && validation.errors.isEmpty, "\(validation.run.output.prefix(4000))")

            let run = try await InterstitialsEndToEndTests.play(manifest, duration: Self.expectedDuration)
            #expect(
                run.status == 0 && run.json["ended"] as? Bool == true,
                "\(run.json["reason"] ?? "") \(run.json["stalls"] ?? "") \(run.json["gap_jumps"] ?? "") \(run.json["nudges"] ?? "") \(run.output.suffix(3000))"
            )
            #expect((run.json["errors"] as? [Any])?.isEmpty == true)
            // The bumpers fired nothing: the ad server got each beacon of the title once.
            let expected = VODEndToEndTests.everyBeaconOfTheTitle
            #expect(try await VODEndToEndTests.beaconsOnceSent(stack, expected).sorted() == expected.sorted())

            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(metrics.sum("seam_bumpers_played_total", ["kind": "vod", "position": "start"]) == 3)
            #expect(metrics.sum("seam_bumpers_played_total", ["kind": "vod", "position": "end"]) == 3)
            #expect(metrics.sum("seam_ads_inserted_total", ["kind": "vod"]) == 4, "bumpers are not ads")
            #expect(metrics.sum("seam_avail_seconds_total", ["kind": "vod"]) == 51, "nor avail time to fill")
        }
    }

    @Test(.timeLimit(HeavyTier.timeLimit)) func theInterstitialsAssetListsFrameEachPodAndEveryAssetPlays()
        async throws
    {
        guard PlayerTools.require("chromium", for: "Chromium playback of bumper assets") else { return }
        try await SeamStack.run(configure: Self.bumpers()) { stack in
            let session = try await stack.createSession(["mode": "interstitials"])
            let avails = try await Self.tracking(stack, session)
            let mid = try #require(avails.first { $0["position"] as? String == "midroll" })
            let list = try await InterstitialsEndToEndTests.assetList(
                stack, try #require(mid["assetListUrl"] as? String))
            #expect(list.assets.map(\.duration) == [2, 20, 2])
            #expect(list.assets.map { $0.signaling != nil } == [false, true, false], "a bumper is no ad")
            #expect(list.skipControl == nil)
            for asset in list.assets {
                let checked = try await InterstitialsEndToEndTests.validate(asset.uri)
                #expect(checked.run.status == 0 && checked.errors.isEmpty, "\(asset.uri): \(checked.run.output)")
                let run = try await InterstitialsEndToEndTests.play(asset.uri, duration: asset.duration)
                #expect(
                    run.status == 0 && run.json["ended"] as? Bool == true, "\(asset.uri): \(run.output.suffix(2000))")
            }
            // The bumper's asset lists its segments where they are: nothing goes through the beacon route.
            let bumper = try MultivariantPlaylist(parsing: try await stack.request(list.assets[0].uri).body)
            let variant = try #require(bumper.variants.first?.uri)
            let media = try MediaPlaylist(
                parsing: try await stack.request(URIReference.resolve(variant, against: list.assets[0].uri)).body)
            #expect(media.segments.allSatisfy { $0.uri.contains("/media/slate/") }, "\(media.serialized())")
            // The primary's interstitial lasts the whole list.
            let primary = try MultivariantPlaylist(
                parsing: try await stack.request(try #require(session["manifestUrl"] as? String)).body)
            let content = try MediaPlaylist(
                parsing: try await stack.request(try #require(primary.variants.first?.uri)).body)
            let range = try #require(content.segments.flatMap(\.dateRanges).first { $0.id == "mid-30000" })
            #expect(range.duration == 24)
        }
    }

    @Test func preRollsGoWithoutBumpersWhenConfiguredAndAMissingBumperIsCountedNotFatal() async throws {
        try await SeamStack.run(
            configure: { configuration, demo in
                Self.bumpers(preroll: false, startURL: demo.origin.baseURL + "/media/no-such-bumper/master.m3u8")(
                    &configuration, demo)
            }
        ) { stack in
            let avails = try await Self.tracking(stack, try await stack.createSession())
            // The start bumper is not there: every filled break plays its ads and the end bumper;
            // the pre-roll plays none.
            #expect(avails.map(Self.positions) == [[], ["end"], ["end"]])
            #expect(
                avails.map { ($0["ads"] as? [[String: Any]])?.count } == [2, 1, 1], "the ads play without the bumper")
            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(
                metrics.sum("seam_bumpers_missed_total", ["kind": "vod", "position": "start", "reason": "failed"]) == 2)
            #expect(metrics.sum("seam_bumpers_played_total", ["kind": "vod", "position": "end"]) == 2)
        }
    }

    @Test func configurationRefusesWhatCannotBeABumper() throws {
        func refusal(_ environment: [String: String]) -> String {
            do {
                _ = try ConfigurationLoader(environment: environment).load(yaml: nil)
                return ""
            } catch {
                return "\(error)"
            }
        }
        let relative = refusal(["SEAM_ADS_BUMPERS_START_URL": "bumper/master.m3u8"])
        #expect(relative.contains("ads.bumpers.startURL") && relative.contains("absolute http(s) URL"), "\(relative)")
        let mp4 = refusal(["SEAM_ADS_BUMPERS_END_URL": "https://cdn.example/out.mp4?v=2"])
        #expect(mp4.contains("ads.bumpers.endURL") && mp4.contains("conditioning.directory"), "\(mp4)")
        let loaded = try ConfigurationLoader(environment: [
            "SEAM_ADS_BUMPERS_END_URL": "https://cdn.example/out.mp4", "SEAM_CONDITIONING_DIRECTORY": "/tmp/x",
            "SEAM_ADS_BUMPERS_PREROLL": "false",
        ]).load(yaml: nil)
        #expect(loaded.ads.bumpers.endURL == "https://cdn.example/out.mp4")
        #expect(loaded.ads.bumpers.preroll == false)
        // DASH sessions' bumpers are MPDs.
        let playlist = refusal(["SEAM_ADS_BUMPERS_DASH_START_URL": "https://cdn.example/bumper/master.m3u8"])
        #expect(playlist.contains("ads.bumpers.dashStartURL") && playlist.contains("of an MPD"), "\(playlist)")
        let dash = try ConfigurationLoader(environment: [
            "SEAM_ADS_BUMPERS_DASH_END_URL": "https://cdn.example/bumper/manifest.mpd"
        ]).load(yaml: nil)
        #expect(dash.ads.bumpers.dashEndURL == "https://cdn.example/bumper/manifest.mpd")
    }

    // MARK: Live

    /// A 30 s live break the demo's pre-roll pod fills to 25 s: 2 s bumpers on each side fit
    /// (29 s), the slate the second left; both renderings play them and the tracking JSON says so.
    @Test func aLiveBreakIsFramedInBothRenderings() async throws {
        try await SeamStack.runLive(origin: .thirtySecondBreak(), configure: Self.bumpers()) { stack, channel in
            let session = try await stack.createSession(url: channel)
            let master = try #require(session["manifestUrl"] as? String)
            let variant = try #require(
                try MultivariantPlaylist(parsing: try await stack.request(master).body).variants.first)
            let media = try MediaPlaylist(
                parsing: try await stack.request(URIReference.resolve(variant.uri, against: master)).body)
            // Start bumper (2 × 1 s), ad1 (2 × 5 s), ad2 (3 × 5 s), end bumper: the bumpers'
            // segments straight from their host, the ads' through the beacon route.
            let kinds = media.segments.map { segment in
                segment.uri.contains("/media/slate/") ? "b" : segment.uri.contains("/ad/") ? "a" : "c"
            }.joined()
            #expect(kinds.hasSuffix("cbbaaaaabb"), "content, then the break (the window ends with it): \(kinds)")
            #expect(!kinds.contains("bbb"), "\(kinds)")

            let avails = try await Self.tracking(stack, session)
            let avail = try #require(avails.first)
            let start = try #require(avail["startTimeSeconds"] as? Double)
            #expect(Self.positions(avail) == ["start", "end"])
            #expect(
                (avail["bumpers"] as? [[String: Any]])?.compactMap {
                    ($0["startTimeSeconds"] as? Double).map { $0 - start }
                }
                    == [0, 27])
            #expect(
                (avail["ads"] as? [[String: Any]])?.compactMap {
                    ($0["startTimeSeconds"] as? Double).map { $0 - start }
                }
                    == [2, 12])
            #expect(avail["durationSeconds"] as? Double == 29)

            // The interstitials rendering of the same break: the bumpers frame its asset list.
            let list = try await InterstitialsEndToEndTests.assetList(
                stack, try #require(avail["assetListUrl"] as? String))
            #expect(list.assets.map(\.duration) == [2, 10, 15, 2])
            #expect(list.assets.map { $0.signaling != nil } == [false, true, true, false])
            let bumper = try MultivariantPlaylist(parsing: try await stack.request(list.assets[3].uri).body)
            #expect(!bumper.variants.isEmpty)

            let validation = try await InterstitialsEndToEndTests.validate(master)
            #expect(validation.run.status == 0 && validation.errors.isEmpty, "\(validation.run.output.prefix(4000))")

            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(metrics.sum("seam_bumpers_played_total", ["kind": "live"]) == 2)
        }
    }
}
