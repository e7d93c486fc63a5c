import HLS
import Testing

@testable import Stitching

/// `sessions.removeOriginCues` on a VOD title: the marker of each filled break (the segment its
/// pod is spliced before, and the continuation after it) leaves the stitched playlists; the
/// marker of an unfilled break stays.
@Suite struct OriginCueRemovalTests {
    /// The fixture title (ten 6 s segments per rendition) with an origin marker at 30 s (segment
    /// 5: `CUE-OUT`, 6: `CUE-OUT-CONT`, 7: `CUE-IN`) and an SCTE-35 date range at 54 s (segment
    /// 9), whose break is left unfilled.
    static func markedTitle() -> ContentSet {
        let title = TitleFixture.title()
        let renditions = title.renditions.map { rendition -> ContentSet.Rendition in
            var rendition = rendition
            rendition.playlist.segments[5].cues = [CueTag(.cueOut, value: "12")]
            rendition.playlist.segments[6].cues = [CueTag(.cueOutCont, value: "ElapsedTime=6,Duration=12")]
            rendition.playlist.segments[7].cues = [CueTag(.cueIn)]
            var range = DateRange(id: "splice-9", startDate: DateTime(secondsSince1970: 946_684_854))
            range.attributes.setEnumerated(
                "SCTE35-OUT", "0xFC302000000000000000FFF00F05000000017FFFFE000000000000000000007A3D9BBD")
            rendition.playlist.segments[9].dateRanges = [range]
            rendition.playlist.segments[0].programDateTime = DateTime(secondsSince1970: 946_684_800)
            return rendition
        }
        return ContentSet(multivariant: title.multivariant, renditions: renditions) ?? title
    }

    static let plan = BreakPlan(breaks: [
        .init(
            position: .midroll(seconds: 30),
            ads: [.init(ad: TitleFixture.ad("b", duration: 10), creative: TitleFixture.creative("b", segments: 2))]),
        .init(position: .midroll(seconds: 54), skipReason: .noFill),
    ])

    @Test func aFilledBreaksMarkerSpanLeavesEveryRenditionAnUnfilledOnesStays() throws {
        let cleaned = OriginCueRemoval.vod(Self.markedTitle(), plan: Self.plan)
        for rendition in cleaned.renditions {
            let segments = rendition.playlist.segments
            #expect(
                segments[5].cues.isEmpty && segments[6].cues.isEmpty && segments[7].cues.isEmpty,
                "\(rendition.key.path)")
            #expect(segments[9].dateRanges.map(\.id) == ["splice-9"], "the unfilled break keeps its signal")
        }
        // Stitched from the cleaned title: no cue tag anywhere, the unfilled break's range kept.
        let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")
        let stitched = VODStitcher.stitch(cleaned, plan: Self.plan, mode: .server, urls: urls)
        let text = try #require(stitched.media[RenditionKey(.variant, 0)]).serialized()
        #expect(!text.contains("#EXT-X-CUE"), "\(text)")
        #expect(text.contains(#"ID="splice-9""#))
    }

    @Test func withoutTheOptionTheMarkersStay() throws {
        let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")
        let stitched = VODStitcher.stitch(Self.markedTitle(), plan: Self.plan, mode: .server, urls: urls)
        let text = try #require(stitched.media[RenditionKey(.variant, 0)]).serialized()
        #expect(text.contains("#EXT-X-CUE-OUT:12") && text.contains("#EXT-X-CUE-IN"))
    }
}
