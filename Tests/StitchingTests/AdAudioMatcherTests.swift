import Testing
import HLS
@testable import Stitching

/// Ad audio for demuxed content, replayed on the hls-splice vectors: codec, then channels, then
/// language, then GROUP-ID; another codec is no match.
@Suite struct AdAudioMatcherTests {
    /// `demux/hls1`: variants AUDIO="mono" and AUDIO="stereo" (both `mp4a.40.2`), each group in
    /// Swedish and English. The vector declares no CHANNELS; `channels: true` derives a fixture
    /// that does (mono "1", stereo "2"), as a packager would write it.
    static func content(channels: Bool = false, surround: Bool = false) throws -> MultivariantPlaylist {
        var text = try SpliceVectors.text("demux/hls1/master.m3u8")
        if channels {
            text = SpliceVectors.edited(text, #"GROUP-ID="mono","#, #"GROUP-ID="mono",CHANNELS="1","#)
            text = SpliceVectors.edited(text, #"GROUP-ID="stereo","#, #"GROUP-ID="stereo",CHANNELS="2","#)
        }
        if surround {
            // Derived: the vectors have no E-AC-3 content, so a 5.1 E-AC-3 group and a variant
            // using it are added to demux/hls1 (the media playlist is not needed for matching).
            text +=
                "\r\n#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1280x720,CODECS=\"avc1.77.30,ec-3\",AUDIO=\"surround\"\r\n"
            text += "index_0_v.m3u8\r\n"
            text +=
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"surround\",LANGUAGE=\"sv\",NAME=\"Svenska 5.1\",CHANNELS=\"6\",URI=\"index_surround-sv_a.m3u8\"\r\n"
        }
        return try MultivariantPlaylist(parsing: text)
    }

    /// `demux/ad1`: the same groups and languages as `demux/hls1` (its variants name no AUDIO
    /// group, so its audio codecs are undeclared). With `channels`, derived: CHANNELS added and
    /// the groups renamed, so that the channel count and not the GROUP-ID must decide.
    static func demuxedAd(channels: Bool = false, only keep: [String]? = nil) throws -> AdMediaCatalog {
        try SpliceVectors.catalog("demux/ad1") { text in
            var text = text
            if channels {
                text = SpliceVectors.edited(text, #"GROUP-ID="mono","#, #"GROUP-ID="ad-a",CHANNELS="1","#)
                text = SpliceVectors.edited(text, #"GROUP-ID="stereo","#, #"GROUP-ID="ad-b",CHANNELS="2","#)
            }
            if let keep {
                // Derived: only the renditions whose URIs are in `keep` stay listed.
                text = text.split(separator: "\r\n", omittingEmptySubsequences: false).filter { line in
                    !line.hasPrefix("#EXT-X-MEDIA") || keep.contains { line.contains("URI=\"\($0)\"") }
                }.joined(separator: "\r\n")
            }
            return text
        }
    }

    /// `demux_n_cmaf/ad1_demux_cmaf_subs`: one variant `mp4a.40.2,avc1.4D481E` with AUDIO="audio"
    /// (Swedish, CHANNELS="2") and SUBTITLES. With `eac3`, derived: a 5.1 E-AC-3 group
    /// "audio-ec3" and a variant using it are added (no vector has an E-AC-3 ad; the rendition
    /// reuses `audio_1.m3u8` as its playlist, since matching reads only the multivariant).
    static func cmafAd(eac3: Bool = false, undeclaredFirst: Bool = false) throws -> AdMediaCatalog {
        try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs") { text in
            var text = text
            if eac3 {
                text +=
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio-ec3\",NAME=\"sv 5.1\",LANGUAGE=\"sv\",CHANNELS=\"6\",URI=\"audio_1.m3u8\"\r\n"
                text +=
                    "#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS=\"ec-3,avc1.4D481E\",RESOLUTION=384x216,AUDIO=\"audio-ec3\"\r\nvideo_1.m3u8\r\n"
            }
            if undeclaredFirst {
                // Derived: a group no variant names (so of undeclared codec), listed first, in
                // the same language and channel count as the declared one.
                text = SpliceVectors.edited(
                    text, "#EXT-X-VERSION:6\r\n",
                    "#EXT-X-VERSION:6\r\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"spare\",NAME=\"sv\",LANGUAGE=\"sv\",CHANNELS=\"2\",URI=\"audio_1.m3u8\"\r\n"
                )
            }
            return text
        }
    }

    static func uri(_ result: Result<AdAudioChoice, AdAudioMismatch>) -> String? {
        guard case .success(let choice) = result else { return nil }
        switch choice {
        case .rendition(let option): return option.rendition.uri
        case .muxedVariant(let option): return option.stream.uri
        }
    }

    static func group(_ result: Result<AdAudioChoice, AdAudioMismatch>) -> String? {
        guard case .success(.rendition(let option)) = result else { return nil }
        return option.rendition.groupID
    }

    static func mismatch(_ result: Result<AdAudioChoice, AdAudioMismatch>) -> AdAudioMismatch? {
        guard case .failure(let mismatch) = result else { return nil }
        return mismatch
    }

    @Test(
        "stereo and mono content renditions get ad audio of their own channel count, in their language",
        arguments: [
            ("mono", "sv", "index_mono-sv_a.m3u8"),
            ("mono", "en", "index_mono-en_a.m3u8"),
            ("stereo", "sv", "index_stereo-sv_a.m3u8"),
            ("stereo", "en", "index_stereo-en_a.m3u8"),
        ])
    func channelCountIsKept(group: String, language: String, expected: String) throws {
        let content = try Self.content(channels: true)
        let ad = try Self.demuxedAd(channels: true)
        let rendition = try SpliceVectors.audio(content, group: group, language: language)
        let result = AdAudioMatcher.match(rendition: rendition, of: content, in: ad)
        #expect(Self.uri(result) == expected)
        #expect((try? result.get())?.profile.channels == (group == "mono" ? 1 : 2))
        #expect((try? result.get())?.playlist.segments.count == 5)
        // The rule before: the first ad audio in the language, whatever its channels.
        let before = ad.audio.first { $0.rendition.language == language }?.rendition.uri
        #expect(before == "index_mono-\(language)_a.m3u8")
    }

    @Test("channels come before language: mono content takes mono ad audio in another language")
    func channelsBeforeLanguage() throws {
        let content = try Self.content(channels: true)
        let ad = try Self.demuxedAd(channels: true, only: ["index_mono-sv_a.m3u8", "index_stereo-en_a.m3u8"])
        #expect(ad.audio.count == 2)
        let monoEnglish = try SpliceVectors.audio(content, group: "mono", language: "en")
        let stereoSwedish = try SpliceVectors.audio(content, group: "stereo", language: "sv")
        #expect(Self.uri(AdAudioMatcher.match(rendition: monoEnglish, of: content, in: ad)) == "index_mono-sv_a.m3u8")
        #expect(
            Self.uri(AdAudioMatcher.match(rendition: stereoSwedish, of: content, in: ad)) == "index_stereo-en_a.m3u8")
    }

    @Test(
        "without CHANNELS, the language and then the same GROUP-ID decide (the vectors as they are)",
        arguments: [
            ("mono", "sv"), ("mono", "en"), ("stereo", "sv"), ("stereo", "en"),
        ])
    func groupIDBreaksTheTie(group: String, language: String) throws {
        let content = try Self.content()
        let ad = try Self.demuxedAd()
        let rendition = try SpliceVectors.audio(content, group: group, language: language)
        let result = AdAudioMatcher.match(rendition: rendition, of: content, in: ad)
        #expect(Self.uri(result) == "index_\(group)-\(language)_a.m3u8")
        #expect(Self.group(result) == group)
    }

    @Test(
        "E-AC-3 content gets E-AC-3 ad audio and AAC content AAC",
        arguments: [
            ("surround", "sv", "audio-ec3", 6),
            ("stereo", "sv", "audio", 2),
            ("stereo", "en", "audio", 2),
            ("mono", "sv", "audio", 2),
        ])
    func codecComesFirst(group: String, language: String, expectedGroup: String, expectedChannels: Int) throws {
        let content = try Self.content(channels: true, surround: true)
        let ad = try Self.cmafAd(eac3: true)
        let rendition = try SpliceVectors.audio(content, group: group, language: language)
        let result = AdAudioMatcher.match(rendition: rendition, of: content, in: ad)
        #expect(Self.group(result) == expectedGroup)
        #expect((try? result.get())?.profile.channels == expectedChannels)
        #expect((try? result.get())?.profile.codecs == (expectedGroup == "audio-ec3" ? ["ec-3"] : ["mp4a.40.2"]))
    }

    @Test("an AAC-only ad is no match for E-AC-3 content, with the reason, and the ad is skipped for the session")
    func otherCodecIsNoMatch() throws {
        let content = try Self.content(channels: true, surround: true)
        let ad = try Self.cmafAd()
        let surround = try SpliceVectors.audio(content, group: "surround", language: "sv")
        let mismatch = try #require(Self.mismatch(AdAudioMatcher.match(rendition: surround, of: content, in: ad)))
        #expect(mismatch.kind == .noCompatibleCodec)
        #expect(mismatch.content.codecs == ["ec-3"])
        #expect(mismatch.description.contains("ec-3"))
        #expect(mismatch.description.contains("mp4a.40.2"))
        #expect(mismatch.description.contains("surround"))
        // The AAC renditions of the same title would match; one rendition without audio skips the ad.
        let stereo = try SpliceVectors.audio(content, group: "stereo", language: "sv")
        #expect(Self.group(AdAudioMatcher.match(rendition: stereo, of: content, in: ad)) == "audio")
        guard case .failure(let whole) = AdAudioMatcher.matchEveryRendition(of: content, in: ad) else {
            Issue.record("an ad without E-AC-3 audio was kept for a title with an E-AC-3 rendition")
            return
        }
        #expect(whole == mismatch)
        let matched = try AdAudioMatcher.matchEveryRendition(of: content, in: Self.cmafAd(eac3: true)).get()
        #expect(matched.count == 5)
    }

    @Test("HE-AAC ad audio is not spliced into AAC-LC content")
    func heAACIsNotAACLC() throws {
        let content = try SpliceVectors.multivariant("demux_n_cmaf/hls1_demux_cmaf_subs/master.m3u8")
        // Derived: the ad's variant re-labelled HE-AAC (mp4a.40.5); no vector has one.
        let ad = try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs") {
            SpliceVectors.edited($0, #"CODECS="mp4a.40.2,"#, #"CODECS="mp4a.40.5,"#)
        }
        let rendition = try SpliceVectors.audio(content, group: "audio", language: "sv")
        let mismatch = try #require(Self.mismatch(AdAudioMatcher.match(rendition: rendition, of: content, in: ad)))
        #expect(mismatch.offered.map(\.codecs) == [["mp4a.40.5"]])
        // The vector as it is: the same codec, the same channels, the same language.
        let same = try SpliceVectors.catalog("demux_n_cmaf/ad1_demux_cmaf_subs")
        #expect(Self.uri(AdAudioMatcher.match(rendition: rendition, of: content, in: same)) == "audio_1.m3u8")
    }

    @Test("an ad audio group of declared codec is preferred to one of undeclared codec")
    func declaredCodecFirst() throws {
        let content = try SpliceVectors.multivariant("demux_n_cmaf/hls1_demux_cmaf_subs/master.m3u8")
        let ad = try Self.cmafAd(undeclaredFirst: true)
        #expect(ad.audio.map(\.rendition.groupID) == ["spare", "audio"])
        #expect(ad.audio[0].profile.codecs.isEmpty)
        let rendition = try SpliceVectors.audio(content, group: "audio", language: "sv")
        #expect(Self.group(AdAudioMatcher.match(rendition: rendition, of: content, in: ad)) == "audio")
    }

    @Test("a muxed ad's audio is its lowest variant of the content's codec; another codec is no match")
    func muxedAd() throws {
        let content = try Self.content(channels: true, surround: true)
        let ad = try SpliceVectors.catalog("ad1")
        #expect(ad.audio.isEmpty)
        #expect(ad.muxedAudio.map(\.profile.codecs) == [["mp4a.40.2"], ["mp4a.40.2"]])
        let stereo = try SpliceVectors.audio(content, group: "stereo", language: "sv")
        let result = AdAudioMatcher.match(rendition: stereo, of: content, in: ad)
        guard case .success(.muxedVariant(let option)) = result else {
            Issue.record("expected the muxed variant, got \(result)")
            return
        }
        #expect(option.stream.bandwidth == 2_497_000)
        #expect(option.stream.uri == "index_1_av.m3u8")
        #expect(option.playlist.segments.first?.uri == "ad1_1_av.ts")

        let surround = try SpliceVectors.audio(content, group: "surround", language: "sv")
        let mismatch = try #require(Self.mismatch(AdAudioMatcher.match(rendition: surround, of: content, in: ad)))
        #expect(mismatch.kind == .noCompatibleCodec)

        // A creative that is one media playlist declares nothing: not refused.
        let single = AdMediaCatalog(
            mediaPlaylist: try SpliceVectors.media("ad1/index_0_av.m3u8"), uri: "https://ads/ad1.m3u8")
        #expect(Self.uri(AdAudioMatcher.match(rendition: surround, of: content, in: single)) == "https://ads/ad1.m3u8")
    }

    @Test("an ad with no audio at all is no match")
    func noAudio() throws {
        let content = try Self.content()
        let empty = AdMediaCatalog(multivariant: MultivariantPlaylist(), playlists: [:])
        let rendition = try SpliceVectors.audio(content, group: "mono", language: "sv")
        let mismatch = try #require(Self.mismatch(AdAudioMatcher.match(rendition: rendition, of: content, in: empty)))
        #expect(mismatch.kind == .noAudio)
    }

    @Test(
        "audio codecs and channel counts are read from CODECS and CHANNELS",
        arguments: [
            (["avc1.77.30", " mp4a.40.2"], ["mp4a.40.2"]),
            (["ec-3", "avc1.64001f"], ["ec-3"]),
            (["MP4A.40.5", "hvc1.2.4.L123.B0", "ac-3"], ["ac-3", "mp4a.40.5"]),
            (["avc1.4D481E"], []),
            ([], []),
        ])
    func codecs(list: [String], expected: [String]) {
        #expect(
            AudioTrackProfile(
                codecs: AudioTrackProfile.audioCodecs(in: list), channels: nil, language: nil, groupID: ""
            ).codecs == expected)
    }

    @Test(
        "CHANNELS",
        arguments: [("2", 2), ("6", 6), ("16/JOC", 16), ("1/-/BINAURAL", 1), ("", nil), ("two", nil), ("-2", nil)]
            as [(String, Int?)])
    func channels(value: String, expected: Int?) {
        #expect(AudioTrackProfile.channelCount(value) == expected)
    }
}
