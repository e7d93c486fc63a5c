import Foundation
import HLS
import NIOConcurrencyHelpers
import Stitching
import Testing
import SeamTesting
@testable import SeamServer

/// HLS Interstitials as a viewer gets them, over real HTTP on loopback. No player that plays
/// interstitials can be installed here, so the proof is in parts: `seam validate` checks the
/// primary by the draft's rules; Chromium's native player (which ignores interstitial date
/// ranges) plays the primary, so the content plays through; every asset list parses and every
/// asset in it validates and plays in Chromium; the beacons fire once each as the asset
/// segments are fetched; and the session's stitched rendering reports the same decisions.
@Suite(.heavyLong) struct InterstitialsEndToEndTests {
    /// The demo title's content, 60 s: the interstitials primary is the content alone.
    static let contentDuration = 60.0

    static func adRequestCount(_ stack: SeamStack) async throws -> Int {
        (try await stack.request(stack.demo.beaconsURL).json["adRequests"] as? [Any])?.count ?? -1
    }

    /// `seam validate URL --json`: exit status and findings with severity error.
    static func validate(
        _ url: String, extra: [String] = []
    ) async throws -> (run: PlayerTools.Run, errors: [[String: Any]]) {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record(
                "the seam executable is not built next to the tests (swift build --build-tests builds it; or set SEAM_BINARY)"
            )
            return (PlayerTools.Run(status: -1, output: ""), [])
        }
        let run = try await PlayerTools.runAsync(seam, ["validate", url, "--json"] + extra, timeout: 240)
        let findings = run.json["findings"] as? [[String: Any]] ?? []
        return (run, findings.filter { $0["severity"] as? String == "error" })
    }

    /// Chromium plays a VOD URL (a primary or an asset) to `ended` with the expected duration.
    static func play(_ url: String, duration: Double) async throws -> PlayerTools.Run {
        try await PlayerTools.runAsync(
            "python3",
            [
                "scripts/players/chromium_play.py", url, "--rate", "8", "--gap-jump", "0.5",
                "--expect-duration", String(duration), "--tolerance", "0.5", "--json",
            ])
    }

    /// The program time a live media playlist's window covers, from its first segment's
    /// `EXT-X-PROGRAM-DATE-TIME` to the end of its last segment; nil without one.
    static func window(of media: MediaPlaylist) -> Range<Double>? {
        guard let start = media.segments.first?.programDateTime?.secondsSince1970 else { return nil }
        return start..<(start + media.segments.reduce(0) { $0 + $1.duration })
    }

    static func assetList(_ stack: SeamStack, _ url: String) async throws -> AssetList {
        let answer = try await stack.request(url)
        #expect(answer.status == 200, "\(url): \(answer.body)")
        #expect(answer.header("content-type") == "application/json")
        return try JSONDecoder().decode(AssetList.self, from: Data(answer.body.utf8))
    }

    // MARK: VOD

    @Test(.timeLimit(HeavyTier.timeLimit)) func vodPrimaryAndEveryAssetPlayAndBeaconsFireOnce() async throws {
        guard PlayerTools.require("chromium", for: "Chromium playback of an interstitials session") else { return }
        try await SeamStack.run { stack in
            let session = try await stack.createSession(["mode": "interstitials", "trackingMode": "server"])
            let manifest = try #require(session["manifestUrl"] as? String)
            #expect(manifest.hasSuffix("/interstitials/master.m3u8"))
            let adRequests = try await Self.adRequestCount(stack)

            // The primary: valid by the draft's rules, one interstitial per break in every
            // rendition, and Chromium plays the content through.
            let validation = try await Self.validate(manifest)
            #expect(validation.run.status == 0 && validation.errors.isEmpty, "\(validation.run.output.prefix(4000))")
            #expect((validation.run.json["playlists"] as? [String])?.count == 4)
            let multivariant = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
            for variant in multivariant.variants {
                let media = try MediaPlaylist(parsing: try await stack.request(variant.uri).body)
                #expect(
                    media.segments.flatMap(\.dateRanges).map(\.id) == ["pre", "mid-30000", "post"], "\(variant.uri)")
                #expect(abs(media.duration - Self.contentDuration) < 0.01)
            }
            let primary = try await Self.play(manifest, duration: Self.contentDuration)
            #expect(primary.status == 0 && primary.json["ended"] as? Bool == true, "\(primary.output.suffix(2000))")
            #expect((primary.json["errors"] as? [Any])?.isEmpty == true)

            // Every asset list, every asset: validates and plays to its DURATION.
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            #expect(tracking["mode"] as? String == "interstitials")
            let avails = try #require(tracking["avails"] as? [[String: Any]])
            var played: [String] = []
            for avail in avails {
                let list = try await Self.assetList(stack, try #require(avail["assetListUrl"] as? String))
                let adIDs = (avail["ads"] as? [[String: Any]])?.compactMap { $0["adId"] as? String } ?? []
                #expect(list.assets.count == adIDs.count, "\(avail)")
                for (asset, adID) in zip(list.assets, adIDs) {
                    #expect(asset.uri.hasPrefix(stack.seamBaseURL + "/v1/sessions/"))
                    let checked = try await Self.validate(asset.uri)
                    #expect(
                        checked.run.status == 0 && checked.errors.isEmpty,
                        "\(asset.uri): \(checked.run.output.prefix(3000))")
                    let run = try await Self.play(asset.uri, duration: asset.duration)
                    #expect(
                        run.status == 0 && run.json["ended"] as? Bool == true,
                        "\(adID) \(asset.uri): \(run.output.suffix(2000))")
                    played.append(adID)
                }
            }
            #expect(played == ["ad1", "ad2", "ad3", "ad4"])

            // Server-side tracking: each event of each ad once, the breaks' own events once.
            let expected = VODEndToEndTests.everyBeaconOfTheTitle
            #expect(try await VODEndToEndTests.beaconsOnceSent(stack, expected).sorted() == expected.sorted())

            // The stitched rendering of the same session: the same decisions, no new ad request,
            // and its ad segments (the same addresses) fire nothing again.
            let stitchedURL = try #require(session["stitchedManifestUrl"] as? String)
            let stitchedMaster = try MultivariantPlaylist(parsing: try await stack.request(stitchedURL).body)
            let stitched = try MediaPlaylist(
                parsing: try await stack.request(try #require(stitchedMaster.variants.first?.uri)).body)
            for segment in stitched.segments where segment.uri.contains("/ad/") {
                #expect(try await stack.rawRequest(segment.uri).status == 302)
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await stack.beacons().sorted() == expected.sorted(), "a beacon fired twice")
            #expect(try await Self.adRequestCount(stack) == adRequests, "the ad server was asked again")
            let again = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            #expect((again["avails"] as? [[String: Any]])?.count == avails.count)
        }
    }

    // MARK: Live

    /// What a date range said the first time its ID was seen.
    struct Signalled: Equatable, CustomStringConvertible {
        var startDate: String
        var assetList: String
        var description: String { "\(startDate) \(assetList)" }
    }

    @Test(.timeLimit(HeavyTier.timeLimit)) func liveInterstitialsValidateKeepTheirIdsAndEveryAssetPlays() async throws {
        guard PlayerTools.require("chromium", for: "Chromium playback of a live interstitials session") else { return }
        try await LiveEndToEndTests.withLiveStack { stack in
            let session = try await stack.createSession(
                ["mode": "interstitials", "trackingMode": "server"],
                url: stack.demo.liveURL(dialect: "cueOutIn"))
            let manifest = try #require(session["manifestUrl"] as? String)
            let multivariant = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
            let renditions = multivariant.variants.map(\.uri) + multivariant.renditions.compactMap(\.uri)

            async let validation = Self.validate(manifest, extra: ["--duration", "60"])
            async let watched = PlayerTools.withChromium(realTime: true) {
                try await PlayerTools.runAsync(
                    "python3",
                    [
                        "scripts/players/chromium_play.py", manifest, "--live", "--watch", "30",
                        "--max-stall", String(LiveEndToEndTests.maxStall), "--timeout", "200", "--json",
                    ], timeout: 260)
            }

            // Poll every rendition for 60 s: an ID always says the same START-DATE and asset
            // list, every rendition lists the same date ranges, and each new break's assets
            // validate and play as soon as it appears.
            var signalled: [String: Signalled] = [:]
            var assetsPlayed = 0
            var problems: [String] = []
            let end = Date().addingTimeInterval(60)
            while Date() < end {
                // Every rendition first, so they are compared at one moment (a break's assets take
                // seconds to validate and play; the window moves meanwhile). The window may still
                // move between two fetches on a loaded machine, so the renditions are compared on
                // the time all their windows cover: every break starting there is in each of them.
                // A break decided between two fetches of one round is in the later renditions
                // only (seen in a stress run): renditions that disagree are fetched again at once,
                // as `seam validate` does, and only a second disagreement is a problem.
                var medias: [MediaPlaylist] = []
                for attempt in 1...2 {
                    medias = []
                    for uri in renditions {
                        medias.append(try MediaPlaylist(parsing: try await stack.request(uri).body))
                    }
                    let windows = medias.compactMap(Self.window(of:))
                    guard windows.count == medias.count, let from = windows.map(\.lowerBound).max(),
                        let to = windows.map(\.upperBound).min(), from < to
                    else {
                        if attempt == 2 {
                            problems.append("a rendition without program date-times or no common window: \(windows)")
                        }
                        continue
                    }
                    let byRendition = medias.map {
                        $0.segments.flatMap(\.dateRanges).filter(\.isInterstitial)
                            .filter { ($0.startDate?.secondsSince1970).map { (from..<to).contains($0) } ?? true }
                            .map(\.id).sorted()
                    }
                    if Set(byRendition).count <= 1 { break }
                    if attempt == 2 {
                        problems.append("renditions list different breaks in \(from)..<\(to): \(byRendition)")
                    }
                }
                for media in medias {
                    let ranges = media.segments.flatMap(\.dateRanges).filter(\.isInterstitial)
                    for range in ranges {
                        let now = Signalled(startDate: range.startDate?.text ?? "", assetList: range.assetList ?? "")
                        if let before = signalled[range.id], before != now {
                            problems.append("\(range.id) was \(before), now \(now)")
                        }
                        if range.resumeOffset != nil { problems.append("\(range.id) has X-RESUME-OFFSET on live") }
                        if range.attributes.double("X-PLAYOUT-LIMIT") == nil {
                            problems.append("\(range.id) has no X-PLAYOUT-LIMIT")
                        }
                        guard signalled[range.id] == nil else { continue }
                        signalled[range.id] = now
                        // The tracking JSON names the break by the same id and asset list.
                        let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
                        let avail = (tracking["avails"] as? [[String: Any]] ?? []).first {
                            $0["interstitialId"] as? String == range.id
                        }
                        #expect(avail?["assetListUrl"] as? String == now.assetList, "\(range.id) in \(tracking)")
                        #expect((avail?["ads"] as? [[String: Any]])?.isEmpty == false)
                        let list = try await Self.assetList(stack, now.assetList)
                        #expect(list.assets.count == 1, "\(range.id): \(list)")
                        for asset in list.assets {
                            let checked = try await Self.validate(asset.uri)
                            #expect(
                                checked.run.status == 0 && checked.errors.isEmpty,
                                "\(asset.uri): \(checked.run.output.prefix(3000))")
                            let run = try await Self.play(asset.uri, duration: asset.duration)
                            #expect(
                                run.status == 0 && run.json["ended"] as? Bool == true,
                                "\(asset.uri): \(run.output.suffix(2000))")
                            assetsPlayed += 1
                        }
                        // The same list on a later request.
                        #expect(try await Self.assetList(stack, now.assetList) == list)
                    }
                }
                try await Task.sleep(for: .seconds(2))
            }
            #expect(problems.isEmpty, "\(problems.prefix(10))")
            #expect(!signalled.isEmpty, "no break was signalled in 60 s of a channel with a break every 42 s")
            #expect(assetsPlayed >= 1)

            let (checked, primary) = try await (validation, watched)
            #expect(checked.run.status == 0 && checked.errors.isEmpty, "\(checked.run.output.prefix(4000))")
            #expect((checked.run.json["reloads"] as? Int ?? 0) >= 10)
            #expect(primary.status == 0 && primary.json["ok"] as? Bool == true, "\(primary.output.suffix(3000))")
            #expect((primary.json["errors"] as? [Any])?.isEmpty == true)

            // Each played asset fired its ad's impression once.
            let impressions = try await LiveEndToEndTests.beaconCount(
                stack, path: "/track/ad3/impression", atLeast: assetsPlayed)
            #expect(impressions == assetsPlayed, "ad3 impressions \(impressions) for \(assetsPlayed) assets played")
            print(
                "interstitials live e2e: ids \(signalled.keys.sorted()), assets played \(assetsPlayed), impressions \(impressions), "
                    + "validate reloads \(checked.run.json["reloads"] ?? "?")")
        }
    }
}
