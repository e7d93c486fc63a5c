import Testing
import HLS
@testable import Stitching

/// The matching rules through the engine, on whole hls-splice titles and ads loaded as the
/// server loads them: `CreativeFit` (audio by codec, channels, language; the ad's own subtitles),
/// `VODStitcher` (one splice point per break across renditions, reported in the tracking JSON)
/// and `ContentSet.playback` (VOD decided by the video).
@Suite struct VODStitcherVectorTests {
    let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "SID")

    static func plan(_ creative: AdCreative, at position: BreakPosition, duration: Double) -> BreakPlan {
        BreakPlan(breaks: [
            .init(position: position, ads: [.init(ad: TitleFixture.ad("ad", duration: duration), creative: creative)])
        ])
    }

    /// The URIs in `stitched` that are not `content`'s own: the ad's, in order.
    static func adURIs(_ stitched: MediaPlaylist?, content: MediaPlaylist) -> [String] {
        let own = Set(content.segments.map(\.uri))
        return (stitched?.segments ?? []).map(\.uri).filter { !own.contains($0) }
    }

    /// Content seconds before the first ad segment of `stitched` (a title with one mid-roll).
    static func spliceTime(_ stitched: MediaPlaylist, content: MediaPlaylist) -> Double? {
        let own = Set(content.segments.map(\.uri))
        guard let first = stitched.segments.firstIndex(where: { !own.contains($0.uri) }) else { return nil }
        return stitched.segments.prefix(first).reduce(0) { $0 + $1.duration }
    }

    /// Derived from `demux/ad1`: its variants point at the video playlists the vector ships (it
    /// lists `index_N_av.m3u8`, ships `index_N_v.m3u8`).
    static func adWithVideo(_ text: String) -> String {
        SpliceVectors.edited(text, "_av.m3u8", "_v.m3u8")
    }

    @Test("demux/hls1 + demux/ad1: each content audio rendition plays the ad audio of its channel count and language")
    func audioByChannelsThenLanguage() throws {
        // Derived: CHANNELS declared on both sides, and the ad's groups renamed, so that the
        // channel count and not the GROUP-ID must decide (the vectors declare no CHANNELS).
        let content = try SpliceVectors.title("demux/hls1") { text in
            let mono = SpliceVectors.edited(text, #"GROUP-ID="mono","#, #"GROUP-ID="mono",CHANNELS="1","#)
            return SpliceVectors.edited(mono, #"GROUP-ID="stereo","#, #"GROUP-ID="stereo",CHANNELS="2","#)
        }
        let creative = try SpliceVectors.creative("demux/ad1") { text in
            let mono = SpliceVectors.edited(
                Self.adWithVideo(text), #"GROUP-ID="mono","#, #"GROUP-ID="ad-a",CHANNELS="1","#)
            return SpliceVectors.edited(mono, #"GROUP-ID="stereo","#, #"GROUP-ID="ad-b",CHANNELS="2","#)
        }
        #expect(CreativeFit.incompatibility(of: creative, with: content) == nil)
        let stitched = VODStitcher.stitch(
            content, plan: Self.plan(creative, at: .preroll, duration: 15), mode: .client, urls: urls)

        // a0 mono sv, a1 mono en, a2 stereo sv, a3 stereo en (the multivariant's order). The rule
        // before took the first ad audio in the language: mono for the stereo renditions too.
        let expected: [(String, String)] = [("a0", "msv"), ("a1", "men"), ("a2", "ssv"), ("a3", "sen")]
        for (path, tag) in expected {
            let key = try #require(RenditionKey(path))
            let rendition = try #require(content.rendition(key))
            #expect(
                Self.adURIs(stitched.media[key], content: rendition.playlist) == (1...5).map { "ad\($0)_\(tag)_a.ts" },
                "\(path)")
        }
        // The video variants play the ad video of their bandwidth.
        let v0 = try #require(content.rendition(RenditionKey(.variant, 0)))
        let v1 = try #require(content.rendition(RenditionKey(.variant, 1)))
        #expect(Self.adURIs(stitched.media[v0.key], content: v0.playlist) == (1...5).map { "ad\($0)_0_av.ts" })
        #expect(Self.adURIs(stitched.media[v1.key], content: v1.playlist) == (1...5).map { "ad\($0)_1_av.ts" })

        // Server-side tracking: the ad segment table sends each audio rendition to its own ad audio.
        let routed = VODStitcher.stitch(
            content, plan: Self.plan(creative, at: .preroll, duration: 15), mode: .server, urls: urls)
        #expect(
            routed.adSegments[AdSegmentAddress(pod: 0, ad: 0, rendition: RenditionKey(.audio, 2), segment: 0)]?.url
                == "ad1_ssv_a.ts")
        #expect(
            routed.adSegments[AdSegmentAddress(pod: 0, ad: 0, rendition: RenditionKey(.audio, 1), segment: 4)]?.url
                == "ad5_men_a.ts")
    }

    /// Derived: the variants name the audio group the renditions are in (the vectors' name
    /// groups that do not exist, so their audio codec is undeclared), and `codec` replaces AAC.
    static func audioGroupDeclared(_ text: String, codec: String) -> String {
        let mono = SpliceVectors.edited(text, #"AUDIO="mono""#, #"AUDIO="audio""#)
        let named = SpliceVectors.edited(mono, #"AUDIO="stereo""#, #"AUDIO="audio""#)
        return codec == "mp4a.40.2" ? named : SpliceVectors.edited(named, "mp4a.40.2", codec)
    }

    @Test(
        "an ad with AAC audio only is skipped for E-AC-3 content with the mismatch as its reason, in VOD and live; with E-AC-3 audio it plays"
    )
    func otherAudioCodecIsSkipped() throws {
        let content = try SpliceVectors.title("demux/hls3_v_a_s") { Self.audioGroupDeclared($0, codec: "ec-3") }
        let aacOnly = try SpliceVectors.creative("demux/ad6") { Self.audioGroupDeclared($0, codec: "mp4a.40.2") }
        let reason = try #require(CreativeFit.incompatibility(of: aacOnly, with: content))
        #expect(reason.contains("ec-3"), "\(reason)")
        #expect(reason.contains("mp4a.40.2"), "\(reason)")
        guard
            case .unusable(let liveReason) = CreativeFit.live(
                aacOnly, in: content, targetDuration: 16,
                emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        else {
            Issue.record("an AAC-only ad was cut for an E-AC-3 live stream")
            return
        }
        #expect(liveReason == reason)

        let eac3 = try SpliceVectors.creative("demux/ad6") { Self.audioGroupDeclared($0, codec: "ec-3") }
        #expect(CreativeFit.incompatibility(of: eac3, with: content) == nil)
        guard
            case .usable(let playlists) = CreativeFit.live(
                eac3, in: content, targetDuration: 16,
                emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        else {
            Issue.record("an E-AC-3 ad was refused for E-AC-3 content")
            return
        }
        #expect(playlists[RenditionKey(.audio, 0)]?.segments.map(\.uri) == ["ad6_0_audio.ts", "ad6_1_audio.ts"])
        #expect(Set(playlists.values.map(\.segments.count)) == [2])
    }

    @Test(
        "hls_subtitles: a subtitle playlist without ENDLIST next to finished video is VOD with its ads; the ad's own French subtitles are kept; every rendition ends"
    )
    func unfinishedSubtitlesStayVOD() throws {
        let content = try SpliceVectors.title("hls_subtitles/hls1", master: "index.m3u8")
        // The packager's slip: the rule before ("every rendition finished") made this title live.
        #expect(!content.renditions.allSatisfy { $0.playlist.isFinished })
        let decision = content.playback
        #expect(decision.kind == .vod)
        #expect(decision.warnings.count == 1)
        #expect(decision.warnings.first?.contains("sub.m3u8") == true)

        let creative = try SpliceVectors.creative("hls_subtitles/ad1_subs", master: "index.m3u8")
        #expect(CreativeFit.incompatibility(of: creative, with: content) == nil)
        let stitched = VODStitcher.stitch(
            content, plan: Self.plan(creative, at: .midroll(seconds: 12), duration: 8), mode: .server, urls: urls)
        #expect(stitched.media.count == 2)
        for rendition in content.renditions {
            let output = try #require(stitched.media[rendition.key])
            #expect(output.endList, "\(rendition.key)")
            #expect(output.playlistType == .vod, "\(rendition.key)")
            #expect(output.serialized().hasSuffix("#EXT-X-ENDLIST\n"), "\(rendition.key)")
            #expect(abs(output.duration - (rendition.playlist.duration + 8)) < 1e-6, "\(rendition.key)")
            #expect(Self.spliceTime(output, content: rendition.playlist) == 12, "\(rendition.key)")
            #expect(PlaylistValidator.validate(output.serialized()).isValid, "\(rendition.key)")
        }
        let subtitles = try #require(content.renditions.first { $0.kind == .subtitles })
        #expect(
            Self.adURIs(stitched.media[subtitles.key], content: subtitles.playlist) == ["ad0.webvtt", "ad1.webvtt"])
        #expect(stitched.tracking.avails.map(\.durationSeconds) == [8])
    }

    @Test(
        "demux/hls3_v_a_s + demux/ad6 at 300 s: every rendition spliced within one audio segment of the others, the avail reports how far"
    )
    func oneSplicePointAcrossRenditions() throws {
        let content = try SpliceVectors.title("demux/hls3_v_a_s")
        let creative = try SpliceVectors.creative("demux/ad6")
        #expect(content.renditions.map(\.key.path) == ["v0", "v1", "a0", "s1"])
        let stitched = VODStitcher.stitch(
            content, plan: Self.plan(creative, at: .midroll(seconds: 300), duration: 10), mode: .client, urls: urls)

        var times: [RenditionKey: Double] = [:]
        for rendition in content.renditions {
            let output = try #require(stitched.media[rendition.key])
            times[rendition.key] = try #require(Self.spliceTime(output, content: rendition.playlist))
            #expect(abs(output.duration - (rendition.playlist.duration + 10)) < 1e-6, "\(rendition.key)")
        }
        let spread = (times.values.max() ?? 0) - (times.values.min() ?? 0)
        let audio = try #require(content.renditions.first { $0.kind == .audio })
        #expect(spread <= audio.playlist.segments.map(\.duration).max() ?? 0)
        // Placed one rendition at a time (`PodPlacement`, the rule before), they were further apart.
        let independent = content.renditions.map {
            PodPlacement.contentTime(
                atSegment: PodPlacement.segmentIndex(forCuePoint: 300, in: $0.playlist), in: $0.playlist)
        }
        #expect(spread < (independent.max() ?? 0) - (independent.min() ?? 0))

        let avail = try #require(stitched.tracking.avails.first)
        let reported = try #require(avail.renditionOffsetSeconds)
        #expect(reported > 0)
        #expect(abs(reported - spread) < 0.001)
        // The tracking timeline is the reference rendition's.
        #expect(avail.startTimeSeconds == times[content.referenceKey])

        // Norwegian content subtitles, Swedish ad subtitles: empty cues for the ad's length; the audio is the ad's.
        let subtitles = try #require(content.rendition(RenditionKey(.subtitles, 1)))
        #expect(
            Self.adURIs(stitched.media[subtitles.key], content: subtitles.playlist) == [
                urls.emptySubtitles, urls.emptySubtitles,
            ])
        #expect(
            Self.adURIs(stitched.media[audio.key], content: audio.playlist) == ["ad6_0_audio.ts", "ad6_1_audio.ts"])
    }

    @Test(
        "live: the ad's own subtitles are kept when cut like its video, else empty cues, so every rendition plays the same number of segments"
    )
    func liveKeepsSegmentCountsEqual() throws {
        let content = try SpliceVectors.title("hls_subtitles/hls1", master: "index.m3u8")
        let subtitles = try #require(content.renditions.first { $0.kind == .subtitles })
        var creative = try SpliceVectors.creative("hls_subtitles/ad1_subs", master: "index.m3u8")
        guard
            case .usable(let kept) = CreativeFit.live(
                creative, in: content, targetDuration: 6,
                emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        else {
            Issue.record("the ad was refused for the live stream")
            return
        }
        #expect(kept[subtitles.key]?.segments.map(\.uri) == ["ad0.webvtt", "ad1.webvtt"])

        // Derived: the ad's subtitles cut in three segments against two of video (the last one
        // split in two halves, so they still last as long as the video).
        let popped = creative.catalog.subtitles[0].playlist.segments.popLast()
        let last = try #require(popped)
        creative.catalog.subtitles[0].playlist.segments += [
            MediaSegment(uri: "ad1a.webvtt", duration: last.duration / 2),
            MediaSegment(uri: "ad1b.webvtt", duration: last.duration / 2),
        ]
        let vod = CreativeFit.adPlaylists(
            creative: creative, content: content, emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        #expect(vod[subtitles.key]?.segments.count == 3)
        guard
            case .usable(let live) = CreativeFit.live(
                creative, in: content, targetDuration: 6,
                emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder)
        else {
            Issue.record("the ad was refused for the live stream")
            return
        }
        #expect(
            live[subtitles.key]?.segments.map(\.uri) == [
                SessionURLs.emptySubtitlesPlaceholder, SessionURLs.emptySubtitlesPlaceholder,
            ])
        #expect(Set(live.values.map(\.segments.count)) == [2])
        #expect(
            try CreativeFit.livePlaylists(
                creative: creative, content: content, emptySubtitleURI: SessionURLs.emptySubtitlesPlaceholder
            ).get().count == 2)
    }

    @Test("a title of one rendition reports no offset; its break sits where it always did")
    func singleRenditionHasNoOffset() throws {
        let content = ContentSet(
            media: try SpliceVectors.media("demux/hls3_v_a_s/index_0_v.m3u8"), url: "index_0_v.m3u8")
        let creative = try SpliceVectors.creative("demux/ad6")
        let stitched = VODStitcher.stitch(
            content, plan: Self.plan(creative, at: .midroll(seconds: 300), duration: 10), mode: .client, urls: urls)
        let avail = try #require(stitched.tracking.avails.first)
        #expect(avail.renditionOffsetSeconds == nil)
        let index = PodPlacement.segmentIndex(forCuePoint: 300, in: content.reference)
        #expect(avail.startTimeSeconds == PodPlacement.contentTime(atSegment: index, in: content.reference))
    }
}
