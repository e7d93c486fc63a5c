import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import Testing
import Stitching
@testable import SeamServer

/// The session routes as a player and a publisher use them, in process over fakes
/// (`SessionRouteHarness`): creation, the options a request may carry and how unknown ones are
/// refused, the playlist, tracking, ad segment, keep-alive and delete
/// routes, `404` against `410`, and `sessions.maxSessions` under concurrent starts.
@Suite struct SessionRouteTests {
    static let json = ["url": SessionRouteHarness.vodURL]

    // MARK: Creation and serving

    @Test(
        "POST /v1/sessions: 201 with the session's URLs and an expiry one TTL from the clock; the playlists, tracking and ad segments serve"
    )
    func createAndServe() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let created = try await client.call("/v1/sessions", method: .post, json: Self.json)
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.json["sessionId"] as? String)
            #expect((created.json["manifestUrl"] as? String)?.hasSuffix("/v1/sessions/\(id)/master.m3u8") == true)
            #expect((created.json["trackingUrl"] as? String)?.hasSuffix("/v1/sessions/\(id)/tracking") == true)
            #expect(
                created.json["expiresAt"] as? String
                    == SessionRouteHarness.start.addingTimeInterval(SessionRouteHarness.ttlSeconds).formatted(.iso8601))
            #expect(created.json["keepAliveSeconds"] as? Double == harness.configuration.sessions.keepAliveSeconds)

            let master = try await client.call("/v1/sessions/\(id)/master.m3u8")
            #expect(master.status == 200)
            let multivariant = try MultivariantPlaylist(parsing: master.body)
            let mediaURL = try #require(multivariant.variants.first?.uri)
            #expect(mediaURL.hasSuffix("/v1/sessions/\(id)/media/v0.m3u8"))

            let media = try await client.call(mediaURL)
            #expect(media.status == 200)
            let playlist = try MediaPlaylist(parsing: media.body)
            // The pre-roll's two ad segments, routed through Seam (server-side tracking), then content.
            try #require(playlist.segments.count == 5)
            #expect(
                playlist.segments[0].uri.hasSuffix("/v1/sessions/\(id)/ad/0/0/v0/0.ts"), "\(playlist.segments[0].uri)")
            #expect(
                playlist.segments[1].uri.hasSuffix("/v1/sessions/\(id)/ad/0/0/v0/1.ts"), "\(playlist.segments[1].uri)")
            #expect(playlist.segments[2].uri == "https://origin.test/vod/seg_0.ts")

            let tracking = try await client.call("/v1/sessions/\(id)/tracking")
            #expect(tracking.status == 200)
            let document = try JSONDecoder().decode(TrackingDocument.self, from: Data(tracking.body.utf8))
            #expect(document.sessionId == id)
            #expect(document.trackingMode == .server)
            #expect(document.avails.first?.ads.map(\.adId) == ["ad-1"])

            #expect(try await client.call("/v1/sessions/\(id)/media/v9.m3u8").errorCode == "RENDITION_NOT_FOUND")
        }
    }

    @Test("An ad segment redirects to the ad CDN and fires each of its beacons once, however often it is fetched")
    func adSegmentBeaconsFireOnce() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let id = try #require(
                try await client.call("/v1/sessions", method: .post, json: Self.json).json["sessionId"] as? String)
            let first = try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/0.ts")
            #expect(first.status == 302)
            #expect(first.location == "https://ads.test/ad1/ad_0.ts")
            #expect(harness.beacons.urls == ["https://track.test/impression", "https://track.test/start"])
            _ = try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/0.ts")
            #expect(
                harness.beacons.urls == ["https://track.test/impression", "https://track.test/start"],
                "fetched again: nothing fires twice")
            let last = try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/1.ts")
            #expect(last.location == "https://ads.test/ad1/ad_1.ts")
            #expect(harness.beacons.urls.filter { $0 == "https://track.test/complete" }.count == 1)
            #expect(try await client.redirect("/v1/sessions/\(id)/ad/0/0/v0/7.ts").status == 404)
        }
    }

    @Test(
        "trackingMode client: the session says so and the tracking JSON carries the beacon URLs; ad segments are not routed through Seam"
    )
    func clientTracking() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL, "trackingMode": "client"])
            let id = try #require(created.json["sessionId"] as? String)
            let document = try JSONDecoder().decode(
                TrackingDocument.self, from: Data(try await client.call("/v1/sessions/\(id)/tracking").body.utf8))
            #expect(document.trackingMode == .client)
            let impression = document.avails.first?.ads.first?.trackingEvents.first { $0.event == "impression" }
            #expect(impression?.beaconUrls == ["https://track.test/impression"])
            let media = try await client.call("/v1/sessions/\(id)/media/v0.m3u8").body
            #expect(!media.contains("/ad/0/0/"))
            #expect(media.contains("https://ads.test/ad1/ad_0.ts"))
        }
    }

    // MARK: Options refused

    @Test(
        "An unknown field, or an unknown mode or trackingMode, is 400 INVALID_REQUEST naming the field and its values; nothing is fetched",
        arguments: [
            (
                #"{"url": "\#(SessionRouteHarness.vodURL)", "mode": "fancy"}"#, "mode",
                ["\"stitched\"", "\"interstitials\"", "\"fancy\""]
            ),
            (#"{"url": "\#(SessionRouteHarness.vodURL)", "mode": 3}"#, "mode", ["\"stitched\"", "\"interstitials\""]),
            (
                #"{"url": "\#(SessionRouteHarness.vodURL)", "trackingMode": "both"}"#, "trackingMode",
                ["\"server\"", "\"client\"", "\"hybrid\"", "\"both\""]
            ),
            (#"{"url": "\#(SessionRouteHarness.vodURL)", "trackingMode": "Server"}"#, "trackingMode", ["\"server\""]),
            (#"{"url": "\#(SessionRouteHarness.vodURL)", "trackingMode": ["client"]}"#, "trackingMode", ["\"hybrid\""]),
            (#"{"url": "\#(SessionRouteHarness.vodURL)", "pipOf": "main-session"}"#, "pipOf", ["sessionId"]),
            (
                #"{"url": "\#(SessionRouteHarness.vodURL)", "policy": {"restrict": ["skip", "rewind"]}}"#,
                "policy.restrict", ["\"skip\"", "\"jump\"", "\"rewind\""]
            ),
            (
                #"{"url": "\#(SessionRouteHarness.vodURL)", "policy": {"restrictions": ["skip"]}}"#, "policy",
                ["\"restrictions\"", "\"restrict\"", "\"playoutLimit\""]
            ),
            (
                #"{"url": "\#(SessionRouteHarness.vodURL)", "policy": {"playoutLimit": -5}}"#, "policy.playoutLimit",
                ["seconds"]
            ),
            (#"{"url": "\#(SessionRouteHarness.vodURL)", "policy": "strict"}"#, "policy", []),
            (
                #"{"url": "\#(SessionRouteHarness.vodURL)", "trackingmode": "client"}"#, "\"trackingmode\"",
                ["\"trackingMode\"", "\"url\"", "\"policy\""]
            ),
            (#"{"url": "\#(SessionRouteHarness.vodURL)", "adsParams": {"a": "b"}}"#, "\"adsParams\"", ["\"adParams\""]),
        ])
    func unknownValues(body: String, field: String, mentions: [String]) async throws {
        let harness = SessionRouteHarness()
        let answer = try await harness.test { client in
            try await client.call("/v1/sessions", method: .post, rawJSON: body)
        }
        #expect(answer.status == 400, "\(body): \(answer.body)")
        #expect(answer.errorCode == "INVALID_REQUEST", "\(answer.body)")
        let message = try #require(answer.errorMessage)
        #expect(message.contains(field), "\(message)")
        for word in mentions { #expect(message.contains(word), "\(word) missing in: \(message)") }
        #expect(harness.upstream.requests("https://") == 0)
        #expect(harness.ads.requests == 0)
    }

    @Test(
        "pipOf naming a session never issued is 404 SESSION_NOT_FOUND saying the main session is missing, never a plain session; nothing is fetched or stored"
    )
    func pipOfUnknownMain() async throws {
        let harness = SessionRouteHarness()
        let answer = try await harness.test { client in
            try await client.call(
                "/v1/sessions", method: .post,
                json: Self.json.merging(["pipOf": String(repeating: "a", count: SessionID.length)]) { $1 })
        }
        #expect(answer.status == 404, "\(answer.body)")
        #expect(answer.errorCode == "SESSION_NOT_FOUND")
        #expect(answer.errorMessage?.contains("pipOf: no main session") == true, "\(answer.body)")
        #expect(harness.upstream.requests("https://") == 0)
        #expect(harness.store.placesTaken == 0)
    }

    @Test("A well-formed policy and either mode are accepted")
    func policyAndModesAccepted() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let policy = try await client.call(
                "/v1/sessions", method: .post,
                rawJSON: #"""
                    {"url": "\#(SessionRouteHarness.vodURL)", "policy": {"restrict": ["skip", "jump"], "snap": ["in"], "resumeOffset": 0, "playoutLimit": 30}}
                    """#)
            #expect(policy.status == 201, "\(policy.body)")
            for mode in ["stitched", "interstitials"] {
                let created = try await client.call(
                    "/v1/sessions", method: .post, json: ["url": SessionRouteHarness.vodURL, "mode": mode])
                #expect(created.status == 201, "\(created.body)")
                #expect(created.json["mode"] as? String == mode)
            }
        }
    }

    @Test(
        "The implicit path refuses the same way: unknown seam.* option or value 400 naming it, a pipOf main never issued 404, before any redirect",
        arguments: [
            ("seam.mode=fancy", 400, "seam.mode"),
            ("seam.trackingMode=everything", 400, "seam.trackingMode"),
            ("seam.scheme=ftp", 400, "seam.scheme"),
            ("seam.colour=blue", 400, "seam.colour"),
            ("seam.policy.skip=yes", 400, "seam.policy"),
            ("seam.pipOf=nope", 400, "seam.pipOf"),
            ("seam.pipOf=\(String(repeating: "b", count: SessionID.length))", 404, "main session"),
        ])
    func implicitOptions(query: String, status: Int, named: String) async throws {
        for intercepting in [true, false] {
            let harness = SessionRouteHarness { configuration in
                if !intercepting {
                    configuration.domains.mode = .none
                }
            }
            let answer = try await harness.test { client in
                try await client.call("/v1/hls/origin.test/vod/index.m3u8?\(query)")
            }
            #expect(answer.status == status, "\(query) intercepting=\(intercepting): \(answer.body)")
            #expect(answer.errorCode == (status == 400 ? "INVALID_REQUEST" : "SESSION_NOT_FOUND"))
            #expect(answer.errorMessage?.contains(named) == true, "\(answer.body)")
            #expect(harness.upstream.requests("https://") == 0)
        }
    }

    @Test("The implicit path takes seam.trackingMode, and keeps other parameters for the origin")
    func implicitTrackingMode() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let answer = try await client.redirect(
                "/v1/hls/origin.test/vod/index.m3u8?seam.trackingMode=hybrid&ads.site=news")
            #expect(answer.status == 302)
            let location = try #require(answer.location)
            let tracking = try await client.call(location.replacingOccurrences(of: "master.m3u8", with: "tracking"))
            #expect(tracking.json["trackingMode"] as? String == "hybrid")
            // Intercepted, a signed query reaches the origin byte for byte (this origin knows no
            // such title: what matters is the URL it was asked for).
            _ = try await client.call(
                "/v1/hls/origin.test/vod/index.m3u8?tok=a%2Bb%26c%3Dd&seam.trackingMode=client&sig=x%2Fy%3D%3D")
            #expect(
                harness.upstream.requests("https://origin.test/vod/index.m3u8?tok=a%2Bb%26c%3Dd&sig=x%2Fy%3D%3D") == 1)
            #expect(harness.upstream.requests("https://origin.test/vod/index.m3u8?tok=a+b") == 0)
        }
        let passThrough = SessionRouteHarness { $0.domains.mode = .none }
        try await passThrough.test { client in
            let answer = try await client.redirect(
                "/v1/hls/origin.test/vod/index.m3u8?token=1&seam.scheme=HTTP&seam.trackingMode=client")
            #expect(answer.status == 302)
            #expect(answer.location == "http://origin.test/vod/index.m3u8?token=1")
            // A signed query goes on byte for byte.
            let signed = try await client.redirect(
                "/v1/hls/origin.test/vod/index.m3u8?tok=a%2Bb%26c%3Dd&seam.scheme=http&sig=x%2Fy%3D%3D")
            #expect(signed.location == "http://origin.test/vod/index.m3u8?tok=a%2Bb%26c%3Dd&sig=x%2Fy%3D%3D")
        }
    }

    // MARK: Keep-alive, delete, expiry

    @Test(
        "Keep-alive extends the session one TTL from now; delete ends it: 204, then 410 for the id Seam issued, 404 for ids it never did"
    )
    func keepAliveAndDelete() async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            let id = try #require(
                try await client.call("/v1/sessions", method: .post, json: Self.json).json["sessionId"] as? String)
            harness.clock.advance(by: 45)
            let kept = try await client.call("/v1/sessions/\(id)/keepalive", method: .post)
            #expect(kept.status == 200)
            #expect(kept.json["sessionId"] as? String == id)
            #expect(
                kept.json["expiresAt"] as? String
                    == SessionRouteHarness.start.addingTimeInterval(45 + SessionRouteHarness.ttlSeconds).formatted(
                        .iso8601))
            // 45 + 45 s after creation, but 45 s after the keep-alive: still there.
            harness.clock.advance(by: 45)
            #expect(try await client.call("/v1/sessions/\(id)/master.m3u8").status == 200)

            #expect(try await client.call("/v1/sessions/\(id)", method: .delete).status == 204)
            #expect(harness.store.placesTaken == 0)
            for (path, method) in [
                ("/master.m3u8", HTTPRequest.Method.get), ("/media/v0.m3u8", .get), ("/tracking", .get),
                ("/ad/0/0/v0/0.ts", .get), ("/keepalive", .post), ("", .delete),
            ] {
                let answer = try await client.call("/v1/sessions/\(id)\(path)", method: method)
                #expect(answer.status == 410, "\(method) \(path): \(answer.body)")
                #expect(answer.errorCode == "SESSION_EXPIRED")
            }
            let stranger = SessionIDKey.random().issue()
            for (path, method) in [("/master.m3u8", HTTPRequest.Method.get), ("/keepalive", .post), ("", .delete)] {
                let answer = try await client.call("/v1/sessions/\(stranger)\(path)", method: method)
                #expect(answer.status == 404, "\(method) \(path): \(answer.body)")
                #expect(answer.errorCode == "SESSION_NOT_FOUND")
            }
            #expect(try await client.call("/v1/sessions/not-an-id/master.m3u8").status == 404)
        }
    }

    @Test("A session not asked for within its TTL answers 410 and gives its place back; the sweep drops unvisited ones")
    func expiry() async throws {
        let harness = SessionRouteHarness { $0.sessions.maxSessions = 2 }
        try await harness.test { client in
            let first = try #require(
                try await client.call("/v1/sessions", method: .post, json: Self.json).json["sessionId"] as? String)
            let second = try #require(
                try await client.call("/v1/sessions", method: .post, json: Self.json).json["sessionId"] as? String)
            #expect(try await client.call("/v1/sessions", method: .post, json: Self.json).status == 429)

            harness.clock.advance(by: SessionRouteHarness.ttlSeconds + 1)
            let expired = try await client.call("/v1/sessions/\(first)/tracking")
            #expect(expired.status == 410)
            #expect(expired.errorCode == "SESSION_EXPIRED")
            #expect(try await client.call("/v1/sessions/\(first)/keepalive", method: .post).status == 410)
            #expect(harness.store.expire(now: harness.clock.now).count == 1, "the second, never asked for again")
            #expect(harness.store.count() == 0)
            #expect(try await client.call("/v1/sessions/\(second)/master.m3u8").status == 410)
            #expect(try await client.call("/v1/sessions", method: .post, json: Self.json).status == 201)
            #expect(try await client.call("/v1/sessions", method: .post, json: Self.json).status == 201)
        }
    }

    // MARK: The limit

    /// Twice `sessions.maxSessions` starts at once, against an origin slow enough that they
    /// overlap: exactly the maximum is created, the rest are `429 RATE_LIMITED`, and the origin and
    /// the ad server hear only of the created ones.
    @Test func concurrentStartsHoldTheLimit() async throws {
        let max = 8
        let harness = SessionRouteHarness { $0.sessions.maxSessions = max }
        harness.upstream.originDelay.withLockedValue { $0 = .milliseconds(100) }
        let answers = try await harness.test { client in
            try await withThrowingTaskGroup(of: FaultMatrixApp.Answer.self) { group in
                for _ in 0..<(2 * max) {
                    group.addTask { try await client.call("/v1/sessions", method: .post, json: Self.json) }
                }
                var all: [FaultMatrixApp.Answer] = []
                for try await answer in group { all.append(answer) }
                return all
            }
        }
        let created = answers.filter { $0.status == 201 }
        let refused = answers.filter { $0.status == 429 }
        #expect(created.count == max)
        #expect(refused.count == max)
        #expect(
            refused.allSatisfy {
                $0.errorCode == "RATE_LIMITED" && $0.errorMessage?.contains("sessions.maxSessions") == true
            })
        #expect(Set(created.compactMap { $0.json["sessionId"] as? String }).count == max)
        #expect(harness.upstream.requests(SessionRouteHarness.vodURL) == max)
        #expect(harness.ads.requests == max)
        #expect(harness.store.count() == max)
        #expect(harness.store.placesTaken == max)
    }
}

/// Browsers ask before a cross-origin `POST` with a JSON body: a page on another origin (a
/// player's web app) must be able to create sessions and read every session resource.
@Suite struct SessionCORSTests {
    @Test(arguments: [
        "/v1/sessions", "/v1/sessions/abc/master.m3u8", "/v1/sessions/abc/assets/pre.json",
        "/v1/hls/origin.test/vod/index.m3u8",
        "/v1/sessions/abc/keepalive", "/v1/creatives/prefetch",
    ])
    func preflightIsAnswered(path: String) async throws {
        let harness = SessionRouteHarness()
        try await harness.test { client in
            try await client.execute(
                uri: path, method: .options,
                headers: [
                    .origin: "https://player.example", .accessControlRequestMethod: "POST",
                    .accessControlRequestHeaders: "content-type",
                ]
            ) { response in
                #expect(response.status == .noContent, "\(path)")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.headers[.accessControlAllowMethods]?.contains("POST") == true)
                #expect(response.headers[.accessControlAllowHeaders]?.lowercased().contains("content-type") == true)
            }
        }
    }
}
