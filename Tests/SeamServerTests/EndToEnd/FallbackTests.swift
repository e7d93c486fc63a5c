import Foundation
import HLS
import NIOHTTP1
import Testing
import SeamDemo
import SeamTesting
@testable import SeamServer

/// Every way the ad side or the origin can fail, over real HTTP: the viewer still gets a
/// playable stream (or a clear error), and the avail records why it is empty.
@Suite struct FallbackTests {
    /// Creates a session against `adTag` and returns the first avail's skip reason, after
    /// checking the stream is the plain content (60 s, no discontinuities).
    ///
    /// The stack's ad budget (`SeamStack.generousAdBudgetSeconds`) is far longer than any of these
    /// failures takes, so a reason other than `ADS_TIMEOUT`/`BUDGET_EXHAUSTED` says the failure
    /// ended the viewer's wait before the budget did — without timing it against the wall clock.
    func skipReason(
        adTag: @escaping (DemoServers) -> String, _ adjust: @escaping (inout SeamConfiguration) -> Void = { _ in }
    )
        async throws -> (reason: String?, avail: [String: Any])
    {
        let box = ResultBox()
        try await SeamStack.run(adTag: adTag, adjust) { stack in
            let session = try await stack.createSession()
            let manifest = try #require(session["manifestUrl"] as? String)
            let master = try MultivariantPlaylist(parsing: try await stack.request(manifest).body)
            let media = try MediaPlaylist(parsing: try await stack.request(master.variants[0].uri).body)
            #expect(media.segments.filter(\.discontinuity).isEmpty)
            #expect(abs(media.duration - 60) < 0.01)
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avail = (tracking["avails"] as? [[String: Any]])?.first ?? [:]
            box.set(avail)
        }
        let avail = box.value
        #expect((avail["ads"] as? [Any])?.isEmpty == true)
        return (avail["skipReason"] as? String, avail)
    }

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String: Any] = [:]
        func set(_ value: [String: Any]) { lock.withLock { stored = value } }
        var value: [String: Any] { lock.withLock { stored } }
    }

    @Test func adServerTimeout() async throws {
        // The ad server would answer after 8 s; the per-request time-out (1 s) ends the wait, well
        // inside the stack's 20 s budget: ADS_TIMEOUT naming the request time-out, not the budget.
        let result = try await skipReason(
            adTag: { $0.adServer.baseURL + "/vast/slow.xml?ms=8000" }, { $0.ads.requestTimeoutSeconds = 1 })
        #expect(result.reason == "ADS_TIMEOUT")
        #expect(
            (result.avail["skipDetail"] as? String).map { $0.contains("did not answer within 1") } == true,
            "\(result.avail)")
    }

    @Test func adServerError500() async throws {
        #expect(try await skipReason(adTag: { $0.adServer.baseURL + "/vast/error500" }).reason == "ADS_ERROR")
    }

    @Test func emptyVAST() async throws {
        #expect(try await skipReason(adTag: { $0.adServer.baseURL + "/vast/empty" }).reason == "NO_FILL")
    }

    @Test func malformedXML() async throws {
        #expect(try await skipReason(adTag: { $0.adServer.baseURL + "/vast/malformed" }).reason == "INVALID_VAST")
    }

    @Test func wrapperLoop() async throws {
        #expect(try await skipReason(adTag: { $0.adServer.baseURL + "/vast/wrapper-loop" }).reason == "WRAPPER_LOOP")
    }

    @Test func overDeepWrapperChain() async throws {
        // Six wrapper fetches before the limit: WRAPPER_LIMIT (not ADS_TIMEOUT or BUDGET_EXHAUSTED)
        // says the chain was cut by its depth, before the budget ended.
        #expect(
            try await skipReason(adTag: { $0.adServer.baseURL + "/vast/wrapper-chain?depth=6" }).reason
                == "WRAPPER_LIMIT")
    }

    @Test func creativeWithoutHLSRendition() async throws {
        let result = try await skipReason(adTag: { $0.adServer.baseURL + "/vast/vast-no-hls.xml" })
        #expect(result.reason == "NO_VARIANT_MATCH")
        let skipped = result.avail["skippedAds"] as? [[String: Any]] ?? []
        #expect(skipped.first?["adId"] as? String == "nohls")
        #expect((skipped.first?["reason"] as? String)?.contains("HLS") == true)
    }

    @Test func originDownWithoutFallbackIsOriginUnavailable() async throws {
        try await SeamStack.run { stack in
            let answer = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": "http://127.0.0.1:9/media/none.m3u8"])
            #expect(answer.status == 502)
            #expect(answer.errorCode == "ORIGIN_UNAVAILABLE")
        }
    }

    @Test func originDownWithFallbackRedirects() async throws {
        try await SeamStack.run { stack in
            let answer = try await stack.request(
                "/v1/sessions", method: .POST,
                json: [
                    "url": "http://127.0.0.1:9/media/none.m3u8", "fallbackUrl": "https://backup.example.com/title.m3u8",
                ])
            #expect(answer.status == 302)
            #expect(answer.header("location") == "https://backup.example.com/title.m3u8")
        }
    }

    @Test func originAnsweringGarbageIsOriginInvalidPlaylist() async throws {
        try await SeamStack.run { stack in
            let answer = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": stack.demo.adServer.baseURL + "/vast/vast-midroll.xml"])
            #expect(answer.status == 502)
            #expect(answer.errorCode == "ORIGIN_INVALID_PLAYLIST")
        }
    }

    @Test func privateAndLinkLocalHostsAreRefused() async throws {
        try await SeamStack.run({ $0.upstream.allowPrivateNetworks = false }) { stack in
            for url in [
                stack.demo.contentURL, "http://169.254.169.254/latest/meta-data.m3u8", "http://10.0.0.1/x.m3u8",
                "http://[::1]:80/x.m3u8",
            ] {
                let answer = try await stack.request("/v1/sessions", method: .POST, json: ["url": url])
                #expect(answer.status == 403, "\(url): \(answer.body)")
                #expect(answer.errorCode == "DOMAIN_NOT_ALLOWED")
            }
        }
    }

    @Test func hostsOutsideTheAllowListAreRefused() async throws {
        try await SeamStack.run({ $0.upstream.allowedHosts = ["cdn.example.com"] }) { stack in
            let answer = try await stack.request("/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL])
            #expect(answer.status == 403)
            #expect(answer.errorCode == "DOMAIN_NOT_ALLOWED")
        }
    }

    @Test func notInterceptedDomainsPassThrough() async throws {
        try await SeamStack.run({
            $0.domains.mode = .custom; $0.domains.hosts = ["*.example.com"]
        }) { stack in
            let created = try await stack.request("/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL])
            #expect(created.status == 200)
            #expect(created.json["manifestUrl"] as? String == stack.demo.contentURL)
            let path =
                "/v1/hls/\(stack.demo.origin.host):\(stack.demo.origin.port)/media/content/master.m3u8?seam.scheme=http"
            let implicit = try await stack.request(path)
            #expect(implicit.status == 302)
            #expect(implicit.header("location") == stack.demo.contentURL)
        }
    }

    @Test func implicitSessionRedirectsToItsStitchedPlaylist() async throws {
        try await SeamStack.run { stack in
            let path =
                "/v1/hls/\(stack.demo.origin.host):\(stack.demo.origin.port)/media/content/master.m3u8?seam.scheme=http&ads.genre=news"
            let implicit = try await stack.request(path)
            #expect(implicit.status == 302)
            let location = try #require(implicit.header("location"))
            #expect(location.hasPrefix(stack.seamBaseURL + "/v1/sessions/"))
            let master = try await stack.request(location)
            #expect(master.status == 200)
            #expect(try MultivariantPlaylist(parsing: master.body).variants.count == 3)
            // The ad request carried the ads.* parameter.
            let log = try await stack.request(stack.demo.beaconsURL).json
            let queries = (log["adRequests"] as? [[String: Any]] ?? []).compactMap { $0["query"] as? String }
            #expect(queries.contains { $0.contains("genre=news") }, "\(queries)")
        }
    }

    @Test func expiredSessionAnswers410WithAHint() async throws {
        let clock = TestClock()
        try await SeamStack.run(clock: clock, { $0.sessions.ttlSeconds = 60 }) { stack in
            let session = try await stack.createSession()
            let manifest = try #require(session["manifestUrl"] as? String)
            clock.advance(.seconds(59))
            #expect(try await stack.request(manifest).status == 200)
            clock.advance(.seconds(61))
            let answer = try await stack.request(manifest)
            #expect(answer.status == 410)
            #expect(answer.errorCode == "SESSION_EXPIRED")
            #expect(
                (answer.json["error"] as? [String: Any])?["message"].map { "\($0)".contains("new session") } == true)
        }
    }

    @Test func keepAliveExtendsAndDeleteEnds() async throws {
        // Three keep-alives, each 40 s apart, keep a 60 s session alive for 120 s; without them it
        // would have expired (expiredSessionAnswers410WithAHint). Time is the test's clock.
        let clock = TestClock()
        try await SeamStack.run(
            clock: clock,
            {
                $0.sessions.ttlSeconds = 60; $0.sessions.keepAliveSeconds = 10
            }
        ) { stack in
            let session = try await stack.createSession()
            let id = try #require(session["sessionId"] as? String)
            for _ in 0..<3 {
                clock.advance(.seconds(40))
                let alive = try await stack.request("/v1/sessions/\(id)/keepalive", method: .POST)
                #expect(alive.status == 200, "\(alive.body)")
            }
            #expect(try await stack.request("/v1/sessions/\(id)/master.m3u8").status == 200)
            #expect(try await stack.request("/v1/sessions/\(id)", method: .DELETE).status == 204)
            // Ended, and issued here: gone (410), like an expired one; an id never issued is 404.
            #expect(try await stack.request("/v1/sessions/\(id)/master.m3u8").status == 410)
            #expect(
                try await stack.request("/v1/sessions/\(String(repeating: "a", count: SessionID.length))/master.m3u8")
                    .errorCode == "SESSION_NOT_FOUND")
            #expect(try await stack.request("/v1/sessions/../../etc/passwd").status == 404)
        }
    }

    @Test func badRequestsGetClearErrors() async throws {
        try await SeamStack.run { stack in
            let notHTTP = try await stack.request("/v1/sessions", method: .POST, json: ["url": "file:///etc/passwd"])
            #expect(notHTTP.status == 400)
            #expect(notHTTP.errorCode == "INVALID_PLAYBACK_URL")
            let noURL = try await stack.request("/v1/sessions", method: .POST, json: ["fallbackUrl": "x"])
            #expect(noURL.status == 400)
        }
    }

    @Test func clientSideTrackingHandsTheBeaconsToThePlayer() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession(["trackingMode": "client"])
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let ads = ((tracking["avails"] as? [[String: Any]])?.first?["ads"] as? [[String: Any]]) ?? []
            let events = ads.first?["trackingEvents"] as? [[String: Any]] ?? []
            let impression = events.first { $0["event"] as? String == "impression" }
            #expect((impression?["beaconUrls"] as? [String])?.first?.contains("/track/ad1/impression") == true)
            let master = try MultivariantPlaylist(
                parsing: try await stack.request(try #require(session["manifestUrl"] as? String)).body)
            let media = try await stack.request(master.variants[0].uri).body
            #expect(!media.contains("/ad/0/"), "client mode must not route ad segments through Seam")
            #expect(try await stack.beacons().isEmpty)
        }
    }
}
