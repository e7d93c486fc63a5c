import Testing
import HLS
@testable import Stitching

@Suite struct VODSplicerTests {
    static func content(
        _ segments: Int, duration: Double = 6, prefix: String = "https://origin/c/", header: String = ""
    ) -> MediaPlaylist {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(Int(duration.rounded(.up)))\n#EXT-X-PLAYLIST-TYPE:VOD\n\(header)"
        for i in 0..<segments { text += "#EXTINF:\(duration),\n\(prefix)s\(i).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        return try! MediaPlaylist(parsing: text)
    }

    static func ad(_ name: String, _ durations: [Double]) -> SplicedAd {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (i, d) in durations.enumerated() { text += "#EXTINF:\(d),\nhttps://ads/\(name)/\(i).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        return SplicedAd(playlist: try! MediaPlaylist(parsing: text))
    }

    @Test func preMidAndPostRollsAreBracketedByDiscontinuities() throws {
        let content = Self.content(10)
        let pods = [
            SplicedPod(segmentIndex: 0, ads: [Self.ad("a1", [5, 5]), Self.ad("a2", [5, 5, 5])]),
            SplicedPod(segmentIndex: 5, ads: [Self.ad("a3", [5, 5, 5, 5])]),
            SplicedPod(segmentIndex: 10, ads: [Self.ad("a4", [3, 3])]),
        ]
        let stitched = VODSplicer.splice(content: content, pods: pods, targetDuration: 6)
        let uris = stitched.segments.map(\.uri)
        #expect(uris.count == 10 + 2 + 3 + 4 + 2)
        #expect(
            uris.prefix(5) == [
                "https://ads/a1/0.ts", "https://ads/a1/1.ts", "https://ads/a2/0.ts", "https://ads/a2/1.ts",
                "https://ads/a2/2.ts",
            ])
        #expect(uris[5] == "https://origin/c/s0.ts")
        #expect(
            uris[10...13] == [
                "https://ads/a3/0.ts", "https://ads/a3/1.ts", "https://ads/a3/2.ts", "https://ads/a3/3.ts",
            ])
        #expect(uris.last == "https://ads/a4/1.ts")
        // Discontinuities: between ads of a pod, back to content, and around each pod; none at the very start.
        let discontinuities = stitched.segments.enumerated().filter(\.element.discontinuity).map(\.offset)
        #expect(discontinuities == [2, 5, 10, 14, 19])
        #expect(stitched.duration == 60 + 25 + 20 + 6)
        #expect(stitched.endList)
        #expect(stitched.targetDuration == 6)
        let report = PlaylistValidator.validate(stitched.serialized())
        #expect(report.isValid, "\(report.diagnostics)")
    }

    @Test func targetDurationCoversAdSegments() {
        let content = Self.content(4, duration: 4)
        let ad = Self.ad("long", [9.6])
        let target = VODSplicer.targetDuration(covering: [content, ad.playlist])
        #expect(target == 10)
        let stitched = VODSplicer.splice(
            content: content, pods: [SplicedPod(segmentIndex: 2, ads: [ad])], targetDuration: target)
        #expect(stitched.targetDuration == 10)
        #expect(PlaylistValidator.validate(stitched.serialized()).isValid)
    }

    @Test func encryptedContentGetsKeyNoneBeforeClearAdsAndItsKeyBack() throws {
        let content = Self.content(
            4, header: "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys/k1\",IV=0x00000000000000000000000000000001\n")
        let stitched = VODSplicer.splice(
            content: content, pods: [SplicedPod(segmentIndex: 2, ads: [Self.ad("a", [5])])], targetDuration: 6)
        let ad = stitched.segments[2]
        #expect(ad.keys.map(\.method) == [EncryptionKey.Method.none])
        let back = stitched.segments[3]
        #expect(back.discontinuity)
        #expect(back.keys.first?.uri == "https://keys/k1")
        #expect(back.keys.first?.iv == "0x00000000000000000000000000000001")
        #expect(stitched.effectiveKeys()[3].first?.method == .aes128)
    }

    @Test func fmp4ContentGetsItsMapBackAfterEveryPod() throws {
        let content = try MediaPlaylist(
            parsing: """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-TARGETDURATION:4
                #EXT-X-MAP:URI="https://origin/init.mp4"
                #EXTINF:4,
                https://origin/s0.m4s
                #EXTINF:4,
                https://origin/s1.m4s
                #EXT-X-ENDLIST
                """)
        let ad = SplicedAd(
            playlist: try MediaPlaylist(
                parsing: """
                    #EXTM3U
                    #EXT-X-TARGETDURATION:4
                    #EXT-X-MAP:URI="https://ads/init.mp4"
                    #EXTINF:4,
                    https://ads/a0.m4s
                    #EXT-X-ENDLIST
                    """))
        let stitched = VODSplicer.splice(
            content: content, pods: [SplicedPod(segmentIndex: 1, ads: [ad])], targetDuration: 4)
        #expect(stitched.segments[1].map?.uri == "https://ads/init.mp4")
        #expect(stitched.segments[2].map?.uri == "https://origin/init.mp4")
        let report = PlaylistValidator.validate(stitched.serialized())
        #expect(report.isValid, "\(report.diagnostics)")
    }

    @Test func byteRangesNextToASpliceGetExplicitOffsets() throws {
        let content = try MediaPlaylist(
            parsing: """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:6
                #EXTINF:6,
                #EXT-X-BYTERANGE:1000@0
                https://origin/main.ts
                #EXTINF:6,
                #EXT-X-BYTERANGE:2000
                https://origin/main.ts
                #EXT-X-ENDLIST
                """)
        let stitched = VODSplicer.splice(
            content: content, pods: [SplicedPod(segmentIndex: 1, ads: [Self.ad("a", [5])])], targetDuration: 6)
        #expect(stitched.segments[2].byteRange == ByteRange(length: 2000, offset: 1000))
        #expect(PlaylistValidator.validate(stitched.serialized()).isValid)
    }

    @Test func adSegmentURIsCanBeRoutedThroughSeam() {
        let stitched = VODSplicer.splice(
            content: Self.content(2), pods: [SplicedPod(segmentIndex: 1, ads: [Self.ad("a", [5, 5])])],
            targetDuration: 6
        ) { id, uri in "https://seam/ad/\(id.pod)/\(id.ad)/\(id.segment)?from=\(uri.hasPrefix("https://ads/"))" }
        #expect(stitched.segments[1].uri == "https://seam/ad/0/0/0?from=true")
        #expect(stitched.segments[2].uri == "https://seam/ad/0/0/1?from=true")
        #expect(stitched.segments[3].uri == "https://origin/c/s1.ts")
    }

    /// A VMAP may list its post-roll before its mid-roll, and a pod may be empty in one rendition:
    /// each pod's ad segments still carry the pod's own index, so the ad-segment table and the
    /// beacons keyed by it (`AvailTimeline` numbers pods the same way) name the right pod.
    @Test func podsKeepTheirOwnNumberWhateverTheOrderOrTheEmptyOnes() {
        let content = Self.content(10)
        let pods = [
            SplicedPod(segmentIndex: 10, ads: [Self.ad("post", [3])]),
            SplicedPod(segmentIndex: 3, ads: []),
            SplicedPod(segmentIndex: 5, ads: [Self.ad("mid", [5])]),
        ]
        var numbers: [String: Int] = [:]
        _ = VODSplicer.splice(content: content, pods: pods, targetDuration: 6) { id, uri in
            numbers[uri] = id.pod
            return uri
        }
        #expect(numbers == ["https://ads/post/0.ts": 0, "https://ads/mid/0.ts": 2])
        let timeline = AvailTimeline(content: content, pods: pods)
        #expect(timeline.avails.first { $0.contentTime == 30 }?.pod == 2)
    }

    @Test func everyRenditionGetsTheSameDiscontinuityStructure() {
        let renditions = [Self.content(10, prefix: "https://o/low/"), Self.content(10, prefix: "https://o/high/")]
        let counts = renditions.map { content in
            VODSplicer.splice(
                content: content,
                pods: [
                    SplicedPod(segmentIndex: 0, ads: [Self.ad("x", [5])]),
                    SplicedPod(segmentIndex: 4, ads: [Self.ad("y", [5]), Self.ad("z", [5])]),
                ], targetDuration: 6)
        }
        let diagnostics = RenditionSetValidator.check(counts.enumerated().map { ("r\($0.offset)", $0.element) })
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }
}

@Suite struct PlacementAndTimelineTests {
    @Test func cuePointsSnapToTheNearestSegmentBoundary() {
        let content = VODSplicerTests.content(10)
        #expect(PodPlacement.segmentIndex(forCuePoint: 0, in: content) == 0)
        #expect(PodPlacement.segmentIndex(forCuePoint: -1, in: content) == 10)
        #expect(PodPlacement.segmentIndex(forCuePoint: 30, in: content) == 5)
        #expect(PodPlacement.segmentIndex(forCuePoint: 31, in: content) == 5)
        #expect(PodPlacement.segmentIndex(forCuePoint: 34, in: content) == 6)
        #expect(PodPlacement.segmentIndex(forCuePoint: 1, in: content) == 1)
        #expect(PodPlacement.segmentIndex(forCuePoint: 59, in: content) == 9)
        #expect(PodPlacement.segmentIndex(forCuePoint: 5000, in: content) == 9)
    }

    @Test func timelinePlacesAvailsOnTheStitchedClock() {
        let content = VODSplicerTests.content(10)
        let pods = [
            SplicedPod(
                segmentIndex: 0, ads: [VODSplicerTests.ad("a1", [5, 5]), VODSplicerTests.ad("a2", [5, 5, 5])]),
            SplicedPod(segmentIndex: 5, ads: [VODSplicerTests.ad("a3", [10, 10])]),
            SplicedPod(segmentIndex: 10, ads: [VODSplicerTests.ad("a4", [3, 3])]),
        ]
        let timeline = AvailTimeline(content: content, pods: pods)
        #expect(timeline.avails.map(\.startTime) == [0, 55, 105])
        #expect(timeline.avails.map(\.contentTime) == [0, 30, 60])
        #expect(timeline.avails.map(\.duration) == [25, 20, 6])
        #expect(timeline.avails[0].ads.map(\.startTime) == [0, 10])
        #expect(timeline.totalDuration == 111)
    }

    @Test func quartileEventsFallOnTheSegmentThatCrossesThem() {
        let ad = VODSplicerTests.ad("a", [5, 5, 5, 5]).playlist  // 20 s: quartiles at 5, 10, 15
        #expect(AdProgressEvent.due(atSegment: 0, of: ad) == [.impression, .start])
        #expect(AdProgressEvent.due(atSegment: 1, of: ad) == [.firstQuartile])
        #expect(AdProgressEvent.due(atSegment: 2, of: ad) == [.midpoint])
        #expect(AdProgressEvent.due(atSegment: 3, of: ad) == [.thirdQuartile, .complete])
        let single = VODSplicerTests.ad("b", [10]).playlist
        #expect(AdProgressEvent.due(atSegment: 0, of: single) == AdProgressEvent.allCases)
        #expect(AdProgressEvent.due(atSegment: 5, of: single).isEmpty)
    }
}

@Suite struct CreativeMatcherTests {
    static func variant(_ bandwidth: Int, _ codecs: String, _ resolution: String?) -> VariantStream {
        var v = VariantStream(uri: "v\(bandwidth).m3u8", bandwidth: bandwidth)
        v.attributes.setString("CODECS", codecs)
        if let resolution { v.attributes.setEnumerated("RESOLUTION", resolution) }
        return v
    }

    @Test func codecsFirstThenBandwidthThenResolution() {
        let ads = [
            Self.variant(500_000, "avc1.4d401e,mp4a.40.2", "640x360"),
            Self.variant(900_000, "avc1.4d401f,mp4a.40.2", "960x540"),
            Self.variant(1_700_000, "avc1.4d401f,mp4a.40.2", "1280x720"),
            Self.variant(1_600_000, "hvc1.1.6.L93.B0,mp4a.40.2", "1280x720"),
        ]
        #expect(
            CreativeMatcher.bestMatch(for: Self.variant(1_676_400, "avc1.4d401f,mp4a.40.2", "1280x720"), among: ads)
                == 1)
        #expect(
            CreativeMatcher.bestMatch(for: Self.variant(2_000_000, "avc1.4d401f,mp4a.40.2", "1280x720"), among: ads)
                == 2)
        #expect(
            CreativeMatcher.bestMatch(for: Self.variant(466_400, "avc1.4d401e,mp4a.40.2", "640x360"), among: ads) == 0)
        // Nothing affordable: the lowest of the compatible ones.
        #expect(
            CreativeMatcher.bestMatch(for: Self.variant(100_000, "avc1.4d401e,mp4a.40.2", "320x180"), among: ads) == 0)
        // HEVC content gets the HEVC ad; a codec nobody has gets nothing.
        #expect(
            CreativeMatcher.bestMatch(for: Self.variant(3_000_000, "hvc1.1.6.L93.B0,mp4a.40.2", nil), among: ads) == 3)
        #expect(
            CreativeMatcher.bestMatch(for: Self.variant(3_000_000, "av01.0.08M.08,mp4a.40.2", nil), among: ads) == nil)
        // Same bandwidth: the closer resolution.
        let tie = [Self.variant(800_000, "avc1.4d401f", "1920x1080"), Self.variant(800_000, "avc1.4d401f", "960x540")]
        #expect(CreativeMatcher.bestMatch(for: Self.variant(900_000, "avc1.4d401f", "1024x576"), among: tie) == 1)
    }
}
