import Foundation
import SeamDemo
import SeamServer
import SeamTesting
import Testing

/// The per-session debug route, `GET /v1/admin/sessions/{id}`, as an operator uses it: off
/// without `debug.token`, closed without the token, and with it one session's plan and story —
/// each ad request and wrapper hop, each ad's verdict, each avail, each beacon with its answer.
@Suite struct SessionDebugEndToEndTests {
    static let token = "debug-token-for-tests-0123456789"

    /// A stack with the debug route on (and whatever else `adjust` sets).
    static func withDebug(
        adTag: ((DemoServers) -> String)? = nil, _ adjust: @escaping (inout SeamConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (SeamStack) async throws -> Void
    ) async throws {
        try await SeamStack.run(
            adTag: adTag,
            { configuration in
                configuration.debug.token = token
                adjust(&configuration)
            }, body)
    }

    /// The session's debug document, once its story is written.
    static func story(_ stack: SeamStack, _ id: String) async throws -> [String: Any] {
        await stack.drainStories()
        let answer = try await stack.request(
            "/v1/admin/sessions/\(id)", headers: [("Authorization", "Bearer \(token)")])
        #expect(answer.status == 200, "\(answer.body)")
        return answer.json
    }

    static func entries(_ document: [String: Any], _ event: String) -> [[String: Any]] {
        (document["story"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == event }
    }

    @Test("Without debug.token the route does not exist: 404 for a session that does")
    func offWithoutToken() async throws {
        try await SeamStack.run { stack in
            let id = try #require(try await stack.createSession()["sessionId"] as? String)
            let answer = try await stack.request(
                "/v1/admin/sessions/\(id)", headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(answer.status == 404)
        }
    }

    @Test("With debug.token: 401 without the token or with a wrong one, naming the setting")
    func closedWithoutTheToken() async throws {
        try await Self.withDebug { stack in
            let id = try #require(try await stack.createSession()["sessionId"] as? String)
            for headers in [
                [], [("Authorization", "Bearer wrong-token-of-the-same-size-xx")], [("Authorization", Self.token)],
            ] {
                let answer = try await stack.request("/v1/admin/sessions/\(id)", headers: headers)
                #expect(answer.status == 401, "\(headers)")
                #expect(answer.header("WWW-Authenticate") == "Bearer")
                #expect(answer.errorCode == "UNAUTHORIZED")
                #expect(answer.body.contains("debug.token"), "\(answer.body)")
            }
            // Another id: its last two characters changed (an id may end in "zz" itself).
            let other = id.dropLast(2) + (id.hasSuffix("zz") ? "aa" : "zz")
            let unknown = try await stack.request(
                "/v1/admin/sessions/\(other)", headers: [("Authorization", "Bearer \(Self.token)")])
            #expect([404, 410].contains(unknown.status), "\(unknown.body)")
        }
    }

    @Test("The demo VOD session's story: its ad requests and wrapper hop, each ad, each creative match, each avail")
    func decisionsOfAVODSession() async throws {
        try await Self.withDebug { stack in
            let created = try await stack.createSession()
            let id = try #require(created["sessionId"] as? String)
            let document = try await Self.story(stack, id)
            #expect(document["sessionId"] as? String == id)
            #expect(document["kind"] as? String == "vod")
            #expect(document["contentUrl"] as? String == stack.demo.contentURL)

            // The plan is the tracking JSON's.
            let tracking = try await stack.request(try #require(created["trackingUrl"] as? String)).json
            let planAvails = (document["plan"] as? [String: Any])?["avails"] as? [[String: Any]] ?? []
            let trackedAvails = tracking["avails"] as? [[String: Any]] ?? []
            #expect(planAvails.count == 3)
            #expect(planAvails.map { $0["availId"] as? String } == trackedAvails.map { $0["availId"] as? String })

            // Each document fetched: the VMAP, each break's VAST, the mid-roll's wrapper target.
            let requests = Self.entries(document, "adRequest")
            #expect(requests.contains { ($0["url"] as? String)?.hasSuffix("/vmap") == true }, "\(requests)")
            for request in requests + Self.entries(document, "wrapperRequest") {
                #expect(request["outcome"] as? String == "ok", "\(request)")
                #expect(request["status"] as? Int == 200, "\(request)")
                #expect((request["bytes"] as? Int ?? 0) > 0, "\(request)")
                #expect(request["milliseconds"] is Int, "\(request)")
            }
            let wrappers = Self.entries(document, "wrapperRequest")
            #expect(wrappers.count == 1, "the mid-roll's wrapper is followed once: \(wrappers)")
            #expect(wrappers.first?["breakIndex"] as? Int == 1)

            // Every ad the ad server returned, with the media it plays, and the creative matched
            // to each of the content's variants.
            let selected = Self.entries(document, "adSelected").compactMap { $0["adId"] as? String }
            #expect(Set(selected) == ["ad1", "ad2", "ad3", "ad4"], "\(selected)")
            let matched = Self.entries(document, "creativeMatched")
            #expect(Set(matched.compactMap { $0["adId"] as? String }) == ["ad1", "ad2", "ad3", "ad4"])
            for match in matched {
                let renditions = match["renditions"] as? [String: String] ?? [:]
                #expect(!renditions.isEmpty, "\(match)")
                #expect(renditions.values.allSatisfy { $0.hasPrefix("creative variant ") }, "\(match)")
            }

            // One avail per break, as the plan has them.
            let avails = Self.entries(document, "avail")
            #expect(avails.compactMap { $0["breakIndex"] as? Int } == [0, 1, 2])
            #expect(avails.allSatisfy { $0["outcome"] as? String == "filled" }, "\(avails)")
            #expect(avails.compactMap { $0["count"] as? Int } == [2, 1, 1])
        }
    }

    @Test("An ad the session cannot play is in the story with its code and words")
    func skippedAdHasItsReason() async throws {
        try await Self.withDebug(adTag: { String($0.vmapURL.dropLast("/vmap".count)) + "/vast/vast-no-hls.xml" }) {
            stack in
            let id = try #require(try await stack.createSession()["sessionId"] as? String)
            let document = try await Self.story(stack, id)
            let skipped = Self.entries(document, "adSkipped")
            #expect(!skipped.isEmpty, "\(document)")
            #expect(skipped.allSatisfy { $0["reason"] as? String == "no_playable_media" }, "\(skipped)")
            #expect(skipped.allSatisfy { ($0["detail"] as? String)?.isEmpty == false }, "\(skipped)")
            let avail = try #require(Self.entries(document, "avail").first)
            #expect(avail["outcome"] as? String == "empty")
            #expect(avail["reason"] as? String == "NO_VARIANT_MATCH", "\(avail)")
            // The same code in the tracking JSON and at /metrics.
            let skippedInPlan =
                ((document["plan"] as? [String: Any])?["avails"] as? [[String: Any]])?.first?["skippedAds"]
                as? [[String: Any]] ?? []
            #expect(skippedInPlan.allSatisfy { $0["code"] as? String == "no_playable_media" }, "\(skippedInPlan)")
            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(
                metrics.sum("seam_ads_skipped_total", ["kind": "vod", "reason": "no_playable_media"])
                    == Double(skippedInPlan.count))
        }
    }

    @Test("A wrapper chain: each hop is an entry, in order, after the ad tag request")
    func wrapperHops() async throws {
        try await Self.withDebug(adTag: { String($0.vmapURL.dropLast("/vmap".count)) + "/vast/wrapper-chain?depth=3" })
        {
            stack in
            let id = try #require(try await stack.createSession()["sessionId"] as? String)
            let document = try await Self.story(stack, id)
            let story = document["story"] as? [[String: Any]] ?? []
            let fetched = story.filter { ["adRequest", "wrapperRequest"].contains($0["event"] as? String) }
                .filter { $0["breakIndex"] as? Int == 0 }
            #expect(
                fetched.map { $0["event"] as? String } == [
                    "adRequest", "wrapperRequest", "wrapperRequest", "wrapperRequest",
                ], "\(fetched)")
            #expect(fetched.allSatisfy { $0["outcome"] as? String == "ok" })
        }
    }

    @Test("Secrets and personal data in the ad tag's query are redacted, its other parameters shown")
    func urlsAreRedacted() async throws {
        try await Self.withDebug(adTag: { $0.vmapURL + "?api_token=s3cr3t&ip=[DEVICEIP]&cust=sports" }) { stack in
            let id = try #require(try await stack.createSession()["sessionId"] as? String)
            let document = try await Self.story(stack, id)
            let vmap = try #require(
                Self.entries(document, "adRequest").first { ($0["url"] as? String)?.contains("/vmap?") == true })
            let url = try #require(vmap["url"] as? String)
            #expect(url.contains("api_token=REDACTED"), "\(url)")
            #expect(url.contains("ip=REDACTED"), "\(url)")
            #expect(url.contains("cust=sports"), "\(url)")
            #expect(!url.contains("s3cr3t"), "\(url)")
        }
    }

    @Test("Each server-side beacon fired by an ad segment fetch, with the tracker's answer")
    func beaconsWithTheirAnswers() async throws {
        try await Self.withDebug { stack in
            let created = try await stack.createSession(["trackingMode": "server"])
            let id = try #require(created["sessionId"] as? String)
            let manifest = try #require(created["manifestUrl"] as? String)
            func absolute(_ uri: String, base: String) -> String {
                uri.hasPrefix("http") ? uri : String(base[...(base.lastIndex(of: "/") ?? base.startIndex)]) + uri
            }
            let master = try await stack.request(manifest)
            let variant = try #require(master.body.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
            let mediaURL = absolute(String(variant), base: manifest)
            let media = try await stack.request(mediaURL)
            let ad = try #require(media.body.split(separator: "\n").first { !$0.hasPrefix("#") && $0.contains("/ad/") })
            #expect(try await stack.request(absolute(String(ad), base: mediaURL)).status == 302)

            let document = try await Self.story(stack, id)
            let beacons = Self.entries(document, "beacon")
            let impressions = beacons.filter { $0["trackingEvent"] as? String == "impression" }
            #expect(!impressions.isEmpty, "\(beacons)")
            for beacon in beacons {
                #expect(beacon["outcome"] as? String == "sent", "\(beacon)")
                #expect((200..<400).contains(beacon["status"] as? Int ?? 0), "\(beacon)")
                #expect(beacon["count"] as? Int == 1, "\(beacon)")
                #expect(beacon["pod"] as? Int == 0 && beacon["adIndex"] as? Int == 0, "\(beacon)")
                #expect((beacon["url"] as? String)?.contains("/track/") == true, "\(beacon)")
            }
            // As many as the ad server logged.
            let logged = try await stack.beacons().filter { $0.contains("/track/") }
            #expect(beacons.count == logged.count, "\(logged)")
        }
    }

    @Test("The story keeps its newest debug.storyEntries and counts the rest")
    func bounded() async throws {
        try await Self.withDebug({ $0.debug.storyEntries = 3 }) { stack in
            let id = try #require(try await stack.createSession()["sessionId"] as? String)
            let document = try await Self.story(stack, id)
            let story = document["story"] as? [[String: Any]] ?? []
            #expect(story.count == 3)
            #expect((document["storyDropped"] as? Int ?? 0) > 0)
            // The newest: the last break's avail ends the story.
            #expect(story.last?["event"] as? String == "avail")
            #expect(story.last?["breakIndex"] as? Int == 2)
        }
    }

    @Test("seam session prints a session's plan and story from its manifest URL; a wrong token is refused")
    func sessionCommand() async throws {
        try await Self.withDebug { stack in
            guard let seam = PlayerTools.seamExecutable() else {
                Issue.record("the seam executable is not built next to the tests")
                return
            }
            let created = try await stack.createSession()
            let id = try #require(created["sessionId"] as? String)
            let manifest = try #require(created["manifestUrl"] as? String)
            await stack.drainStories()
            let run = try await PlayerTools.runAsync(seam, ["session", manifest, "--token", Self.token], timeout: 60)
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("session \(id) (vod, stitched)"), "\(run.output)")
            #expect(run.output.contains("plan: 3 breaks"), "\(run.output)")
            #expect(run.output.contains("adRequest break 0 ok"), "\(run.output)")
            #expect(run.output.contains("creativeMatched break 0 ad ad1"), "\(run.output)")
            #expect(run.output.contains("avail break 2 filled"), "\(run.output)")

            let json = try await PlayerTools.runAsync(
                seam, ["session", id, "--server", stack.seamBaseURL, "--token", Self.token, "--json"], timeout: 60)
            #expect(json.status == 0)
            #expect(json.json["sessionId"] as? String == id)

            let refused = try await PlayerTools.runAsync(
                seam, ["session", manifest, "--token", "not-the-token-0123456789"], timeout: 60)
            #expect(refused.status == 1)
            #expect(!refused.output.contains("plan:"))
        }
    }
}
