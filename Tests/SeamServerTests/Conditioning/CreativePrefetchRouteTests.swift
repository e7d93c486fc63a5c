import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SeamTesting
import Testing
@testable import SeamServer

/// `POST /v1/creatives/prefetch` in process, over an origin and ad server in memory: what it
/// refuses and why, the token, and what it answers for creatives that cannot be downloaded and
/// for an ad tag's ads (no ffmpeg runs here: the end-to-end test conditions for real).
@Suite struct CreativePrefetchRouteTests {
    static let contentURL: String = "https://origin.test/title/master.m3u8"
    static let vastURL: String = "https://ads.test/vast.xml"
    static let missingMP4: String = "https://ads.test/missing.mp4"

    /// A title whose playlists say everything the ladder needs (no probe).
    static let origin: [String: FakeRoute] = [
        contentURL: .body(
            """
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",SAMPLE-RATE=48000,URI="audio.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=960x540,FRAME-RATE=25.000,AUDIO="aud"
            v540.m3u8

            """),
        "https://origin.test/title/v540.m3u8": .body(media("v")),
        "https://origin.test/title/audio.m3u8": .body(media("a")),
        vastURL: .body(
            """
            <VAST version="4.2"><Ad id="hls-ad" sequence="1"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle><Impression>https://ads.test/i</Impression>
            <Creatives><Creative><Linear><Duration>00:00:06</Duration><MediaFiles>
            <MediaFile delivery="streaming" type="application/x-mpegURL" width="960" height="540"><![CDATA[https://ads.test/hls/master.m3u8]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            <Ad id="mp4-ad" sequence="2"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle><Impression>https://ads.test/i</Impression>
            <Creatives><Creative><UniversalAdId idRegistry="test-reg">SPOT-1</UniversalAdId><Linear><Duration>00:00:06</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720"><![CDATA[\(missingMP4)]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """),
    ]

    static func media(_ prefix: String) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + (0..<3).map { "#EXTINF:6.0,\n\(prefix)\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
    }

    static func run(
        conditioning: Bool = true, token: String = "", domains: [String]? = nil, perMinute: Int? = nil,
        clock: TestClock? = nil,
        _ body: @escaping @Sendable (any TestClientProtocol, FakeUpstream) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-prefetch-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = SeamConfiguration()
        if conditioning { configuration.conditioning.directory = directory }
        configuration.conditioning.prefetchToken = token
        if let domains {
            configuration.domains.mode = .custom
            configuration.domains.hosts = domains
        }
        if let perMinute { configuration.conditioning.prefetchPerMinute = perMinute }
        let upstream = FakeUpstream(origin)
        try await FaultMatrixApp.make(configuration, upstream: upstream, clock: clock).test(.router) { client in
            try await body(client, upstream)
        }
    }

    static func post(
        _ client: any TestClientProtocol, _ json: String, token: String? = nil
    ) async throws -> FaultMatrixApp.Answer {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(
            uri: "/v1/creatives/prefetch", method: .post, headers: headers, body: ByteBuffer(string: json)
        ) { response in
            if response.status == .unauthorized { #expect(response.headers[.wwwAuthenticate] == "Bearer") }
            return FaultMatrixApp.Answer(status: Int(response.status.code), body: String(buffer: response.body))
        }
    }

    static let refusalTable: [(String, String, Int, String, String)] = [
        ("not JSON", "nope", 400, "INVALID_REQUEST", "contentUrl"),
        (
            "an unknown field, named", #"{"contentUrl": "\#(contentURL)", "adTagURL": "x"}"#, 400, "INVALID_REQUEST",
            "\"adTagURL\""
        ),
        (
            "an unknown field of a creative",
            #"{"contentUrl": "\#(contentURL)", "creatives": [{"url": "https://a.test/x.mp4", "id": 1}]}"#, 400,
            "INVALID_REQUEST", "\"id\""
        ),
        ("nothing to condition", #"{"contentUrl": "\#(contentURL)"}"#, 400, "INVALID_REQUEST", "adTagUrl"),
        (
            "a content URL that is not http(s)", #"{"contentUrl": "file:///etc/passwd", "adTagUrl": "\#(vastURL)"}"#,
            400, "INVALID_PLAYBACK_URL", "contentUrl"
        ),
        (
            "an ad tag that is not a URL", #"{"contentUrl": "\#(contentURL)", "adTagUrl": "vast.xml"}"#, 400,
            "INVALID_REQUEST", "adTagUrl"
        ),
        (
            "a creative that is not a URL",
            #"{"contentUrl": "\#(contentURL)", "creatives": [{"url": "ftp://a/x.mp4"}]}"#, 400, "INVALID_REQUEST", "url"
        ),
        (
            "a universal ad id without its registry",
            #"{"contentUrl": "\#(contentURL)", "creatives": [{"url": "\#(missingMP4)", "universalAdId": "SPOT-1"}]}"#,
            400, "INVALID_REQUEST", "registry:value"
        ),
        (
            "a wait beyond two minutes",
            #"{"contentUrl": "\#(contentURL)", "adTagUrl": "\#(vastURL)", "waitSeconds": 600}"#, 400, "INVALID_REQUEST",
            "waitSeconds"
        ),
        (
            "too many creatives",
            #"{"contentUrl": "\#(contentURL)", "creatives": [\#(Array(repeating: #"{"url": "https://a.test/x.mp4"}"#, count: 21).joined(separator: ","))]}"#,
            400, "INVALID_REQUEST", "at most 20"
        ),
    ]

    @Test("Refused before anything is fetched, with the field named", arguments: Self.refusalTable)
    func refused(name: String, json: String, status: Int, code: String, mentions: String) async throws {
        try await Self.run { client, upstream in
            let answer = try await Self.post(client, json)
            #expect(answer.status == status, "\(name): \(answer.body)")
            #expect(answer.errorCode == code, "\(name): \(answer.body)")
            #expect(answer.errorMessage?.contains(mentions) == true, "\(name): \(answer.body)")
            #expect(await upstream.recorder.urls.isEmpty, "\(name)")
        }
    }

    @Test("Conditioning off: 409 FEATURE_OFF naming the setting; a title Seam does not intercept: 403")
    func offAndNotIntercepted() async throws {
        let body = #"{"contentUrl": "\#(Self.contentURL)", "adTagUrl": "\#(Self.vastURL)"}"#
        try await Self.run(conditioning: false) { client, _ in
            let answer = try await Self.post(client, body)
            #expect(answer.status == 409 && answer.errorCode == "FEATURE_OFF", "\(answer.body)")
            #expect(answer.errorMessage?.contains("conditioning.directory") == true)
        }
        try await Self.run(domains: ["cdn.example"]) { client, upstream in
            let answer = try await Self.post(client, body)
            #expect(answer.status == 403 && answer.errorCode == "DOMAIN_NOT_ALLOWED", "\(answer.body)")
            #expect(await upstream.recorder.urls.isEmpty)
        }
    }

    @Test(
        "Per client, conditioning.prefetchPerMinute requests a minute: the next is 429 RATE_LIMITED with Retry-After, then allowed again as time passes"
    )
    func rateLimited() async throws {
        let body = #"{"contentUrl": "\#(Self.contentURL)", "creatives": [{"url": "\#(Self.missingMP4)"}]}"#
        let clock = TestClock()
        try await Self.run(perMinute: 2, clock: clock) { client, _ in
            for _ in 0..<2 {
                let answer = try await Self.post(client, body)
                #expect([200, 202].contains(answer.status), "\(answer.body)")
            }
            let refused = try await client.execute(
                uri: "/v1/creatives/prefetch", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: body)
            ) { response in
                (Int(response.status.code), response.headers[.retryAfter], String(buffer: response.body))
            }
            #expect(refused.0 == 429, "\(refused.2)")
            #expect(refused.1 == "30", "one request a 30 s at 2 a minute")
            #expect(
                refused.2.contains("RATE_LIMITED") && refused.2.contains("conditioning.prefetchPerMinute"),
                "\(refused.2)")
            clock.advance(.seconds(31))
            let again = try await Self.post(client, body)
            #expect([200, 202].contains(again.status), "\(again.body)")
        }
    }

    @Test("With conditioning.prefetchToken set, no token or a wrong one is 401; the right one is served")
    func token() async throws {
        let body = #"{"contentUrl": "\#(Self.contentURL)", "creatives": [{"url": "\#(Self.missingMP4)"}]}"#
        try await Self.run(token: "s3cret-token") { client, _ in
            for given in [nil, "wrong", "s3cret-toke", "s3cret-token-"] {
                let answer = try await Self.post(client, body, token: given)
                #expect(
                    answer.status == 401 && answer.errorCode == "UNAUTHORIZED", "\(given ?? "none"): \(answer.body)")
            }
            let answer = try await Self.post(client, body, token: "s3cret-token")
            #expect([200, 202].contains(answer.status), "\(answer.body)")
        }
    }

    @Test(
        "An MP4 that cannot be downloaded: failed with why, and asked again it is not fetched again before its retry time"
    )
    func failedDownload() async throws {
        try await Self.run { client, upstream in
            let body =
                #"{"contentUrl": "\#(Self.contentURL)", "creatives": [{"url": "\#(Self.missingMP4)"}], "waitSeconds": 10}"#
            let answer = try await Self.post(client, body)
            #expect(answer.status == 200, "\(answer.body)")
            let creative = try #require((answer.json["creatives"] as? [[String: Any]])?.first)
            #expect(creative["status"] as? String == "failed")
            #expect(creative["identity"] as? String == Self.missingMP4, "no universal ad id given: kept by its URL")
            #expect((creative["detail"] as? String)?.contains("could not be downloaded") == true, "\(creative)")
            #expect(creative["retryAt"] is String)
            #expect(creative["manifestUrl"] == nil)
            #expect((answer.json["ladder"] as? String)?.count == 16)
            let again = try await Self.post(
                client, #"{"contentUrl": "\#(Self.contentURL)", "creatives": [{"url": "\#(Self.missingMP4)"}]}"#)
            #expect(again.status == 200)
            #expect(((again.json["creatives"] as? [[String: Any]])?.first?["status"] as? String) == "failed")
            #expect(await upstream.recorder.urls.filter { $0 == Self.missingMP4 }.count == 1)
        }
    }

    @Test(
        "An ad tag: its MP4-only ad is conditioned by its universal ad id (also when listed by URL alone); its HLS ad needs nothing, and says so"
    )
    func adTag() async throws {
        try await Self.run { client, _ in
            // The same MP4 also listed without its universal ad id: once, kept by the id the ad tag gives.
            let answer = try await Self.post(
                client,
                #"{"contentUrl": "\#(Self.contentURL)", "adTagUrl": "\#(Self.vastURL)", "creatives": [{"url": "\#(Self.missingMP4)"}], "waitSeconds": 10}"#
            )
            #expect(answer.status == 200, "\(answer.body)")
            let creatives = try #require(answer.json["creatives"] as? [[String: Any]])
            #expect(creatives.count == 1)
            #expect(creatives.first?["url"] as? String == Self.missingMP4)
            #expect(creatives.first?["identity"] as? String == "test-reg:SPOT-1")
            #expect(creatives.first?["status"] as? String == "failed")
            let others = try #require(answer.json["notConditioned"] as? [[String: Any]])
            #expect(others.count == 1)
            #expect(others.first?["adId"] as? String == "hls-ad")
            #expect((others.first?["reason"] as? String)?.contains("HLS") == true)
        }
    }
}
