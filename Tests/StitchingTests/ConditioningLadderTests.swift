import HLS
import Testing
@testable import Stitching

/// The targets an MP4 creative is conditioned to, read from a title's playlists and probes.
@Suite struct ConditioningLadderTests {
    typealias Ladder = ConditioningLadder

    static func content(_ multivariantText: String, fmp4: Bool = false, targetDuration: Double = 6) throws -> ContentSet
    {
        let multivariant = try MultivariantPlaylist(parsing: multivariantText)
        let renditions = ContentSet.wanted(in: multivariant).map { wanted in
            ContentSet.Rendition(
                key: wanted.key, variant: wanted.variant, rendition: wanted.rendition,
                playlist: TitleFixture.media(
                    "https://o.example/\(wanted.key)/", count: 3, duration: targetDuration,
                    fmp4: fmp4 && wanted.key.kind != .subtitles),
                sourceURL: wanted.uri)
        }
        return try #require(ContentSet(multivariant: multivariant, renditions: renditions))
    }

    static let demuxed = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",SAMPLE-RATE=48000,URI="a/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Surround",LANGUAGE="en",CHANNELS="6",URI="a/51.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=25,AUDIO="aud"
        v360.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2500000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=50,AUDIO="aud"
        v720.m3u8

        """

    @Test(
        "A demuxed H.264 ladder: per variant the codec's profile and level, size, frame rate and a video rate under its bandwidth; per audio rendition codec, channels and sample rate (declared or probed)"
    )
    func demuxedLadder() throws {
        let title = try Self.content(Self.demuxed, fmp4: true)
        let probes = [RenditionKey(.audio, 1): Ladder.ProbedStream(sampleRate: 44_100)]
        let ladder = try Ladder.of(title, probes: probes).get()
        #expect(ladder.container == .fragmentedMP4)
        #expect(ladder.segmentSeconds == 6)
        #expect(ladder.variants.count == 2)
        let low = ladder.variants[0].video, high = ladder.variants[1].video
        #expect((low.codec.family, low.codec.profile, low.codec.level) == (.h264, "main", "3"))
        #expect((high.codec.profile, high.codec.level) == ("high", "4"))
        #expect((low.width, low.height, low.frameRate) == (640, 360, 25))
        #expect((high.width, high.height, high.frameRate) == (1280, 720, 50))
        // Video gets the peak BANDWIDTH (not AVERAGE-BANDWIDTH) less the group's largest audio, less 10 %.
        let surround = Ladder.audioBitrate(Ladder.AudioCodec("mp4a.40.2")!, channels: 6)
        #expect(low.bitrate == (800_000 - surround) * 9 / 10)
        #expect(high.bitrate == (3_000_000 - surround) * 9 / 10)
        #expect(ladder.variants.allSatisfy { $0.audioGroup == "aud" && $0.muxedAudio == nil })
        #expect(ladder.variants[1].codecs == ["avc1.640028", "mp4a.40.2"])
        #expect(ladder.audio.map(\.audio.channels) == [2, 6])
        #expect(ladder.audio.map(\.audio.sampleRate) == [48_000, 44_100], "declared SAMPLE-RATE first, then the probe")
        #expect(ladder.audio.map(\.name) == ["English", "Surround"])
        #expect(ladder.audio.map(\.audio.codec.family) == [.aacLC, .aacLC])
    }

    @Test("A muxed MPEG-TS title: the variant's audio comes from its CODECS and the probe; no audio renditions")
    func muxed() throws {
        let title = try Self.content(
            """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1200000,CODECS="avc1.42c01e, mp4a.40.2",RESOLUTION=854x480
            v480.m3u8

            """)
        let probe = Ladder.ProbedStream(frameRate: 29.97, sampleRate: 48_000, channels: 2)
        let ladder = try Ladder.of(title, probes: [RenditionKey(.variant, 0): probe]).get()
        #expect(ladder.container == .mpegTS)
        #expect(ladder.audio.isEmpty)
        let variant = try #require(ladder.variants.first)
        #expect(variant.video.codec.profile == "baseline")
        #expect(variant.video.frameRate == 29.97)
        #expect(
            variant.muxedAudio
                == Ladder.Audio(
                    codec: Ladder.AudioCodec("mp4a.40.2")!, channels: 2, sampleRate: 48_000, bitrate: 128_000))
        #expect(variant.audioGroup == nil)
    }

    @Test(
        "What neither the playlists nor a probe say, and what Seam cannot encode, is refused with the reason",
        arguments: [
            ("#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e\",RESOLUTION=640x360\nv.m3u8", "no frame rate"),
            ("#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e\",FRAME-RATE=25\nv.m3u8", "no resolution"),
            (
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"vp09.00.10.08\",RESOLUTION=640x360,FRAME-RATE=25\nv.m3u8",
                "no video codec Seam can encode"
            ),
            ("#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,FRAME-RATE=25\nv.m3u8", "none declared"),
            (
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.5\",RESOLUTION=640x360,FRAME-RATE=25\nv.m3u8",
                "mp4a.40.5 audio, which Seam cannot encode"
            ),
            (
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360,FRAME-RATE=25\nv.m3u8",
                "no channel count"
            ),
            (
                "#EXT-X-STREAM-INF:BANDWIDTH=40000,CODECS=\"avc1.4d401e\",RESOLUTION=640x360,FRAME-RATE=25\nv.m3u8",
                "too little for its video"
            ),
            (
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",CHANNELS=\"2\",URI=\"a.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,mp4a.40.2\",RESOLUTION=640x360,FRAME-RATE=25,AUDIO=\"a\"\nv.m3u8",
                "no sample rate"
            ),
            (
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",CHANNELS=\"2\",SAMPLE-RATE=48000,URI=\"a.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401e,opus\",RESOLUTION=640x360,FRAME-RATE=25,AUDIO=\"a\"\nv.m3u8",
                "is opus, which Seam cannot encode"
            ),
        ])
    func refused(lines: String, reason: String) throws {
        let title = try Self.content("#EXTM3U\n" + lines + "\n")
        switch Ladder.of(title) {
        case .success(let ladder): Issue.record("accepted: \(ladder)")
        case .failure(let unsupported): #expect(unsupported.description.contains(reason), "\(unsupported)")
        }
    }

    @Test(
        "Codec strings: H.264 in RFC 6381 hex and Apple's decimal form, HEVC; profiles and levels; anything else nil",
        arguments: [
            ("avc1.42e01e", "h264 baseline 3"), ("avc1.4d401f", "h264 main 3.1"), ("avc1.640028", "h264 high 4"),
            ("avc3.640033", "h264 high 5.1"), ("avc1.77.30", "h264 main 3"), ("avc1.100.41", "h264 high 4.1"),
            (" avc1.64001F ", "h264 high 3.1"), ("hvc1.1.6.L93.B0", "hevc main 3.1"),
            ("hev1.2.4.L120.90", "hevc main10 4"),
            ("hvc1.2.4.H150.B0", "hevc main10 5"),
            ("avc1.58A01E", "nil"), ("avc1", "nil"), ("avc1.64", "nil"), ("avc1.6400zz", "nil"),
            ("hvc1.3.6.L93.B0", "nil"),
            ("hvc1.1.6.X93", "nil"), ("vp09.00.10.08", "nil"), ("", "nil"), ("avc1.640001", "nil"),
        ])
    func codecs(codec: String, expected: String) {
        let parsed = Ladder.VideoCodec(codec)
        #expect(parsed.map { "\($0.family.rawValue) \($0.profile) \($0.level)" } ?? "nil" == expected)
    }

    @Test("The fingerprint: stable for the same ladder, different when anything encoded changes")
    func fingerprint() throws {
        let probes = [RenditionKey(.audio, 1): Ladder.ProbedStream(sampleRate: 48_000)]
        func ladder(_ text: String = Self.demuxed, fmp4: Bool = false, targetDuration: Double = 6) throws -> Ladder {
            try Ladder.of(try Self.content(text, fmp4: fmp4, targetDuration: targetDuration), probes: probes).get()
        }
        let a = try ladder(), b = try ladder()
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint.count == 16)
        let changed = [
            try ladder(fmp4: true), try ladder(targetDuration: 10),
            try ladder(Self.demuxed.replacingOccurrences(of: "FRAME-RATE=25", with: "FRAME-RATE=30")),
            try ladder(Self.demuxed.replacingOccurrences(of: "CHANNELS=\"6\"", with: "CHANNELS=\"2\"")),
        ]
        #expect(Set([a.fingerprint] + changed.map(\.fingerprint)).count == 5)
    }
}
