import Testing
@testable import HLS

@Suite struct MultivariantPlaylistTests {
    let text = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-START:TIME-OFFSET=0
        #EXT-X-DEFINE:NAME="token",VALUE="abc"
        #EXT-X-CONTENT-STEERING:SERVER-URI="/steering?video=00012",PATHWAY-ID="CDN-A"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Example",LANGUAGE="en"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.lyrics",URI="lyrics.json",FORMAT=JSON
        #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="fr",NAME="Français",FORCED=NO,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.easy-to-read",URI="subs/fr.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="SERVICE1"
        #EXT-X-VENDOR:x=1
        #EXT-X-STREAM-INF:BANDWIDTH=2000000,AVERAGE-BANDWIDTH=1800000,SCORE=2.5,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.97,HDCP-LEVEL=TYPE-0,VIDEO-RANGE=SDR,STABLE-VARIANT-ID="v720",AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc",PATHWAY-ID="CDN-A"
        video/720.m3u8?t={$token}
        #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,AUDIO="aac",CLOSED-CAPTIONS=NONE
        video/360.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,CODECS="avc1.64001f",RESOLUTION=1280x720,URI="video/720-iframes.m3u8"

        """

    @Test func everyTagIsTypedAndRoundTrips() throws {
        let parsed = try MultivariantPlaylist.parse(text)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        let p = parsed.playlist
        #expect(p.serialized() == text)
        #expect(p.version == 7)
        #expect(p.independentSegments)
        #expect(p.start?.timeOffset == 0)
        #expect(p.defines.first?.name == "token")
        #expect(p.contentSteering?.serverURI == "/steering?video=00012")
        #expect(p.contentSteering?.pathwayID == "CDN-A")
        #expect(p.sessionData.map(\.dataID) == ["com.example.title", "com.example.lyrics"])
        #expect(p.sessionData[1].format == "JSON")
        #expect(p.sessionKeys.first?.method == .sampleAES)
        #expect(p.renditions.map(\.type) == [.audio, .subtitles, .closedCaptions])
        #expect(p.renditions[0].channels == "2")
        #expect(p.renditions[0].isDefault && p.renditions[0].autoselect)
        #expect(p.renditions[1].name == "Français")
        #expect(p.renditions[1].characteristics.count == 2)
        #expect(p.renditions[2].instreamID == "SERVICE1")
        let v = p.variants[0]
        #expect(v.bandwidth == 2_000_000)
        #expect(v.averageBandwidth == 1_800_000)
        #expect(v.score == 2.5)
        #expect(v.codecs == ["avc1.64001f", "mp4a.40.2"])
        #expect(v.resolution == Resolution(width: 1280, height: 720))
        #expect(v.frameRate == 29.97)
        #expect(v.hdcpLevel == "TYPE-0")
        #expect(v.videoRange == "SDR")
        #expect(v.stableVariantID == "v720")
        #expect(v.audioGroup == "aac")
        #expect(v.subtitlesGroup == "subs")
        #expect(v.closedCaptions == .quoted("cc"))
        #expect(v.pathwayID == "CDN-A")
        #expect(v.unknownLines == ["#EXT-X-VENDOR:x=1"])
        #expect(p.variants[1].closedCaptions == .unquoted("NONE"))
        #expect(p.iFrameVariants.first?.uri == "video/720-iframes.m3u8")
        #expect(p.renditions(inGroup: "aac", type: .audio).count == 1)
    }

    @Test func playlistKindIsDetected() throws {
        guard case .multivariant = try Playlist(parsing: text) else {
            Issue.record("expected a multivariant playlist")
            return
        }
        guard case .media = try Playlist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n") else {
            Issue.record("expected a media playlist")
            return
        }
    }

    @Test func everyURIResolvesAgainstThePlaylistURL() throws {
        var p = try MultivariantPlaylist(parsing: text)
        p.resolveURIs(against: "https://origin.example.com/vod/title/master.m3u8?sig=1")
        #expect(p.variants[0].uri == "https://origin.example.com/vod/title/video/720.m3u8?t={$token}")
        #expect(p.renditions[0].uri == "https://origin.example.com/vod/title/audio/en.m3u8")
        #expect(p.renditions[2].uri == nil)
        #expect(p.iFrameVariants[0].uri == "https://origin.example.com/vod/title/video/720-iframes.m3u8")
        #expect(p.sessionData[1].uri == "https://origin.example.com/vod/title/lyrics.json")
        #expect(p.sessionKeys[0].uri == "skd://key")
        #expect(p.contentSteering?.serverURI == "https://origin.example.com/steering?video=00012")
    }

    @Test func mediaURIsResolve() throws {
        var p = try MediaPlaylist(
            parsing: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1
                #EXT-X-KEY:METHOD=AES-128,URI="../keys/k1"
                #EXT-X-MAP:URI="init.mp4"
                #EXT-X-PART:DURATION=1,URI="p0.mp4"
                #EXTINF:4,
                /abs/s0.mp4
                #EXT-X-PART:DURATION=1,URI="p1.mp4"
                #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p2.mp4"
                #EXT-X-RENDITION-REPORT:URI="../hi/index.m3u8",LAST-MSN=1
                """)
        p.resolveURIs(against: "http://o/a/b/index.m3u8")
        #expect(p.segments[0].keys[0].uri == "http://o/a/keys/k1")
        #expect(p.segments[0].map?.uri == "http://o/a/b/init.mp4")
        #expect(p.segments[0].parts[0].uri == "http://o/a/b/p0.mp4")
        #expect(p.segments[0].uri == "http://o/abs/s0.mp4")
        #expect(p.trailer?.parts[0].uri == "http://o/a/b/p1.mp4")
        #expect(p.preloadHints[0].uri == "http://o/a/b/p2.mp4")
        #expect(p.renditionReports[0].uri == "http://o/a/hi/index.m3u8")
    }
}
