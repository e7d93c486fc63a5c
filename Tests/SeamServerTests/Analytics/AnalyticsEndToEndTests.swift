import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import SeamTesting
@testable import SeamServer

/// A collector on loopback: records every body POSTed to `/collect`.
final class AnalyticsCollector: Sendable {
    private let bodies = NIOLockedValueBox<[String]>([])

    func install(_ router: Router<BasicRequestContext>) {
        router.post("/collect") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 8 << 20)
            self.bodies.withLockedValue { $0.append(String(buffer: body)) }
            return Response(status: .ok)
        }
    }

    var received: [String] { bodies.withLockedValue { $0 } }

    /// Every event received, as JSON objects, in order.
    var events: [[String: Any]] {
        received.flatMap { body -> [[String: Any]] in
            let batch = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
            return batch?["events"] as? [[String: Any]] ?? []
        }
    }

    func events(of session: String) -> [[String: Any]] {
        events.filter { $0["sessionId"] as? String == session }
    }

    /// Waits (up to 15 s) until `done` holds for what was received.
    func wait(until done: @Sendable (AnalyticsCollector) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while !done(self) {
            guard ContinuousClock.now < deadline else {
                Issue.record("the collector did not receive the expected events; it has \(received)")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

@Suite("Session analytics end to end", .timeLimit(.minutes(2)))
struct AnalyticsEndToEndTests {
    static let userAgent = "AnalyticsTestPlayer/2.1 (Linux; unit 42)"
    static let deviceIP = "203.0.113.77"
    static let ifa = "6D92078A-8246-4BA4-AE5B-76104861E7DC"

    /// What one session sent: its events, and every body the collector received.
    struct Observed: @unchecked Sendable {
        var events: [[String: Any]]
        var bodies: [String]

        func first(_ type: String) -> [String: Any]? { events.first { $0["type"] as? String == type } }
        func all(_ type: String) -> [[String: Any]] { events.filter { $0["type"] as? String == type } }
    }

    /// Starts a Seam that sends analytics to a loopback collector under `mode`, creates a session
    /// with a known User-Agent, X-Forwarded-For and `ifa`, plays into its pre-roll's first ad
    /// segment (`fetchAd`), deletes it, and returns what the collector received for it.
    func observe(
        _ mode: AnalyticsPrivacyMode, fetchAd: Bool = false, allowStorage: Bool? = nil,
        _ adjust: @escaping @Sendable (inout SeamConfiguration) -> Void = { _ in }
    ) async throws -> Observed {
        let collector = AnalyticsCollector()
        let sessionID = NIOLockedValueBox<String>("")
        try await withInfraTestServer({ collector.install($0) }) { port in
            try await SeamStack.run({ configuration in
                configuration.analytics.endpoints = ["http://127.0.0.1:\(port)/collect"]
                configuration.analytics.privacy = mode
                configuration.analytics.flushSeconds = 0.1
                // The test client stands for the proxy in front of Seam: its X-Forwarded-For
                // names the viewer (server.trustedProxies).
                configuration.server.trustedProxies = ["127.0.0.1"]
                adjust(&configuration)
            }) { stack in
                var body: [String: Any] = [
                    "url": stack.demo.contentURL, "adParams": ["ifa": Self.ifa, "genre": "news"],
                ]
                if let allowStorage { body["consent"] = ["allowStorage": allowStorage] }
                let created = try await stack.request(
                    "/v1/sessions", method: .POST, json: body,
                    headers: [("User-Agent", Self.userAgent), ("X-Forwarded-For", Self.deviceIP)])
                #expect(created.status == 201, "\(created.body)")
                let id = try #require(created.json["sessionId"] as? String)
                sessionID.withLockedValue { $0 = id }
                if fetchAd {
                    try await fetchFirstAdSegment(stack, manifest: try #require(created.json["manifestUrl"] as? String))
                }
                let deleted = try await stack.request("/v1/sessions/\(id)", method: .DELETE)
                #expect(deleted.status == 204)
                try await collector.wait { $0.events(of: id).contains { $0["type"] as? String == "sessionEnd" } }
                if fetchAd {
                    try await collector.wait { $0.events(of: id).contains { $0["type"] as? String == "adEvent" } }
                }
                #expect(
                    String(decoding: stack.metrics.exposition(), as: UTF8.self).contains(
                        "seam_analytics_events_total{outcome=\"queued\"}"))
            }
        }
        let id = sessionID.withLockedValue { $0 }
        return Observed(events: collector.events(of: id), bodies: collector.received)
    }

    /// Requests the first ad segment of the stitched stream's first variant, as a player would.
    func fetchFirstAdSegment(_ stack: SeamStack, manifest: String) async throws {
        func absolute(_ uri: String, base: String) -> String {
            uri.hasPrefix("http") ? uri : String(base[...(base.lastIndex(of: "/") ?? base.startIndex)]) + uri
        }
        let master = try await stack.request(manifest)
        let variant = try #require(master.body.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
        let mediaURL = absolute(String(variant), base: manifest)
        let media = try await stack.request(mediaURL)
        let ad = try #require(media.body.split(separator: "\n").first { !$0.hasPrefix("#") && $0.contains("/ad/") })
        let answer = try await stack.request(absolute(String(ad), base: mediaURL))
        #expect(answer.status == 302)
    }

    func checkSessionEvents(_ observed: Observed) {
        let start = observed.first("sessionStart")
        #expect(start != nil, "sessionStart arrives")
        #expect(start?["playback"] as? String == "vod")
        #expect(start?["mode"] as? String == "stitched")
        #expect(start?["trackingMode"] as? String == "server")
        #expect((start?["adParams"] as? [String: String]) == ["genre": "news"], "personal ad params never in adParams")
        let end = observed.first("sessionEnd")
        #expect(end?["reason"] as? String == "deleted")
        #expect((end?["durationSeconds"] as? Double).map { $0 >= 0 } == true)
        // The demo VMAP: pre-roll, mid-roll, post-roll.
        let breaks = observed.all("breakDecided")
        #expect(breaks.compactMap { $0["position"] as? String } == ["preroll", "midroll", "postroll"])
        #expect(breaks.allSatisfy { $0["filled"] as? Bool == true && ($0["adCount"] as? Int ?? 0) >= 1 })
    }

    @Test("clear: the personal fields arrive as sent, with session, break and ad events")
    func clear() async throws {
        let observed = try await observe(.clear, fetchAd: true)
        checkSessionEvents(observed)
        let device = observed.first("sessionStart")?["device"] as? [String: Any]
        #expect(device?["ip"] as? String == Self.deviceIP)
        #expect(device?["userAgent"] as? String == Self.userAgent)
        #expect((device?["ids"] as? [String: String]) == ["ifa": Self.ifa])
        let adEvents = observed.all("adEvent").compactMap { $0["event"] as? String }
        #expect(adEvents.contains("impression"))
        #expect(
            observed.all("adEvent").allSatisfy { $0["breakNumber"] as? Int != nil && $0["adNumber"] as? Int != nil })
    }

    @Test("encrypted: no personal value in clear text anywhere; each opens with the key to the original")
    func encrypted() async throws {
        let keyText = randomAnalyticsKey()
        let observed = try await observe(.encrypted) { $0.analytics.encryptionKey = keyText }
        checkSessionEvents(observed)
        for body in observed.bodies {
            #expect(!body.contains(Self.deviceIP) && !body.contains(Self.userAgent) && !body.contains(Self.ifa))
            #expect(body.contains("\"privacy\":\"encrypted\""))
        }
        let device = try #require(observed.first("sessionStart")?["device"] as? [String: Any])
        let key = try AnalyticsEncryptionKey(base64: keyText)
        #expect(try key.open(try #require(device["ip"] as? String)) == Self.deviceIP)
        #expect(try key.open(try #require(device["userAgent"] as? String)) == Self.userAgent)
        #expect(try key.open(try #require((device["ids"] as? [String: String])?["ifa"])) == Self.ifa)
        let other = try AnalyticsEncryptionKey(base64: randomAnalyticsKey())
        #expect(throws: AnalyticsKeyError.self) { try other.open(device["ip"] as? String ?? "") }
    }

    @Test("anonymized: the /24 network and keyed hashes, stable within a period, never the originals")
    func anonymized() async throws {
        let secret = String(repeating: "a1", count: 20)
        let first = try await observe(.anonymized) { $0.analytics.hashSecret = secret }
        let second = try await observe(.anonymized) { $0.analytics.hashSecret = secret }
        let rekeyed = try await observe(.anonymized) { $0.analytics.hashSecret = String(repeating: "b2", count: 20) }
        checkSessionEvents(first)
        for body in first.bodies + second.bodies + rekeyed.bodies {
            #expect(!body.contains(Self.deviceIP) && !body.contains(Self.userAgent) && !body.contains(Self.ifa))
        }
        func device(_ observed: Observed) -> [String: Any] {
            observed.first("sessionStart")?["device"] as? [String: Any] ?? [:]
        }
        #expect(device(first)["ip"] as? String == "203.0.113.0")
        let userAgentHash = device(first)["userAgent"] as? String ?? ""
        let ifaHash = (device(first)["ids"] as? [String: String])?["ifa"] ?? ""
        #expect(userAgentHash.count == 64 && ifaHash.count == 64 && userAgentHash != ifaHash)
        // Same secret, same period (two sessions, even two Seams): the same hashes, so a viewer links.
        // The period could roll over between the two sessions only at its very edge; the hash period says so.
        if device(first)["hashPeriod"] as? String == device(second)["hashPeriod"] as? String {
            #expect(device(second)["userAgent"] as? String == userAgentHash)
            #expect((device(second)["ids"] as? [String: String])?["ifa"] == ifaHash)
        }
        // Another key: other hashes.
        #expect(device(rekeyed)["userAgent"] as? String != userAgentHash)
        #expect((device(rekeyed)["ids"] as? [String: String])?["ifa"] != ifaHash)
    }

    @Test("delete: no personal field at all, not even empty")
    func delete() async throws {
        let observed = try await observe(.delete)
        checkSessionEvents(observed)
        for body in observed.bodies {
            #expect(!body.contains(Self.deviceIP) && !body.contains(Self.userAgent) && !body.contains(Self.ifa))
            #expect(!body.contains("\"device\""))
            #expect(!body.contains("\"ip\"") && !body.contains("\"userAgent\"") && !body.contains("\"ids\""))
        }
    }

    @Test("No consent (allowStorage false): no device id is sent even in clear mode")
    func noConsent() async throws {
        let observed = try await observe(.clear, allowStorage: false)
        let device = observed.first("sessionStart")?["device"] as? [String: Any]
        #expect(device?["ids"] == nil)
        #expect(device?["ip"] as? String == Self.deviceIP)
        for body in observed.bodies { #expect(!body.contains(Self.ifa)) }
    }

    @Test("A session that expires is reported once as expired; a failed start as an error")
    func expiryAndFailure() async throws {
        let collector = AnalyticsCollector()
        let clock = TestClock()
        try await withInfraTestServer({ collector.install($0) }) { port in
            try await SeamStack.run(
                clock: clock,
                { configuration in
                    configuration.analytics.endpoints = ["http://127.0.0.1:\(port)/collect"]
                    configuration.analytics.flushSeconds = 0.1
                    configuration.sessions.ttlSeconds = 60
                    configuration.sessions.keepAliveSeconds = 10
                }
            ) { stack in
                let created = try await stack.createSession()
                let id = try #require(created["sessionId"] as? String)
                // Past its time to live (Seam's clock is the test's), a request finds it expired
                // (410) and that is its end.
                clock.advance(.seconds(61))
                #expect(try await stack.request("/v1/sessions/\(id)/master.m3u8").status == 410)
                #expect(try await stack.request("/v1/sessions/\(id)/keepalive", method: .POST).status == 410)
                let missing = stack.demo.contentURL.replacingOccurrences(of: "master.m3u8", with: "missing/master.m3u8")
                let failed = try await stack.request("/v1/sessions", method: .POST, json: ["url": missing])
                #expect(failed.status >= 400)
                try await collector.wait { collector in
                    collector.events(of: id).contains { $0["type"] as? String == "sessionEnd" }
                        && collector.events.contains {
                            $0["type"] as? String == "error" && $0["contentUrl"] as? String == missing
                        }
                }
                // Give a second end a chance to arrive, were it (wrongly) sent.
                try await Task.sleep(for: .milliseconds(300))
                let ends = collector.events(of: id).filter { $0["type"] as? String == "sessionEnd" }
                #expect(ends.count == 1)
                #expect(ends.first?["reason"] as? String == "expired")
                let error = collector.events.first { $0["type"] as? String == "error" }
                #expect((error?["code"] as? String)?.hasPrefix("ORIGIN_") == true, "\(String(describing: error))")
            }
        }
    }

    @Test("Live: a break decided after the start is reported once as the player reloads; an origin outage is one error")
    func liveBreak() async throws {
        let collector = AnalyticsCollector()
        let origin = ScriptedLiveOrigin()
        try await withInfraTestServer({ collector.install($0) }) { port in
            try await SeamStack.run(
                adTag: { $0.vmapURL },
                { configuration in
                    configuration.analytics.endpoints = ["http://127.0.0.1:\(port)/collect"]
                    configuration.analytics.flushSeconds = 0.1
                    configuration.live.originCacheSeconds = 0.1
                    configuration.live.maxStaleSeconds = 0
                }
            ) { stack in
                try await origin.run { base in
                    let created = try await stack.createSession(url: base + "/master.m3u8")
                    let id = try #require(created["sessionId"] as? String)
                    let manifest = try #require(created["manifestUrl"] as? String)
                    let variant = try #require(
                        try await stack.request(manifest).body.split(separator: "\n").first { !$0.hasPrefix("#") })
                    let media =
                        variant.hasPrefix("http")
                        ? String(variant)
                        : String(manifest[...(manifest.lastIndex(of: "/") ?? manifest.startIndex)]) + variant
                    origin.update {
                        $0.last = 21; $0.cueOuts[21] = 24
                    }
                    // Reloads reveal the cue; the decision lands in the background and a later reload lists it.
                    let listed = await liveEventually {
                        let body = (try? await stack.request(media).body) ?? ""
                        return body.contains("/ad/")
                    }
                    #expect(listed)
                    for _ in 0..<3 { _ = try await stack.request(media) }
                    // The origin fails: every reload is an error for the player, one error event for the session.
                    origin.update { $0.failing = true }
                    let failing = await liveEventually { (try? await stack.request(media).status) == 502 }
                    #expect(failing)
                    for _ in 0..<3 { #expect(try await stack.request(media).status == 502) }
                    #expect(try await stack.request("/v1/sessions/\(id)", method: .DELETE).status == 204)
                    try await collector.wait { $0.events(of: id).contains { $0["type"] as? String == "sessionEnd" } }
                    let start = collector.events(of: id).first { $0["type"] as? String == "sessionStart" }
                    #expect(start?["playback"] as? String == "live")
                    let breaks = collector.events(of: id).filter { $0["type"] as? String == "breakDecided" }
                    #expect(breaks.count == 1, "\(breaks)")
                    #expect(breaks.first?["position"] as? String == "live")
                    #expect(breaks.first?["filled"] as? Bool == true)
                    #expect(breaks.first?["adIds"] as? [String] == ["ad3"])
                    let errors = collector.events(of: id).filter { $0["type"] as? String == "error" }
                    #expect(errors.compactMap { $0["code"] as? String } == ["ORIGIN_UNAVAILABLE"], "\(errors)")
                }
            }
        }
    }
}
