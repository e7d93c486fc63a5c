import Testing
@testable import HLS

// Rules across the renditions of one title: what `seam validate master.m3u8` checks after
// fetching every media playlist the multivariant playlist lists.

/// A media playlist of `count` segments of `segmentDuration`, with a discontinuity before
/// each segment index in `discontinuities`.
private func rendition(
    _ name: String, target: Int = 6, segmentDuration: Double = 6, count: Int = 8,
    mediaSequence: Int = 0, discontinuitySequence: Int = 0, discontinuities: Set<Int> = [], vod: Bool = true
) -> MediaPlaylist {
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n"
    text += "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)\n"
    if discontinuitySequence != 0 { text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)\n" }
    if vod { text += "#EXT-X-PLAYLIST-TYPE:VOD\n" }
    for i in 0..<count {
        if discontinuities.contains(i) { text += "#EXT-X-DISCONTINUITY\n" }
        text += "#EXTINF:\(segmentDuration),\n\(name)/\(mediaSequence + i).ts\n"
    }
    if vod { text += "#EXT-X-ENDLIST\n" }
    let report = PlaylistValidator.validate(text, source: name)
    precondition(report.diagnostics.isEmpty, "test rendition is not clean: \(report.diagnostics)")
    guard case .media(let playlist)? = report.playlist else { preconditionFailure("not a media playlist") }
    return playlist
}

@Suite("Cross-rendition checks")
struct RenditionSetValidatorTests {
    @Test("renditions that agree: no findings")
    func agreeing() {
        let findings = RenditionSetValidator.check([
            ("360p.m3u8", rendition("360p", discontinuities: [3, 5])),
            ("720p.m3u8", rendition("720p", segmentDuration: 5.5, discontinuities: [3, 5])),
            ("1080p.m3u8", rendition("1080p", discontinuities: [3, 5])),
        ])
        #expect(findings.isEmpty, "\(findings.map(\.description))")
        // Live renditions one segment apart (fetched at slightly different moments) agree too.
        let live = RenditionSetValidator.check([
            (
                "360p.m3u8",
                rendition(
                    "360p", count: 5, mediaSequence: 100, discontinuitySequence: 3, discontinuities: [2], vod: false)
            ),
            (
                "720p.m3u8",
                rendition(
                    "720p", count: 5, mediaSequence: 101, discontinuitySequence: 3, discontinuities: [1], vod: false)
            ),
        ])
        #expect(live.isEmpty, "\(live.map(\.description))")
        #expect(RenditionSetValidator.check([]).isEmpty)
        #expect(RenditionSetValidator.check([("only.m3u8", rendition("only", discontinuities: [1]))]).isEmpty)
    }

    @Test("rendition-target-duration-mismatch")
    func targetDurationsDiffer() throws {
        let findings = RenditionSetValidator.check([
            ("360p.m3u8", rendition("360p", target: 6)),
            ("720p.m3u8", rendition("720p", target: 6)),
            ("1080p.m3u8", rendition("1080p", target: 10)),
        ])
        #expect(findings.map(\.rule) == [.renditionTargetDurationMismatch])
        let finding = try #require(findings.first)
        #expect(finding.severity == .error)
        #expect(finding.source == "1080p.m3u8")
        #expect(finding.message.contains("#EXT-X-TARGETDURATION:10"))
        #expect(finding.message.contains("360p.m3u8 (6)"))
    }

    @Test("rendition-discontinuity-mismatch: VOD renditions with different discontinuity counts")
    func discontinuityCountsDiffer() throws {
        let findings = RenditionSetValidator.check([
            ("360p.m3u8", rendition("360p", discontinuities: [3, 5])),
            ("720p.m3u8", rendition("720p", discontinuities: [3])),
        ])
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0.rule == .renditionDiscontinuityMismatch && $0.severity == .error })
        #expect(findings.allSatisfy { $0.source == "720p.m3u8" })
        #expect(
            findings.contains { $0.message.contains("1 discontinuities, but 360p.m3u8 has 2") },
            "\(findings.map(\.description))")
    }

    @Test("rendition-discontinuity-mismatch: the same count, but at different segments")
    func discontinuitiesMisplaced() throws {
        let findings = RenditionSetValidator.check([
            ("360p.m3u8", rendition("360p", discontinuities: [3, 5])),
            ("720p.m3u8", rendition("720p", discontinuities: [3, 6])),
        ])
        #expect(findings.map(\.rule) == [.renditionDiscontinuityMismatch])
        let finding = try #require(findings.first)
        #expect(finding.source == "720p.m3u8")
        #expect(finding.message.contains("segment 5 is in discontinuity 1"))
        #expect(finding.message.contains("in 360p.m3u8 it is in discontinuity 2"))
    }

    @Test("rendition-discontinuity-mismatch: live renditions numbering the same media sequence differently")
    func liveDiscontinuityNumbersDiffer() throws {
        // Same window, same tags, but one rendition's DISCONTINUITY-SEQUENCE is one ahead.
        let findings = RenditionSetValidator.check([
            (
                "360p.m3u8",
                rendition(
                    "360p", count: 5, mediaSequence: 100, discontinuitySequence: 3, discontinuities: [2], vod: false)
            ),
            (
                "720p.m3u8",
                rendition(
                    "720p", count: 5, mediaSequence: 100, discontinuitySequence: 4, discontinuities: [2], vod: false)
            ),
        ])
        #expect(findings.map(\.rule) == [.renditionDiscontinuityMismatch])
        let finding = try #require(findings.first)
        #expect(finding.source == "720p.m3u8")
        #expect(finding.message.contains("segment 100 is in discontinuity 4"))
        #expect(finding.message.contains("360p.m3u8 it is in discontinuity 3"))

        // Windows one segment apart: the later one removed no discontinuity, yet counted one.
        let offset = RenditionSetValidator.check([
            (
                "360p.m3u8",
                rendition(
                    "360p", count: 5, mediaSequence: 100, discontinuitySequence: 3, discontinuities: [2], vod: false)
            ),
            (
                "720p.m3u8",
                rendition(
                    "720p", count: 5, mediaSequence: 101, discontinuitySequence: 4, discontinuities: [1], vod: false)
            ),
        ])
        #expect(offset.map(\.rule) == [.renditionDiscontinuityMismatch])
        #expect(offset.first?.message.contains("segment 101") == true)

        // Live windows are not compared by total count: they may list different stretches.
        let counts = RenditionSetValidator.check([
            (
                "360p.m3u8",
                rendition(
                    "360p", count: 5, mediaSequence: 100, discontinuitySequence: 3, discontinuities: [0, 4], vod: false)
            ),
            (
                "720p.m3u8",
                rendition(
                    "720p", count: 5, mediaSequence: 101, discontinuitySequence: 4, discontinuities: [3], vod: false)
            ),
        ])
        #expect(counts.isEmpty, "\(counts.map(\.description))")
    }

    @Test("discontinuityNumbers follows RFC 8216bis: a segment's tag counts for that segment")
    func discontinuityNumbers() {
        let playlist = rendition(
            "r", count: 4, mediaSequence: 10, discontinuitySequence: 2, discontinuities: [0, 2], vod: false)
        #expect(RenditionSetValidator.discontinuityNumbers(playlist) == [10: 3, 11: 3, 12: 4, 13: 4])
    }
}
