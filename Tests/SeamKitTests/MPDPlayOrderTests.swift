import DASH
import Foundation
import Testing

@testable import SeamWatch

/// What `seam watch`'s simulated player plays of an MPD (`MPDPlayOrder`): each period's first
/// video representation in turn, every address absolute; in a dynamic MPD only what is out on
/// the wall clock, dated on it. No network: the MPDs are written here.
@Suite struct MPDPlayOrderTests {
    static let url = "https://seam.example/v1/sessions/s1/manifest.mpd"
    /// 2026-01-01T00:00:00Z.
    static let epoch = 1_767_225_600.0

    /// A live session's MPD: content from 600 s (6 s segments by the clock, numbered from 101),
    /// then a 10 s ad at 618 s (two 5 s segments listed), the MPD live or ended.
    static func live(ended: Bool = false) throws -> MPD {
        let end = ended ? #"mediaPresentationDuration="PT628S""# : #"minimumUpdatePeriod="PT6S""#
        return try MPD(
            parsing: """
                <?xml version="1.0" encoding="UTF-8"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" \(end) minBufferTime="PT2S">
                  <Period id="seam-content-600000" start="PT600S" duration="PT18S">
                    <AdaptationSet contentType="audio" mimeType="audio/mp4">
                      <Representation id="a" bandwidth="128000"><SegmentTemplate timescale="1" duration="6" startNumber="101" presentationTimeOffset="600" media="https://cdn.example/a/$Number$.m4s"/></Representation>
                    </AdaptationSet>
                    <AdaptationSet contentType="video" mimeType="video/mp4">
                      <Representation id="720" bandwidth="2000000"><SegmentTemplate timescale="1" duration="6" startNumber="101" presentationTimeOffset="600" media="https://cdn.example/v-$RepresentationID$/$Number$.m4s"/></Representation>
                      <Representation id="360" bandwidth="600000"><SegmentTemplate timescale="1" duration="6" startNumber="101" presentationTimeOffset="600" media="https://cdn.example/v-$RepresentationID$/$Number$.m4s"/></Representation>
                    </AdaptationSet>
                  </Period>
                  <Period id="seam-ad-0-0" start="PT618S" duration="PT10S">
                    <BaseURL>https://seam.example/v1/sessions/s1/ad/0/0/</BaseURL>
                    <AdaptationSet contentType="video" mimeType="video/mp4">
                      <Representation id="v0" bandwidth="1000000"><SegmentTemplate timescale="1000" startNumber="0" media="v0/$Number$.m4s"><SegmentTimeline><S t="0" d="5000" r="1"/></SegmentTimeline></SegmentTemplate></Representation>
                    </AdaptationSet>
                  </Period>
                </MPD>
                """)
    }

    @Test func aLiveMPDListsWhatIsOutOnTheClockDatedOnIt() throws {
        // 615 s: content segments 101 and 102 are complete, 103 (612-618 s) is not.
        let early = MPDPlayOrder(try Self.live(), url: Self.url, now: Self.epoch + 615)
        #expect(early.isLive)
        #expect(early.reloadInterval == 6)
        #expect(early.entries.map(\.url) == ["https://cdn.example/v-720/101.m4s", "https://cdn.example/v-720/102.m4s"])
        #expect(early.entries.map(\.date) == [Self.epoch + 600, Self.epoch + 606])
        // 624 s: the content period whole, and the ad's first segment (618-623 s).
        let later = MPDPlayOrder(try Self.live(), url: Self.url, now: Self.epoch + 624)
        #expect(
            later.entries.map(\.url) == [
                "https://cdn.example/v-720/101.m4s", "https://cdn.example/v-720/102.m4s",
                "https://cdn.example/v-720/103.m4s", "https://seam.example/v1/sessions/s1/ad/0/0/v0/0.m4s",
            ])
        #expect(later.entries.map(\.duration) == [6, 6, 6, 5])
        // Keys grow through the MPD and stay on a reload: a reload's new segments have larger ones.
        #expect(later.entries.map(\.key) == [600_000, 606_000, 612_000, 618_000])
        #expect(Array(later.entries.prefix(2)) == early.entries)
    }

    @Test func anEndedLiveMPDIsNotLiveAndAStaticOneIsUndated() throws {
        let ended = MPDPlayOrder(try Self.live(ended: true), url: Self.url, now: Self.epoch + 700)
        #expect(!ended.isLive)
        #expect(ended.entries.count == 5)
        #expect(ended.entries.last?.url == "https://seam.example/v1/sessions/s1/ad/0/0/v0/1.m4s")

        let text = try Self.live(ended: true).serialized()
            .replacingOccurrences(of: #"type="dynamic""#, with: #"type="static""#)
        let vod = MPDPlayOrder(try MPD(parsing: text), url: Self.url, now: 0)
        #expect(!vod.isLive)
        #expect(vod.entries.count == 5)
        #expect(vod.entries.allSatisfy { $0.date == nil })
    }
}
