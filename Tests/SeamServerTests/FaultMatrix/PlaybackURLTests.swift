import Foundation
import HummingbirdTesting
import Testing
@testable import SeamServer

/// `POST /v1/sessions` takes only URLs Seam can use: `url` and `fallbackUrl` absolute http(s) in
/// any letter case; anything Seam cannot parse is `400 INVALID_PLAYBACK_URL`, never a pass-through.
@Suite struct PlaybackURLTests {
    func post(
        _ body: [String: String], _ adjust: (inout SeamConfiguration) -> Void = { _ in }
    ) async throws -> FaultMatrixApp.Answer {
        var configuration = SeamConfiguration()
        adjust(&configuration)
        return try await FaultMatrixApp.make(configuration, upstream: FaultMatrixOrigin()).test(.router) { client in
            try await client.call("/v1/sessions", method: .post, json: body)
        }
    }

    @Test(
        "fallbackUrl must be http(s): ftp, javascript, data, relative and unparseable ones are 400 INVALID_PLAYBACK_URL",
        arguments: [
            "ftp://backup.example.com/master.m3u8", "javascript:alert(document.cookie)", "JavaScript://x/%0Aalert(1)",
            "data:text/plain,hi", "/relative/master.m3u8", "https://backup.example.com/a\r\nSet-Cookie: x=1",
            "https://",
            "https://user@backup.example.com/master.m3u8", "",
        ])
    func fallbackMustBeHTTP(fallback: String) async throws {
        let answer = try await post(["url": FaultMatrixOrigin.vodURL, "fallbackUrl": fallback])
        #expect(answer.status == 400, "\(fallback): \(answer.body)")
        #expect(answer.errorCode == "INVALID_PLAYBACK_URL", "\(answer.body)")
        #expect(answer.errorMessage?.contains("fallbackUrl") == true, "\(answer.body)")
    }

    @Test(
        "Schemes are case-insensitive: HTTPS:// and HtTp:// URLs and fallbacks are accepted",
        arguments: [
            "HTTPS://origin.test/vod/master.m3u8", "HtTpS://ORIGIN.test/vod/master.m3u8",
            "https://origin.test/vod/master.m3u8",
        ])
    func upperCaseSchemes(url: String) async throws {
        let answer = try await post(["url": url, "fallbackUrl": "HTTPS://backup.example.com/master.m3u8"])
        #expect(answer.status == 201, "\(url): \(answer.body)")
        #expect((answer.json["manifestUrl"] as? String)?.hasSuffix("/master.m3u8") == true)
    }

    @Test("An HTTPS:// URL of a host the matcher does not intercept passes through unchanged")
    func upperCaseSchemePassThrough() async throws {
        let url = "HTTPS://elsewhere.example.com/master.m3u8"
        let answer = try await post(["url": url]) {
            $0.domains.mode = .custom; $0.domains.hosts = ["origin.test"]
        }
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.json["manifestUrl"] as? String == url)
        #expect(answer.json["intercepted"] as? Bool == false)
    }

    @Test(
        "A url Seam cannot parse is 400 INVALID_PLAYBACK_URL in every domains.mode, never 200 intercepted:false",
        arguments: [
            "https://exa mple.com/master.m3u8", "https://user@origin.test/vod/master.m3u8", "https://[::1/master.m3u8",
            "https://origin.test:99999/master.m3u8", "https://%6Frigin.test/master.m3u8", "http://",
            "https:/origin.test/x.m3u8",
            "ftp://origin.test/master.m3u8", "origin.test/master.m3u8", "https://origin.test\\@evil.test/x.m3u8",
        ])
    func unparseableURL(url: String) async throws {
        for mode in [SeamConfiguration.Domains.Mode.all, .none, .custom] {
            let answer = try await post(["url": url]) {
                $0.domains.mode = mode; $0.domains.hosts = ["origin.test"]
            }
            #expect(answer.status == 400, "\(mode) \(url): \(answer.status) \(answer.body)")
            #expect(answer.errorCode == "INVALID_PLAYBACK_URL", "\(mode) \(url): \(answer.body)")
            #expect(answer.json["intercepted"] == nil)
        }
    }

    @Test("Configuration takes upper-case schemes too: ads.adTagURL, live.slateURL, live.schedules prefixes")
    func configurationSchemes() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(
            yaml: nil,
            overrides: [
                "ads.adTagURL": "HTTPS://ads.example.com/vast?sid={session.id}",
                "live.slateURL": "HTTPS://cdn.example.com/slate/master.m3u8",
                "live.schedules": "HTTPS://Origin.Example.com/live/ch1/ every=300 offset=60 duration=30",
            ])
        let schedule = try configuration.live.schedule(for: "https://origin.example.com/live/ch1/master.m3u8")
        #expect(schedule?.everySeconds == 300)
        #expect(try configuration.live.schedule(for: "HTTPS://ORIGIN.EXAMPLE.COM/live/ch1/master.m3u8") != nil)
        #expect(
            try configuration.live.schedule(for: "https://origin.example.com/LIVE/ch1/master.m3u8") == nil,
            "paths stay case-sensitive")
    }
}
