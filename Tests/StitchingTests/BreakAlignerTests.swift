import Testing
import HLS
@testable import Stitching

/// One content time per break for all renditions, replayed on `demux/hls3_v_a_s`: video cut
/// at GOPs of 2 to 10.6 s, AAC audio at ~6 s (6.059, 5.995, 6.016 s...), WebVTT at 6 s.
@Suite struct BreakAlignerTests {
    static func renditions() throws -> [MediaPlaylist] {
        try ["index_0_v.m3u8", "index_1_v.m3u8", "index_audio.m3u8", "index_sub.m3u8"].map {
            try SpliceVectors.media("demux/hls3_v_a_s/" + $0)
        }
    }

    /// Today's rule: each rendition's own boundary nearest the cue point.
    static func perRendition(_ cue: Double, _ renditions: [MediaPlaylist]) -> AlignedBreak {
        let indices = renditions.map { PodPlacement.segmentIndex(forCuePoint: cue, in: $0) }
        return AlignedBreak(
            segmentIndices: indices,
            contentTimes: zip(indices, renditions).map { PodPlacement.contentTime(atSegment: $0, in: $1) })
    }

    @Test(
        "a break at 300 s splices video, audio and subtitles within one audio segment of each other, closer than each rendition on its own"
    )
    func breakAt300() throws {
        let renditions = try Self.renditions()
        let aligned = BreakAligner.align(cuePoint: 300, renditions: renditions)
        let before = Self.perRendition(300, renditions)

        #expect(aligned.segmentIndices.count == 4)
        #expect(aligned.segmentIndices[0] == aligned.segmentIndices[1], "the two video variants share their boundaries")
        // Every splice point is where that rendition's segment starts.
        for (index, rendition) in zip(aligned.segmentIndices, renditions).map({ $0 }) {
            #expect(index > 0 && index < rendition.segments.count)
        }
        for (time, (index, rendition)) in zip(aligned.contentTimes, zip(aligned.segmentIndices, renditions)) {
            #expect(abs(time - PodPlacement.contentTime(atSegment: index, in: rendition)) < 1e-9)
        }
        let audio = renditions[2]
        let audioSegment = try #require(audio.segments[safe: aligned.segmentIndices[2]]).duration
        #expect(aligned.worstOffset <= audioSegment)
        #expect(aligned.worstOffset <= before.worstOffset)
        #expect(
            abs(aligned.worstOffset - ((aligned.contentTimes.max() ?? 0) - (aligned.contentTimes.min() ?? 0))) < 1e-9)

        // The numbers: video 297.36 | 307.36 around the cue; audio ends a segment at 306.061,
        // subtitles at 306. Each on its own: 297.36, 300.066, 300 (2.706 s apart); together at
        // video 307.36: 1.36 s apart.
        #expect(abs(before.worstOffset - 2.706) < 0.001)
        #expect(abs(aligned.referenceTime - 307.36) < 0.001)
        #expect(abs(aligned.contentTimes[2] - 306.061) < 0.001)
        #expect(abs(aligned.contentTimes[3] - 306) < 0.001)
        #expect(abs(aligned.worstOffset - 1.36) < 0.001)
        // The break moved no more than one video segment from the cue.
        let videoSegment = try #require(renditions[0].segments[safe: aligned.segmentIndices[0] - 1]).duration
        #expect(abs(aligned.referenceTime - 300) <= videoSegment)
    }

    @Test(
        "at every cue point of the title the spread is at most the per-rendition rule's and the break stays within a video segment"
    )
    func everyCuePoint() throws {
        let renditions = try Self.renditions()
        let video = renditions[0]
        var improved = 0
        for cue in stride(from: 3.0, through: 430, by: 1.7) {
            let aligned = BreakAligner.align(cuePoint: cue, renditions: renditions)
            let before = Self.perRendition(cue, renditions)
            #expect(aligned.worstOffset <= before.worstOffset + 1e-9, "cue \(cue)")
            #expect(aligned.segmentIndices[0] == aligned.segmentIndices[1], "cue \(cue)")
            let nearest = PodPlacement.segmentIndex(forCuePoint: cue, in: video)
            #expect(abs(aligned.segmentIndices[0] - nearest) <= 1, "cue \(cue)")
            // Longest AAC segment of the vector: 6.059 s.
            #expect(aligned.worstOffset <= 6.059 + 1e-9, "cue \(cue)")
            if aligned.worstOffset < before.worstOffset - 0.001 { improved += 1 }
        }
        #expect(improved > 0)
    }

    @Test("pre- and post-rolls splice at the start and the end of every rendition")
    func prerollAndPostroll() throws {
        let renditions = try Self.renditions()
        let preroll = BreakAligner.align(cuePoint: 0, renditions: renditions)
        #expect(preroll.segmentIndices == [0, 0, 0, 0])
        #expect(preroll.worstOffset == 0)
        let postroll = BreakAligner.align(cuePoint: -1, renditions: renditions)
        #expect(postroll.segmentIndices == [54, 54, 73, 73])
        // The renditions end at different times (433.48 s video, 438.077 s audio): the offset says so.
        #expect(abs(postroll.worstOffset - 4.597) < 0.001)
    }

    @Test("renditions with the same boundaries splice at the same segment, the one PodPlacement picks")
    func sameBoundaries() throws {
        let variants = try ["index_0_v.m3u8", "index_1_v.m3u8"].map { try SpliceVectors.media("demux/hls1/" + $0) }
        let audio = try ["index_mono-sv_a.m3u8", "index_stereo-en_a.m3u8"].map {
            try SpliceVectors.media("demux/hls1/" + $0)
        }
        for cue in [10.0, 33.3, 50, 80] {
            let aligned = BreakAligner.align(cuePoint: cue, renditions: variants + audio)
            let expected = PodPlacement.segmentIndex(forCuePoint: cue, in: variants[0])
            #expect(aligned.segmentIndices == [expected, expected, expected, expected], "cue \(cue)")
            #expect(aligned.worstOffset == 0)
        }
    }

    @Test("no renditions, or an empty one, do not trap")
    func degenerate() {
        #expect(BreakAligner.align(cuePoint: 30, renditions: []).segmentIndices.isEmpty)
        let empty = MediaPlaylist(targetDuration: 6, playlistType: .vod, endList: true)
        #expect(BreakAligner.align(cuePoint: 30, renditions: [empty, empty]).segmentIndices == [0, 0])
        #expect(BreakAligner.align(cuePoint: .nan, renditions: [empty]).segmentIndices == [0])
    }
}
