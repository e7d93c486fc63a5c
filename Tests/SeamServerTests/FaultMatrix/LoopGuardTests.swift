import Foundation
import Testing
import SeamTesting
@testable import SeamServer

/// No Seam inside a Seam (issue 23; `LoopGuard`): before, one GET of a nested Seam URL made 40
/// sessions, 40 ad decisions and 40 stacked pre-rolls. Now the first level refuses it.
@Suite struct LoopGuardTests {
    static let content = FaultMedia.vod(segments: 3)

    @Test(
        "A Seam URL as the content: refused at the first level with 403 LOOP_DETECTED, at Seam's own address (no fetch) and under another name (its own answer is marked); no nested session"
    )
    func nestedSeamURLsAreRefused() async throws {
        let origin = FaultServer(["/content/index.m3u8": .text(Self.content)])
        let ads = FaultServer(["/vast": .text(#"<VAST version="4.2"></VAST>"#, contentType: "application/xml")])
        try await origin.run { originBase in
            try await ads.run { adsBase in
                try await SeamStack.run({ $0.ads.adTagURL = adsBase + "/vast" }) { stack in
                    let originHost = try #require(URLComponents(string: originBase)?.port).description
                    let seamPort = try #require(URLComponents(string: stack.seamBaseURL)?.port)
                    // The inner URL smuggles its scheme one level deeper, as the probe did.
                    let inner = "/v1/hls/127.0.0.1:\(originHost)/content/index.m3u8?seam.scheme=http"
                    // 1. At the address the request reached Seam at: refused before any fetch.
                    let own = try await stack.request(
                        "/v1/sessions", method: .POST, json: ["url": stack.seamBaseURL + inner])
                    #expect(own.status == 403 && own.errorCode == "LOOP_DETECTED", "\(own.body)")
                    #expect(own.header("Via") == "1.1 seam")
                    // 2. Under another name for the same Seam: fetched once, refused there
                    // (CDN-Loop: seam), and the refusal's mark ends it here too.
                    let alias = "http://localhost:\(seamPort)" + inner
                    let aliased = try await stack.request("/v1/sessions", method: .POST, json: ["url": alias])
                    #expect(aliased.status == 403 && aliased.errorCode == "LOOP_DETECTED", "\(aliased.body)")
                    // The implicit route, nested: the same.
                    let implicit = try await stack.request("/v1/hls/localhost:\(seamPort)\(inner)")
                    #expect(
                        implicit.status == 403 && implicit.errorCode == "LOOP_DETECTED",
                        "\(implicit.status) \(implicit.headers) \(implicit.body)")
                    // No session was made and the ad server was never asked: no stacked pre-rolls.
                    #expect(ads.requests("/vast") == 0)
                    #expect(origin.requests() == 0)
                    // A direct session still works, and what Seam asks the origin carries its mark.
                    let session = try await stack.createSession(url: originBase + "/content/index.m3u8")
                    #expect(session["sessionId"] != nil)
                    #expect(origin.received("/content/").first?.header("CDN-Loop") == "seam")
                }
            }
        }
    }

    @Test(
        "A request marked CDN-Loop: seam (any case, among other CDNs, with parameters) is refused on the session routes only; session answers carry Via: 1.1 seam"
    )
    func marks() async throws {
        #expect(LoopGuard.marked(cdnLoop: ["seam"]))
        #expect(LoopGuard.marked(cdnLoop: ["foo, Seam; v=1"]))
        #expect(LoopGuard.marked(cdnLoop: ["foo", "bar , seam"]))
        #expect(!LoopGuard.marked(cdnLoop: ["seamless", "foo; seam=1"]))
        #expect(LoopGuard.marked(via: ["1.1 seam"]))
        #expect(LoopGuard.marked(via: ["1.0 fred, 1.1 SEAM (Seam)"]))
        #expect(!LoopGuard.marked(via: ["1.1 seam.example.com", "seam"]))
        try await SeamStack.run { stack in
            for path in ["/v1/sessions", "/v1/hls/127.0.0.1:9/a.m3u8", "/v1/sessions/abc/master.m3u8"] {
                let answer = try await stack.request(
                    path, method: path == "/v1/sessions" ? .POST : .GET,
                    json: path == "/v1/sessions" ? ["url": stack.demo.contentURL] : nil,
                    headers: [("CDN-Loop", "other-cdn, seam")])
                #expect(answer.status == 403 && answer.errorCode == "LOOP_DETECTED", "\(path): \(answer.body)")
            }
            let health = try await stack.request("/healthz", headers: [("CDN-Loop", "seam")])
            #expect(health.status == 200)
            #expect(health.header("Via") == nil)
            let created = try await stack.request("/v1/sessions", method: .POST, json: ["url": stack.demo.contentURL])
            #expect(created.status == 201)
            #expect(created.header("Via") == "1.1 seam")
        }
    }
}
