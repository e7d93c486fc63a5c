import Foundation
import Stitching
import Testing
import VAST
@testable import SeamServer

/// VAST `<Linear skipoffset>` reaches the plan as seconds into the ad, percentages resolved
/// against the declared duration, and is never invented: what a skip button in an asset list is
/// built from, for VOD plans and live session records alike.
@Suite struct AdSkipOffsetMappingTests {
    struct Unusable: Error {
        var selection: AdCreativeSelector.Selection
    }

    static func inline(skipoffset: String?, duration: String?) -> String {
        let skip = skipoffset.map { #" skipoffset="\#($0)""# } ?? ""
        let length = duration.map { "<Duration>\($0)</Duration>" } ?? ""
        return """
            <VAST version="4.1"><Ad id="ad-9"><InLine><AdSystem>test</AdSystem><AdTitle>Nine</AdTitle>
            <Impression>https://track.test/imp</Impression>
            <Creatives><Creative id="cr-9"><Linear\(skip)>\(length)
            <MediaFiles><MediaFile delivery="streaming" type="application/x-mpegURL" width="1280" height="720">https://ads.test/9/master.m3u8</MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
    }

    static func selected(skipoffset: String?, duration: String?) throws -> ResolvedAd {
        let document = try VASTParser().parse(inline(skipoffset: skipoffset, duration: duration))
        let ad = try #require(document.ads.first)
        let selection = AdCreativeSelector.select(ad, fallbackID: "fallback")
        guard case .usable(let resolved) = selection else { throw Unusable(selection: selection) }
        return resolved
    }

    static let cases: [(skipoffset: String?, duration: String?, seconds: Double?)] = [
        (nil, "00:00:20", nil),
        ("00:00:05", "00:00:20", 5),
        ("00:00:05.500", "00:00:20", 5.5),
        ("25%", "00:00:20", 5),
        ("100%", "00:00:20", 20),
        ("0%", "00:00:20", 0),
        // A percentage with no duration to resolve it against is not guessed (0 % is 0 whatever the duration).
        ("50%", nil, nil),
        ("0%", nil, 0),
        // A clock time needs no duration.
        ("00:00:07", nil, 7),
        // Unreadable: not skippable.
        ("soon", "00:00:20", nil),
    ]

    @Test(arguments: cases.indices)
    func skipoffsetMapsToSecondsIntoTheAd(_ index: Int) throws {
        let expected = Self.cases[index]
        let resolved = try Self.selected(skipoffset: expected.skipoffset, duration: expected.duration)
        #expect(
            resolved.skipOffset == expected.seconds,
            "skipoffset \(expected.skipoffset ?? "none"), duration \(expected.duration ?? "none")")
        #expect(resolved.planned.skipOffset == expected.seconds)
    }

    @Test func liveAdKeepsTheSkipOffsetAndOldRecordsDecodeAsUnskippable() throws {
        let resolved = try Self.selected(skipoffset: "25%", duration: "00:00:20")
        let live = LiveAd(resolved.planned, creativeURL: resolved.hlsURL, intern: StringInterner().intern)
        #expect(live.skipOffset == 5)
        let encoded = try JSONEncoder().encode(live)
        #expect(try JSONDecoder().decode(LiveAd.self, from: encoded) == live)

        // A record written before skip offsets existed has no key: it decodes, as an unskippable ad.
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["skipOffset"] as? Double == 5)
        object["skipOffset"] = nil
        let old = try JSONDecoder().decode(LiveAd.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.skipOffset == nil)
        #expect(old.adID == "ad-9" && old.creativeURL == "https://ads.test/9/master.m3u8")

        // An unskippable ad writes no key at all.
        let plain = LiveAd(
            try Self.selected(skipoffset: nil, duration: "00:00:20").planned,
            creativeURL: "https://ads.test/9/master.m3u8",
            intern: StringInterner().intern)
        let plainObject = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(plain)) as? [String: Any])
        #expect(plainObject["skipOffset"] == nil)
    }

    @Test func liveAdFeedsTheAssetListLikeAPlannedAd() throws {
        let planned = try Self.selected(skipoffset: "00:00:05", duration: "00:00:20").planned
        let live = LiveAd(planned, creativeURL: planned.creativeURL, intern: StringInterner().intern)
        let fromPlan = AssetList(
            entries: [
                AssetList.Entry(
                    uri: "https://seam.test/a.m3u8", duration: 20, ad: planned, skipOffset: planned.skipOffset)
            ],
            tracking: .client)
        let fromLive = AssetList(
            entries: [
                AssetList.Entry(uri: "https://seam.test/a.m3u8", duration: 20, ad: live, skipOffset: live.skipOffset)
            ],
            tracking: .client)
        #expect(fromLive == fromPlan)
        #expect(fromLive.skipControl == AssetList.SkipControl(offset: 5))
        #expect(fromLive.assets.first?.signaling?.payload.first?.tracking.first?.urls == ["https://track.test/imp"])
    }
}
