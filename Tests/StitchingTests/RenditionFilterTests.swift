import Testing

@testable import Stitching

/// A session's rendition filter on a variant's attributes, and a title kept to what passes.
@Suite struct RenditionFilterTests {
    static let h264 = ["avc1.64001f", "mp4a.40.2"]
    static let hevc = ["hvc1.2.4.L123.B0", "mp4a.40.2"]
    static let hevcAC3 = ["hvc1.2.4.L123.B0", "ac-3"]

    @Test(
        arguments: [
            // filter, bandwidth, height, frame rate, codecs → passes
            (RenditionFilter(maxBandwidth: 3_000_000), 3_000_000, 720, 30.0, h264, true),
            (RenditionFilter(maxBandwidth: 3_000_000), 3_000_001, 720, 30.0, h264, false),
            (RenditionFilter(maxHeight: 720), 5_000_000, 1080, 30.0, h264, false),
            (RenditionFilter(maxHeight: 720), 5_000_000, nil, 30.0, h264, true),  // no RESOLUTION: not excluded
            (RenditionFilter(maxFrameRate: 30), 1, 720, 29.97, h264, true),
            (RenditionFilter(maxFrameRate: 30), 1, 720, 50.0, h264, false),
            (RenditionFilter(codecs: ["avc"]), 1, 720, nil, h264, true),
            (RenditionFilter(codecs: ["avc"]), 1, 720, nil, hevc, false),
            (RenditionFilter(codecs: ["avc"]), 1, 720, nil, [String](), true),  // no CODECS: not excluded
            (RenditionFilter(codecs: ["hevc"]), 1, 720, nil, hevcAC3, true),  // audio not named: not filtered
            (RenditionFilter(codecs: ["hevc", "aac"]), 1, 720, nil, hevcAC3, false),
            (RenditionFilter(codecs: ["aac"]), 1, 720, nil, hevc, true),  // video not named: not filtered
        ] as [(RenditionFilter, Int, Int?, Double?, [String], Bool)])
    func admits(
        filter: RenditionFilter, bandwidth: Int, height: Int?, frameRate: Double?, codecs: [String], passes: Bool
    ) {
        #expect(filter.admits(bandwidth: bandwidth, height: height, frameRate: frameRate, codecs: codecs) == passes)
    }

    @Test func familiesOfTheCodecsPlayersSee() {
        #expect(RenditionFilter.family(of: "avc3.640028") == "avc")
        #expect(RenditionFilter.family(of: "hev1.1.6.L93.B0") == "hevc")
        #expect(RenditionFilter.family(of: "dvh1.05.06") == "dolby-vision")
        #expect(RenditionFilter.family(of: "av01.0.05M.08") == "av1")
        #expect(RenditionFilter.family(of: "ec-3") == "ec-3")
        #expect(RenditionFilter.family(of: "mp4a.40.5") == "aac")
        #expect(RenditionFilter.family(of: "wvtt") == nil)
    }

    @Test func aTitleKeepsThePassingVariantsAndEveryAlternateRendition() throws {
        let title = TitleFixture.title()
        let kept = try #require(title.keepingVariants([1]))
        #expect(kept.renditions.filter { $0.key.kind == .variant }.map(\.key.index) == [1])
        #expect(
            kept.renditions.filter { $0.key.kind != .variant }.count
                == title.renditions.filter { $0.key.kind != .variant }.count)
        #expect(kept.referenceKey == RenditionKey(.variant, 1))
        #expect(title.keepingVariants([]) == nil)
        // The session's multivariant lists only what it has, each at its own key.
        let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")
        let master = SessionMultivariant.make(kept.multivariant, urls: urls) { kept.rendition($0) != nil }
        #expect(master.variants.map(\.uri) == [urls.media(RenditionKey(.variant, 1))])
    }
}
