import Foundation
import HLS
import Testing
@testable import Stitching

@Suite struct InterstitialRendererTests {
    let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")

    /// Pre-roll of one 15 s ad, a mid-roll at 30 s of a 10 s and a 20 s ad, an unfilled mid-roll at
    /// 42 s, a post-roll of one 15 s ad.
    var plan: BreakPlan {
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
            .init(position: .midroll(seconds: 42), skipReason: .noFill),
            .init(
                position: .postroll,
                ads: [.init(ad: TitleFixture.ad("d", duration: 15), creative: TitleFixture.creative("d", segments: 3))]),
        ])
    }

    func dateRangeLines(_ playlist: MediaPlaylist?) -> [String] {
        (playlist?.serialized() ?? "").split(separator: "\n").filter { $0.hasPrefix("#EXT-X-DATERANGE:") }.map(
            String.init)
    }

    @Test func preMidAndPostRollsCarryTheirAttributes() {
        let out = InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: InterstitialPolicy())
        #expect(
            dateRangeLines(out.media[RenditionKey(.variant, 0)]) == [
                #"#EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2000-01-01T00:00:00.000Z",CUE="PRE,ONCE",DURATION=15,X-ASSET-LIST="https://seam.example/v1/sessions/S1/assets/pre.json",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP""#,
                #"#EXT-X-DATERANGE:ID="mid-30000",CLASS="com.apple.hls.interstitial",START-DATE="2000-01-01T00:00:30.000Z",CUE="ONCE",DURATION=30,X-ASSET-LIST="https://seam.example/v1/sessions/S1/assets/mid-30000.json",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP""#,
                #"#EXT-X-DATERANGE:ID="post",CLASS="com.apple.hls.interstitial",START-DATE="2000-01-01T00:01:00.000Z",CUE="POST,ONCE",DURATION=15,X-ASSET-LIST="https://seam.example/v1/sessions/S1/assets/post.json",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP""#,
            ])
        #expect(out.breaks.map(\.id.text) == ["pre", "mid-30000", "post"])
        #expect(out.breaks.map(\.pod) == [0, 1, 2])
    }

    @Test func policyMapsToRestrictSnapAndCue() {
        let open = InterstitialPolicy(
            restrictSkip: false, restrictJump: false, snapOut: true, snapIn: true, playOnce: false)
        let lines = dateRangeLines(
            InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: open).media[
                RenditionKey(.variant, 0)])
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { !$0.contains("X-RESTRICT") && $0.hasSuffix(#",X-SNAP="OUT,IN""#) })
        #expect(lines[0].contains(#"CUE="PRE","#))
        #expect(!lines[1].contains("CUE="))
        #expect(lines[2].contains(#"CUE="POST","#))
        let skipOnly = InterstitialPolicy(restrictSkip: true, restrictJump: false, snapOut: true, snapIn: false)
        let skipLines = dateRangeLines(
            InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: skipOnly).media[
                RenditionKey(.variant, 0)])
        #expect(skipLines.allSatisfy { $0.hasSuffix(#",X-RESTRICT="SKIP",X-SNAP="OUT""#) })
    }

    @Test func everyRenditionCarriesTheSameDateRangesAndContentUntouched() throws {
        let title = TitleFixture.title()
        let out = InterstitialRenderer.vod(title, plan: plan, urls: urls, policy: InterstitialPolicy())
        #expect(Set(out.media.keys) == Set(title.renditions.map(\.key)))
        let reference = dateRangeLines(out.media[title.referenceKey])
        #expect(reference.count == 3)
        for rendition in title.renditions {
            let rendered = try #require(out.media[rendition.key])
            #expect(dateRangeLines(rendered) == reference, "\(rendition.key)")
            #expect(rendered.segments.map(\.uri) == rendition.playlist.segments.map(\.uri))
            #expect(rendered.segments.map(\.duration) == rendition.playlist.segments.map(\.duration))
            #expect(rendered.segments.allSatisfy { $0.uri.hasPrefix("https://origin.example/") })
            // Each range before the segment where it starts: 0, 5 (30 s), the last for the post-roll.
            #expect(rendered.segments.indices.filter { !rendered.segments[$0].dateRanges.isEmpty } == [0, 5, 9])
        }
    }

    @Test func outputParsesAndValidatesWithoutError() throws {
        let out = InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: InterstitialPolicy())
        for (key, playlist) in out.media {
            let text = playlist.serialized()
            let report = PlaylistValidator.validate(text)
            #expect(report.errors.isEmpty, "\(key): \(report.errors)")
            let parsed = try MediaPlaylist(parsing: text)
            let ranges = parsed.segments.flatMap(\.dateRanges)
            #expect(ranges.count == 3)
            #expect(ranges.allSatisfy { $0.isInterstitial && $0.resumeOffset == 0 && $0.restrict == ["SKIP", "JUMP"] })
            #expect(ranges.map(\.cue) == [["PRE", "ONCE"], ["ONCE"], ["POST", "ONCE"]])
            #expect(ranges.map(\.duration) == [15, 30, 15])
            #expect(ranges.compactMap(\.assetList) == out.breaks.map { urls.assetList($0.id) })
            #expect(parsed.endList)
        }
    }

    @Test func unfilledBreaksGetNoDateRangeAndIdsAreStableAndDistinct() {
        let out = InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: InterstitialPolicy())
        let lines = dateRangeLines(out.media[RenditionKey(.audio, 0)])
        #expect(!lines.contains { $0.contains("mid-42000") })
        #expect(Set(out.breaks.map(\.id)).count == out.breaks.count)
        // The same plan renders the same bytes; a break added before a mid-roll does not rename it.
        let again = InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: InterstitialPolicy())
        #expect(
            again.media[RenditionKey(.variant, 1)]?.serialized() == out.media[RenditionKey(.variant, 1)]?.serialized())
        var more = plan
        more.breaks.insert(
            .init(
                position: .midroll(seconds: 12),
                ads: [
                    .init(ad: TitleFixture.ad("e", duration: 10), creative: TitleFixture.creative("e", segments: 2))
                ]), at: 1)
        let moreOut = InterstitialRenderer.vod(
            TitleFixture.title(), plan: more, urls: urls, policy: InterstitialPolicy())
        #expect(moreOut.breaks.map(\.id.text) == ["pre", "mid-12000", "mid-30000", "post"])
        let mid30 = moreOut.breaks.first { $0.id.text == "mid-30000" }?.dateRange
        #expect(mid30 == out.breaks.first { $0.id.text == "mid-30000" }?.dateRange)
        // Two mid-rolls within a millisecond would share an id: only the first is signalled.
        var twin = plan
        twin.breaks.insert(.init(position: .midroll(seconds: 30.0001), ads: plan.breaks[1].ads), at: 2)
        let twinOut = InterstitialRenderer.vod(
            TitleFixture.title(), plan: twin, urls: urls, policy: InterstitialPolicy())
        #expect(twinOut.breaks.map(\.id.text) == ["pre", "mid-30000", "post"])
        #expect(twinOut.breaks.map(\.pod) == [0, 1, 3])
    }

    @Test func programDateTimeIsSynthesizedOnlyWhenAbsent() throws {
        let plain = InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: InterstitialPolicy())
        for playlist in plain.media.values {
            #expect(playlist.segments.compactMap(\.programDateTime) == [InterstitialRenderer.syntheticEpoch])
            #expect(playlist.segments.first?.programDateTime?.text == "2000-01-01T00:00:00.000Z")
        }
        // Content with its own program date-time keeps it, and the breaks are dated from it.
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<10 {
            if index == 0 || index == 5 {
                text += "#EXT-X-PROGRAM-DATE-TIME:2026-03-01T12:00:\(index == 0 ? "00" : "30")Z\n"
            }
            text += "#EXTINF:6,\nhttps://origin.example/dated/\(index).ts\n"
        }
        text += "#EXT-X-ENDLIST\n"
        let dated = ContentSet(media: try MediaPlaylist(parsing: text), url: "https://origin.example/dated/index.m3u8")
        let out = InterstitialRenderer.vod(dated, plan: plan, urls: urls, policy: InterstitialPolicy())
        let playlist = try #require(out.media[RenditionKey(.variant, 0)])
        #expect(
            playlist.segments.compactMap(\.programDateTime?.text) == ["2026-03-01T12:00:00Z", "2026-03-01T12:00:30Z"])
        #expect(
            out.breaks.compactMap(\.dateRange.startDate?.text) == [
                "2026-03-01T12:00:00.000Z", "2026-03-01T12:00:30.000Z", "2026-03-01T12:01:00.000Z",
            ])
        #expect(PlaylistValidator.validate(playlist.serialized()).errors.isEmpty)
        // No break filled: nothing to date, nothing synthesized.
        let none = InterstitialRenderer.vod(
            TitleFixture.title(), plan: BreakPlan(breaks: [.init(position: .preroll, skipReason: .noFill)]),
            urls: urls, policy: InterstitialPolicy())
        #expect(
            none.media.values.allSatisfy {
                $0.segments.allSatisfy { $0.programDateTime == nil && $0.dateRanges.isEmpty }
            })
    }

    @Test func originAdSignalsAreRemovedOtherDateRangesKept() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-DATERANGE:ID="chapter-1",CLASS="com.example.chapter",START-DATE="2026-03-01T12:00:00Z",DURATION=30
            #EXT-X-PROGRAM-DATE-TIME:2026-03-01T12:00:00Z
            #EXTINF:6,
            https://origin.example/c/0.ts
            #EXTINF:6,
            https://origin.example/c/1.ts
            #EXT-X-CUE-OUT:12
            #EXT-X-DATERANGE:ID="splice-7",START-DATE="2026-03-01T12:00:12Z",PLANNED-DURATION=12,SCTE35-OUT=0xFC002F
            #EXTINF:6,
            https://origin.example/c/2.ts
            #EXT-X-DATERANGE:ID="mid-12000",START-DATE="2026-03-01T12:00:12Z",CLASS="com.example.other"
            #EXTINF:6,
            https://origin.example/c/3.ts
            #EXT-X-CUE-IN
            #EXT-X-DATERANGE:ID="origin-ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T12:00:24Z",X-ASSET-URI="https://x.example/a.m3u8"
            #EXTINF:6,
            https://origin.example/c/4.ts
            #EXT-X-ENDLIST

            """
        let content = ContentSet(media: try MediaPlaylist(parsing: text), url: "https://origin.example/c/index.m3u8")
        let markers = BreakPlan(breaks: [.init(position: .midroll(seconds: 12), ads: plan.breaks[1].ads)])
        let out = InterstitialRenderer.vod(content, plan: markers, urls: urls, policy: InterstitialPolicy())
        let playlist = try #require(out.media[RenditionKey(.variant, 0)])
        #expect(playlist.segments.allSatisfy { $0.cues.isEmpty })
        let ids = playlist.segments.flatMap(\.dateRanges).map(\.id)
        #expect(ids == ["chapter-1", "mid-12000"])
        #expect(playlist.segments[2].dateRanges.first?.isInterstitial == true)
        let serialized = playlist.serialized()
        #expect(!serialized.contains("CUE-OUT") && !serialized.contains("CUE-IN") && !serialized.contains("SCTE35"))
        #expect(PlaylistValidator.validate(serialized).errors.isEmpty)
    }

    @Test func assetListJSONHasTheExactFormAndDurations() throws {
        let plan = plan
        let playlist: (Int, Int) -> String = { pod, ad in
            "https://seam.example/v1/sessions/S1/adplaylist/\(pod)/\(ad).m3u8"
        }
        let mid = try #require(
            InterstitialRenderer.assetList(
                for: InterstitialBreakID(position: .midroll(seconds: 30)), in: plan, adPlaylistURL: playlist))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(
            try String(decoding: encoder.encode(mid), as: UTF8.self)
                == #"{"ASSETS":[{"DURATION":10,"URI":"https://seam.example/v1/sessions/S1/adplaylist/1/0.m3u8"},{"DURATION":20,"URI":"https://seam.example/v1/sessions/S1/adplaylist/1/1.m3u8"}]}"#
        )
        #expect(mid.totalDuration == 30)
        // Durations come from the ad's playlist, not what the ad server declared.
        var declared = plan
        declared.breaks[0].ads[0].ad.duration = 14.2
        let pre = try #require(InterstitialRenderer.assetList(for: .preroll, in: declared, adPlaylistURL: playlist))
        #expect(pre.assets.map(\.duration) == [15])
        #expect(pre.assets.allSatisfy { $0.uri.hasPrefix("https://") })
        // The date range's DURATION is the asset list's, for every signalled break.
        let out = InterstitialRenderer.vod(TitleFixture.title(), plan: plan, urls: urls, policy: InterstitialPolicy())
        for rendered in out.breaks {
            #expect(
                rendered.dateRange.duration
                    == InterstitialRenderer.assetList(for: rendered.id, in: plan, adPlaylistURL: playlist)?
                    .totalDuration)
        }
        // An unfilled break answers an empty list; an id the plan never had answers nothing.
        let unfilled = InterstitialRenderer.assetList(
            for: InterstitialBreakID(position: .midroll(seconds: 42)), in: plan, adPlaylistURL: playlist)
        #expect(unfilled == .empty)
        #expect(try String(decoding: encoder.encode(AssetList.empty), as: UTF8.self) == #"{"ASSETS":[]}"#)
        #expect(
            InterstitialRenderer.assetList(
                for: InterstitialBreakID(position: .midroll(seconds: 31)), in: plan, adPlaylistURL: playlist) == nil)
        // A player's list with SKIP-CONTROL reads back with the spec's spellings.
        let json =
            #"{"ASSETS":[{"URI":"https://a.example/x.m3u8","DURATION":6.5}],"SKIP-CONTROL":{"OFFSET":5,"DURATION":10,"LABEL-ID":"skip"}}"#
        let decoded = try JSONDecoder().decode(AssetList.self, from: Data(json.utf8))
        #expect(
            decoded
                == AssetList(
                    assets: [.init(uri: "https://a.example/x.m3u8", duration: 6.5)],
                    skipControl: .init(offset: 5, duration: 10, labelID: "skip")))
        #expect(
            try String(decoding: encoder.encode(decoded), as: UTF8.self)
                == #"{"ASSETS":[{"DURATION":6.5,"URI":"https://a.example/x.m3u8"}],"SKIP-CONTROL":{"DURATION":10,"LABEL-ID":"skip","OFFSET":5}}"#
        )
    }
}
