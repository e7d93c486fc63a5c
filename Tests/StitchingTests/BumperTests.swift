import Foundation
import HLS
import Testing
@testable import Stitching

/// Bumpers (`ads.bumpers.*`) in both VOD renderings and the live layout: played around a filled
/// break's ads, never as ads — no beacon, no routed segment, no signaling, not in the ad list.
@Suite struct BumperTests {
    let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")

    /// A 2 s start bumper (one segment) and a 4 s end bumper (two segments).
    static let start = Bumper(
        position: .start, creative: TitleFixture.creative("in", segments: 1, duration: 2),
        configuredURL: "https://cdn.example/in.m3u8")
    static let end = Bumper(
        position: .end, creative: TitleFixture.creative("out", segments: 2, duration: 2),
        configuredURL: "https://cdn.example/out.m3u8")

    /// The interstitial renderer tests' plan (pre-roll a, mid-roll b + c at 30 s, an unfilled
    /// mid-roll at 42 s, post-roll d) with both bumpers on the 30 s mid-roll and the unfilled one.
    var plan: BreakPlan {
        var plan = InterstitialRendererTests().plan
        plan.breaks[1].bumpers = [Self.start, Self.end]
        plan.breaks[2].bumpers = [Self.start, Self.end]
        return plan
    }

    @Test func theStitchedBreakPlaysStartBumperAdsEndBumperAndOnlyTheAdsAreRouted() throws {
        let stitched = VODStitcher.stitch(TitleFixture.title(), plan: plan, mode: .server, urls: urls)
        let media = try #require(stitched.media[RenditionKey(.variant, 0)])
        let uris = media.segments.map(\.uri)
        // The pre-roll (3 segments of a), content up to 30 s (5 segments), then the mid-roll.
        let mid = Array(uris[8..<17])
        #expect(mid[0] == "https://ads.example/in/low/0.ts", "the start bumper, straight from its host: \(mid)")
        #expect(mid[1...6].allSatisfy { $0.hasPrefix("https://seam.example/v1/sessions/S1/ad/1/") }, "\(mid)")
        #expect(mid[1] == "https://seam.example/v1/sessions/S1/ad/1/0/v0/0.ts", "ad b keeps its number 0")
        #expect(mid[3] == "https://seam.example/v1/sessions/S1/ad/1/1/v0/0.ts", "ad c keeps its number 1")
        #expect(mid[7...8] == ["https://ads.example/out/low/0.ts", "https://ads.example/out/low/1.ts"])
        #expect(uris[17].hasPrefix("https://origin.example/360p/5"), "content resumes: \(uris[17])")
        // Each of bumper, ad, ad, bumper, content starts an encoding.
        #expect(
            media.segments[8...17].enumerated().filter { $0.element.discontinuity }.map(\.offset) == [0, 1, 3, 7, 9])
        // No ad segment address names a bumper, and the beacons are the ads' alone.
        #expect(stitched.adSegments.keys.allSatisfy { $0.ad < 2 })
        #expect(Set(stitched.beacons.keys.filter { $0.pod == 1 }.map(\.ad)) == [0, 1])

        let avail = try #require(stitched.tracking.avails.first { $0.position == "midroll" && !$0.ads.isEmpty })
        #expect(avail.startTimeSeconds == 45)
        #expect(avail.durationSeconds == 36, "2 s + 10 s + 20 s + 4 s")
        #expect(
            avail.bumpers == [
                .init(position: "start", url: "https://cdn.example/in.m3u8", startTimeSeconds: 45, durationSeconds: 2),
                .init(position: "end", url: "https://cdn.example/out.m3u8", startTimeSeconds: 77, durationSeconds: 4),
            ])
        #expect(avail.ads.map(\.adId) == ["b", "c"])
        #expect(avail.ads.map(\.startTimeSeconds) == [47, 57])
        // The unfilled break gets no bumper, and the title grows by the bumpers too.
        #expect(stitched.tracking.avails.filter { $0.bumpers != nil }.count == 1)
        #expect(stitched.tracking.durationSeconds == 60 + 15 + 30 + 15 + 6)
    }

    @Test func theAssetListFramesTheAdsWithBumpersThatCarryNoSignaling() throws {
        let title = TitleFixture.title()
        let stitched = VODStitcher.stitch(title, plan: plan, mode: .server, urls: urls)
        let assets = InterstitialRenderer.vodAssets(
            title, plan: plan, adPlaylists: stitched.adPlaylists, bumperPlaylists: stitched.bumperPlaylists,
            mode: .server, urls: urls)
        let list = try #require(assets.assetLists[InterstitialBreakID(position: .midroll(seconds: 30))])
        #expect(
            list.assets.map(\.uri)
                == [2, 0, 1, 3].map { "https://seam.example/v1/sessions/S1/adplaylist/1/\($0)/master.m3u8" })
        #expect(list.assets.map(\.duration) == [2, 10, 20, 4])
        #expect(list.assets.map { $0.signaling != nil } == [false, true, true, false])
        #expect(list.totalDuration == 36)
        // The bumper's asset lists its own segments: nothing routed, nothing to fire.
        let bumper = try #require(assets.ads[AdAssetAddress(pod: 1, ad: 3)])
        let media = try #require(bumper.media[RenditionKey(.variant, 1)])
        #expect(
            media.segments.map(\.uri) == ["https://ads.example/out/high/0.ts", "https://ads.example/out/high/1.ts"])
        // The primary's DURATION covers the bumpers.
        let primary = InterstitialRenderer.vod(
            title, plan: plan, urls: urls, policy: InterstitialPolicy(), assetLists: assets.assetLists)
        #expect(primary.breaks.first { $0.id.text == "mid-30000" }?.dateRange.duration == 36)
    }

    @Test func aSkipButtonBelongsToAnAdNeverToABumper() {
        func list(_ entries: [AssetList.Entry]) -> AssetList.SkipControl? { AssetList(entries: entries).skipControl }
        let ad = TitleFixture.ad("x", duration: 10)
        let skippable = AssetList.Entry(uri: "https://s/x", duration: 10, ad: ad, skipOffset: 5)
        let unskippable = AssetList.Entry(uri: "https://s/y", duration: 10, ad: ad)
        let bumper = AssetList.Entry.bumper(uri: "https://s/b", duration: 2)
        #expect(list([bumper, skippable, bumper]) == AssetList.SkipControl(offset: 7))
        #expect(list([bumper, unskippable, bumper]) == nil, "no skippable ad: no button over the end bumper")
        #expect(list([bumper, unskippable]) == nil)
    }

    @Test(
        arguments: [
            // (break, ads, slate, expected sources as text, played, duration)
            (30.0, [[5.0, 5.0], [10.0]], [2.0], "s0 a0.0 a0.1 a1.0 -- e0 e1", [0, 1], 30.0),
            (26.0, [[5.0, 5.0], [10.0]], nil, "s0 a0.0 a0.1 a1.0 e0 e1", [0, 1], 26.0),
            // No room for both bumpers with both ads: the start bumper alone still costs no ad.
            (23.0, [[5.0, 5.0], [10.0]], nil, "s0 a0.0 a0.1 a1.0", [0, 1], 22.0),
            // No room for any bumper without losing an ad: ads win.
            (20.0, [[5.0, 5.0], [10.0]], nil, "a0.0 a0.1 a1.0", [0, 1], 20.0),
            // No ad plays: no bumper either.
            (4.0, [[5.0, 5.0]], [2.0], "--", [], 4.0),
        ] as [(Double, [[Double]], [Double]?, String, [Int], Double)])
    func theLiveLayoutFramesTheAdsWhenTheyLoseNothing(
        _ duration: Double, _ ads: [[Double]], _ slate: [Double]?, _ expected: String, _ played: [Int],
        _ length: Double
    ) {
        let layout = LiveBreakLayout.make(
            breakDuration: duration, ads: ads, slate: slate, bumpers: [.start: [2], .end: [2, 2]])
        let text = layout.slots.map { slot -> String in
            switch slot.source {
            case .ad(let ad, let segment): return "a\(ad).\(segment)"
            case .slate: return "--"
            case .bumper(let position, let segment): return "\(position == .start ? "s" : "e")\(segment)"
            }
        }
        // Runs of slate written once.
        var compact: [String] = []
        for item in text where !(item == "--" && compact.last == "--") { compact.append(item) }
        #expect(compact.joined(separator: " ") == expected)
        #expect(layout.playedAds == played)
        #expect(layout.duration == length)
    }

    @Test func theLiveLayoutKeepsBumpersThroughTheRecordAndTrackingListsThem() throws {
        let layout = LiveBreakLayout.make(
            breakDuration: 30, ads: [[5, 5], [10]], slate: [2], bumpers: [.start: [2], .end: [2, 2]])
        let decoded = try JSONDecoder().decode(LiveBreakLayout.self, from: JSONEncoder().encode(layout))
        #expect(decoded == layout)
        #expect(layout.bumpers.map(\.position) == [.start, .end])
        #expect(layout.bumpers.map(\.start) == [0, 26])
        #expect(layout.bumpers.map(\.duration) == [2, 4])
        #expect(layout.adSeconds == 20, "bumpers are not ad time")
        let list = InterstitialRenderer.liveAssetList(
            breakNumber: 4, layout: layout,
            ads: [TitleFixture.ad("a", duration: 10), TitleFixture.ad("b", duration: 10)],
            skipOffset: { _ in nil }, urls: urls, tracking: .server)
        #expect(
            list.assets.map(\.uri)
                == [2, 0, 1, 3].map { "https://seam.example/v1/sessions/S1/adplaylist/4/\($0)/master.m3u8" })
        #expect(list.assets.map(\.duration) == [2, 10, 10, 4])
    }
}
