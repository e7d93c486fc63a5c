import Foundation
import Testing
@testable import Stitching

/// The asset list a player fetches for an interstitial break: exact JSON, `SKIP-CONTROL` only
/// where no unskippable ad can be skipped, SVTA2053-2 signaling per asset, and durations that
/// read the same on every build.
@Suite struct AssetListTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A pre-roll of one 15 s ad and a mid-roll at 30 s of a 10 s and a 20 s ad, each cut in 5 s segments.
    static var plan: BreakPlan {
        BreakPlan(breaks: [
            .init(
                position: .preroll,
                ads: [.init(ad: TitleFixture.ad("a", duration: 15), creative: TitleFixture.creative("a", segments: 3))]),
            .init(
                position: .midroll(seconds: 30),
                ads: [
                    .init(ad: TitleFixture.ad("b", duration: 10), creative: TitleFixture.creative("b", segments: 2)),
                    .init(ad: TitleFixture.ad("c", duration: 20), creative: TitleFixture.creative("c", segments: 4)),
                ]),
        ])
    }

    static func json(_ list: AssetList) throws -> String {
        String(decoding: try encoder.encode(list), as: UTF8.self)
    }

    static func ad(
        _ name: String, creativeID: String? = nil, universalAdIDs: [String] = [], clickThrough: String? = nil,
        skipOffset: Double? = nil
    ) -> PlannedAd {
        var ad = TitleFixture.ad(name, duration: 10)
        ad.creativeID = creativeID
        ad.universalAdIDs = universalAdIDs
        ad.clickThrough = clickThrough
        ad.skipOffset = skipOffset
        return ad
    }

    static func entry(_ name: String, duration: Double, skipOffset: Double?) -> AssetList.Entry {
        AssetList.Entry(
            uri: "https://seam.example/v1/sessions/S1/adplaylist/0/\(name).m3u8", duration: duration,
            ad: ad(name, skipOffset: skipOffset), skipOffset: skipOffset)
    }

    @Test func unskippableThenSkippableAdHasExactJSONWithSkipControlAndSignaling() throws {
        let list = AssetList(
            entries: [
                AssetList.Entry(
                    uri: "https://seam.example/a.m3u8", duration: 15,
                    ad: Self.ad("a", creativeID: "cr-a", universalAdIDs: ["ad-id.org:ABCD0001000H"])),
                AssetList.Entry(
                    uri: "https://seam.example/b.m3u8", duration: 10,
                    ad: Self.ad("b", clickThrough: "https://brand.example/b", skipOffset: 5), skipOffset: 5),
            ], tracking: .hybrid)
        // Hybrid: Seam fires the impressions itself, so the player is given every other event and no impression.
        let a =
            #"{"DURATION":15,"URI":"https://seam.example/a.m3u8","X-AD-CREATIVE-SIGNALING":{"payload":[{"duration":15,"#
            + #""identifiers":[{"scheme":"urn:smpte:ul:060E2B34.01040101.01200900.00000000","value":"ABCD0001000H"},"#
            + #"{"scheme":"urn:seam:vast:creative-id","value":"cr-a"},{"scheme":"urn:seam:vast:ad-id","value":"a"}],"start":0,"#
            + #""tracking":[{"offset":0,"type":"start","urls":["https://track.example/a/start"]},"#
            + #"{"offset":3.75,"type":"firstQuartile","urls":["https://track.example/a/q1"]},"#
            + #"{"offset":7.5,"type":"midpoint","urls":["https://track.example/a/mid"]},"#
            + #"{"offset":11.25,"type":"thirdQuartile","urls":["https://track.example/a/q3"]},"#
            + #"{"offset":15,"type":"complete","urls":["https://track.example/a/done"]}],"type":"linear"}],"type":"slot","version":2}}"#
        let b =
            #"{"DURATION":10,"URI":"https://seam.example/b.m3u8","X-AD-CREATIVE-SIGNALING":{"payload":[{"#
            + #""clickThrough":"https://brand.example/b","duration":10,"identifiers":[{"scheme":"urn:seam:vast:ad-id","value":"b"}],"#
            + #""skipOffset":5,"start":15,"#
            + #""tracking":[{"offset":0,"type":"start","urls":["https://track.example/b/start"]},"#
            + #"{"offset":2.5,"type":"firstQuartile","urls":["https://track.example/b/q1"]},"#
            + #"{"offset":5,"type":"midpoint","urls":["https://track.example/b/mid"]},"#
            + #"{"offset":7.5,"type":"thirdQuartile","urls":["https://track.example/b/q3"]},"#
            + #"{"offset":10,"type":"complete","urls":["https://track.example/b/done"]}],"type":"linear"}],"type":"slot","version":2}}"#
        #expect(try Self.json(list) == #"{"ASSETS":["# + a + "," + b + #"],"SKIP-CONTROL":{"OFFSET":20}}"#)
        // And it reads back as the same list.
        #expect(try JSONDecoder().decode(AssetList.self, from: Self.encoder.encode(list)) == list)
    }

    @Test func withoutATrackingModeTheListCarriesNoSignaling() throws {
        let list = AssetList(entries: [Self.entry("x", duration: 6, skipOffset: 2)])
        #expect(
            try Self.json(list)
                == #"{"ASSETS":[{"DURATION":6,"URI":"https://seam.example/v1/sessions/S1/adplaylist/0/x.m3u8"}],"SKIP-CONTROL":{"OFFSET":2}}"#
        )
    }

    /// Durations and skip offsets of a pod, in play order, and the `SKIP-CONTROL` `OFFSET` the
    /// list gets (nil: none).
    static let skipRules: [(name: String, ads: [(Double, Double?)], offset: Double?)] = [
        ("one unskippable ad", [(15, nil)], nil),
        ("one skippable ad", [(15, 5)], 5),
        ("one ad skippable from its first frame", [(15, 0)], 0),
        ("a skip offset at or past the ad's end is no skip", [(15, 15)], nil),
        ("a negative skip offset is no skip", [(15, -1)], nil),
        ("only the later ad skippable", [(15, nil), (10, 5)], 20),
        ("only the last of three skippable", [(15, nil), (10, nil), (12, 6)], 31),
        ("the first ad skippable, the last not", [(15, 5), (10, nil)], nil),
        ("a skippable ad before an unskippable one in the middle", [(15, 5), (10, nil), (10, 2)], 27),
        ("every ad skippable, the later ones at once", [(15, 5), (10, 0), (10, 0)], 5),
        ("every ad skippable, the last only after a while", [(15, 5), (10, 3)], 18),
        ("an unskippable ad stops the walk back", [(15, nil), (10, 0), (10, 0)], 15),
        ("float durations sum to the millisecond", [(10.0001, nil), (0.1, nil), (0.2, 0.1)], 10.2),
    ]

    @Test(arguments: skipRules.indices)
    func skipControlOnlyWhereNoUnskippableAdCanBeSkipped(_ index: Int) {
        let rule = Self.skipRules[index]
        let list = AssetList(
            entries: rule.ads.enumerated().map { number, ad in
                Self.entry("\(number)", duration: ad.0, skipOffset: ad.1)
            })
        #expect(list.skipControl == rule.offset.map { AssetList.SkipControl(offset: $0) }, "\(rule.name)")
        // The button is never left up for a set time, and never relabelled.
        #expect(list.skipControl?.duration == nil && list.skipControl?.labelID == nil)
    }

    @Test func signalingIdentifiersTrackingAndPositionsPerMode() throws {
        let ad = Self.ad(
            "p", creativeID: "cr-p",
            universalAdIDs: ["AD-ID.org:XYZ0002000H", "clearcast.co.uk:CC/1", "https://reg.example:id:7", "broken"],
            clickThrough: "https://brand.example/p", skipOffset: 4)
        let entries = [
            AssetList.Entry(uri: "https://seam.example/0.m3u8", duration: 12.5, ad: Self.ad("o")),
            AssetList.Entry(uri: "https://seam.example/1.m3u8", duration: 20, ad: ad, skipOffset: 4),
        ]
        let client = try #require(AssetList(entries: entries, tracking: .client).assets[1].signaling)
        #expect(client.version == 2 && client.type == .slot && client.payload.count == 1)
        let slot = try #require(client.payload.first)
        #expect(slot.type == .linear)
        #expect(slot.start == 12.5 && slot.duration == 20 && slot.skipOffset == 4)
        #expect(slot.clickThrough == "https://brand.example/p")
        #expect(
            slot.identifiers == [
                .init(scheme: AdCreativeSignaling.Scheme.smpteAdID, value: "XYZ0002000H"),
                .init(scheme: "clearcast.co.uk", value: "CC/1"),
                .init(scheme: "https://reg.example", value: "id:7"),
                .init(scheme: AdCreativeSignaling.Scheme.vastCreativeID, value: "cr-p"),
                .init(scheme: AdCreativeSignaling.Scheme.vastAdID, value: "p"),
            ])
        // Client tracking: the player fires everything, each event at its offset into the ad.
        #expect(
            slot.tracking.map(\.type) == [
                "impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
            ])
        #expect(slot.tracking.map(\.offset) == [0, 0, 5, 10, 15, 20])
        #expect(slot.tracking.first?.urls == ["https://track.example/p/imp"])
        // Server tracking: Seam fires every beacon, so the player is given none (no double count).
        let server = try #require(AssetList(entries: entries, tracking: .server).assets[1].signaling?.payload.first)
        #expect(server.tracking.isEmpty)
        #expect(server.identifiers == slot.identifiers && server.start == 12.5)

        // The keys, exactly as written on the wire; optional members left out when absent.
        let data = try Self.encoder.encode(AssetList(entries: entries, tracking: .client))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let assets = try #require(object["ASSETS"] as? [[String: Any]])
        #expect(Set(assets[0].keys) == ["URI", "DURATION", "X-AD-CREATIVE-SIGNALING"])
        let envelope = try #require(assets[1]["X-AD-CREATIVE-SIGNALING"] as? [String: Any])
        #expect(Set(envelope.keys) == ["version", "type", "payload"])
        let written = try #require((envelope["payload"] as? [[String: Any]])?.first)
        #expect(
            Set(written.keys) == ["type", "start", "duration", "identifiers", "tracking", "skipOffset", "clickThrough"])
        let plain = try #require(
            ((assets[0]["X-AD-CREATIVE-SIGNALING"] as? [String: Any])?["payload"] as? [[String: Any]])?.first)
        #expect(Set(plain.keys) == ["type", "start", "duration", "identifiers", "tracking"])
        let event = try #require((written["tracking"] as? [[String: Any]])?.first)
        #expect(Set(event.keys) == ["type", "offset", "urls"])
        let identifier = try #require((written["identifiers"] as? [[String: Any]])?.first)
        #expect(Set(identifier.keys) == ["scheme", "value"])
    }

    @Test func aSkipOffsetPastTheAssetIsNotSignalledEither() throws {
        let list = AssetList(entries: [Self.entry("late", duration: 8, skipOffset: 9)], tracking: .server)
        #expect(list.skipControl == nil)
        #expect(list.assets[0].signaling?.payload.first?.skipOffset == nil)
    }

    @Test func breakInitialiserTakesSkipOffsetsFromThePlan() throws {
        var plan = Self.plan
        let mid = 1
        plan.breaks[mid].ads[1].ad.skipOffset = 5
        let url: (Int, Int) -> String = { pod, ad in "https://seam.example/v1/sessions/S1/adplaylist/\(pod)/\(ad).m3u8"
        }
        let list = AssetList(break: plan.breaks[mid], pod: 1, adPlaylistURL: url)
        #expect(list.assets.map(\.duration) == [10, 20])
        #expect(list.skipControl == AssetList.SkipControl(offset: 15))
        #expect(list.assets.allSatisfy { $0.signaling == nil })
        let signalled = AssetList(break: plan.breaks[mid], pod: 1, adPlaylistURL: url, tracking: .client)
        #expect(signalled.assets.map { $0.signaling?.payload.first?.start } == [0, 10])
        #expect(signalled.assets.map { $0.signaling?.payload.first?.skipOffset } == [nil, 5])
    }

    @Test func durationIsWrittenToTheMillisecondAndIdenticalOnEveryBuild() throws {
        // Segment sums carry float noise (4.004 + 4.004 + 2.002 = 10.009999…); every build writes 10.01.
        let noisy = [4.004, 4.004, 2.002].reduce(0, +)
        #expect(noisy != 10.01)
        let first = AssetList(
            entries: [
                Self.entry("n", duration: noisy, skipOffset: nil),
                Self.entry("m", duration: 0.1 + 0.2, skipOffset: nil),
            ],
            tracking: .client)
        let second = AssetList(
            entries: [
                Self.entry("n", duration: 10.01, skipOffset: nil), Self.entry("m", duration: 0.3, skipOffset: nil),
            ],
            tracking: .client)
        #expect(first.assets.map(\.duration) == [10.01, 0.3])
        #expect(try Self.json(first) == Self.json(second))
        #expect(first.totalDuration == 10.31)
        #expect(first.assets[1].signaling?.payload.first?.start == 10.01)
        // The break initialiser builds the same bytes on every call.
        let plan = Self.plan
        let url: (Int, Int) -> String = { pod, ad in "https://seam.example/\(pod)/\(ad).m3u8" }
        let builds = try (0..<3).map { _ in
            try Self.json(AssetList(break: plan.breaks[1], pod: 1, adPlaylistURL: url, tracking: .hybrid))
        }
        #expect(Set(builds).count == 1)
    }
}
