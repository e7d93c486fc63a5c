import HLS
import Testing
@testable import Stitching

@Suite struct VODMarkersTests {
    @Test func markedSegmentsBecomeBreaksWithTheirPlannedDurations() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-CUE-OUT:15
            #EXTINF:6,
            s0.ts
            #EXTINF:6,
            s1.ts
            #EXT-X-CUE-OUT
            #EXTINF:6,
            s2.ts
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:18Z
            #EXT-X-DATERANGE:ID="b1",START-DATE="2026-01-01T00:00:18Z",PLANNED-DURATION=30,SCTE35-OUT=0xFC002F0000000000FF000014056FFFFFF000E011622DCAFF000052636200000000000A0008029896F50000008700000000
            #EXTINF:6,
            s3.ts
            #EXTINF:6,
            s4.ts
            #EXT-X-ENDLIST

            """
        let playlist = try MediaPlaylist(parsing: text)
        let breaks = VODMarkers.breaks(in: playlist)
        #expect(
            breaks == [
                VODMarkers.Marker(position: .preroll, seconds: 15),
                VODMarkers.Marker(position: .midroll(seconds: 12), seconds: nil),
                VODMarkers.Marker(position: .midroll(seconds: 18), seconds: 30),
            ])
    }

    @Test func cuePointsNameTheirPosition() {
        #expect(BreakPosition(cuePoint: 0) == .preroll)
        #expect(BreakPosition(cuePoint: -1) == .postroll)
        #expect(BreakPosition(cuePoint: 42.5) == .midroll(seconds: 42.5))
        #expect([BreakPosition.preroll, .midroll(seconds: 3), .postroll].map(\.cuePoint) == [0, 3, -1])
    }
}

@Suite struct PodLimitsTests {
    let ads = (0..<5).map { PlannedAd(id: "ad\($0)", duration: 10, creativeURL: "https://ads.example/\($0).m3u8") }

    @Test func theAdCountCapKeepsTheFirstAds() {
        let (kept, skipped) = PodLimits(maxAds: 2, maxSeconds: 120).apply(to: ads, breakSeconds: nil)
        #expect(kept.map(\.id) == ["ad0", "ad1"])
        #expect(skipped.map(\.adID) == ["ad2", "ad3", "ad4"])
        #expect(skipped.allSatisfy { $0.reason.contains("ads.maxAdsPerPod") })
    }

    @Test func aBreakShorterThanThePodTrimsAtAnAdBoundary() {
        let (kept, skipped) = PodLimits(maxAds: 10, maxSeconds: 120).apply(to: ads, breakSeconds: 30.4)
        #expect(kept.map(\.id) == ["ad0", "ad1", "ad2"])
        #expect(skipped.first?.reason == "does not fit: the pod would run 40 s, longer than its 30.4 s break")
        #expect(skipped.dropFirst().allSatisfy { $0.reason == "left out after an ad that did not fit the pod" })
    }

    @Test func maxPodSecondsAppliesWhenTheBreakSaysNothing() {
        let (kept, skipped) = PodLimits(maxAds: 10, maxSeconds: 25).apply(to: ads, breakSeconds: 0)
        #expect(kept.count == 2)
        #expect(skipped.first?.reason.contains("ads.maxPodSeconds (25 s)") == true)
    }
}
