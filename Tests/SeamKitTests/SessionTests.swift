import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SeamKit
import SeamServer
import SeamTesting
import Testing

/// SeamKit sessions against a real Seam and the demo on loopback: what an app sees when it starts
/// playback, keeps the session and ends it, and when Seam is not there or not wanted.
@Suite struct SessionTests {
    static func client(_ stack: SeamStack, rules: DomainRules = .all, clock: TestClock? = nil) throws -> SeamClient {
        let base = try #require(URL(string: stack.seamBaseURL))
        return SeamClient(
            configuration: SeamKitConfiguration(seamBaseURL: base, domainRules: rules),
            urlSession: URLSession(configuration: .ephemeral), clock: clock ?? ContinuousClock())
    }

    static func get(_ url: URL) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    static let fallback = URL(string: "http://127.0.0.1:9/fallback/master.m3u8")!

    /// A Seam no one answers on (port 1 on loopback refuses at once).
    static let unreachableSeam = URL(string: "http://127.0.0.1:1")!

    @Test("The fallback plays at once; the session resolves to the stitched playlist, which plays")
    func stitchedSession() async throws {
        try await SeamStack.run { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let start = try Self.client(stack).startSession(contentURL: content, fallbackURL: Self.fallback)
            #expect(start.playNow == Self.fallback)
            let session = try await start.resolved
            #expect(session.mode == .stitched)
            #expect(session.playbackURL == session.stitchedURL)
            #expect(
                session.playbackURL.absoluteString.hasPrefix(stack.seamBaseURL + "/v1/sessions/\(session.sessionID)/"))
            #expect(session.expiresAt > Date())
            #expect((5...10).contains(session.keepAliveInterval))
            let playlist = try await Self.get(session.playbackURL)
            #expect(playlist.status == 200)
            #expect(playlist.body.hasPrefix("#EXTM3U"))
            #expect(playlist.body.contains("#EXT-X-STREAM-INF"))
            await session.handle.shutdown()
        }
    }

    @Test("Mode interstitials resolves to the interstitials playlist")
    func interstitialsSession() async throws {
        try await SeamStack.run { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let start = try Self.client(stack).startSession(
                contentURL: content, options: SessionOptions(renderingMode: .interstitials))
            #expect(start.playNow == content)
            let session = try await start.resolved
            #expect(session.mode == .interstitials)
            #expect(session.playbackURL == session.interstitialsURL)
            #expect(session.playbackURL != session.stitchedURL)
            let playlist = try await Self.get(session.playbackURL)
            #expect(playlist.status == 200)
            #expect(playlist.body.hasPrefix("#EXTM3U"))
            await session.handle.shutdown()
        }
    }

    @Test(
        "An MPD resolves to a DASH session: its stitched MPD to play; the interstitials policy is left out, asked for it is refused"
    )
    func dashSession() async throws {
        try await SeamStack.run { stack in
            let content = try #require(URL(string: stack.demo.dashContentURL))
            let client = try Self.client(stack)
            #expect(try await client.startSession(contentURL: content).resolved.format == .dash)
            let session = try await client.startSession(
                contentURL: content, options: SessionOptions(adPlaybackPolicy: AdPlaybackPolicy(fastForward: .skipAll))
            ).resolved
            #expect(session.mode == .stitched)
            #expect(session.playbackURL.path.hasSuffix("/manifest.mpd"))
            let mpd = try await Self.get(session.playbackURL)
            #expect(mpd.status == 200)
            #expect(mpd.body.contains("<MPD"))
            await session.handle.shutdown()
            // What a DASH session cannot do, set by the app, is Seam's 400 naming it.
            let refused = client.startSession(
                contentURL: content, options: SessionOptions(renderingMode: .interstitials))
            await #expect {
                _ = try await refused.resolved
            } throws: { error in
                guard case .sessionCreationFailed(let status, _, let message)? = error as? SeamKitError else {
                    return false
                }
                return status == 400 && message.contains("mode=interstitials")
            }
        }
    }

    @Test("Tracking decodes: pre-roll, mid-roll at 30 s, post-roll; options reach Seam")
    func tracking() async throws {
        try await SeamStack.run { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let options = SessionOptions(
                contentId: "demo", durationSeconds: 60, consent: .init(gdpr: false, allowStorage: false),
                trackingMode: .client)
            let session = try await Self.client(stack).startSession(contentURL: content, options: options).resolved
            let tracking = try await session.handle.tracking()
            #expect(tracking.sessionId == session.sessionID)
            #expect(tracking.cuePoints == [0, 30, -1])
            #expect(tracking.trackingMode == .client)
            #expect(tracking.avails.map(\.position) == ["preroll", "midroll", "postroll"])
            #expect(tracking.avails.first?.ads.count == 2)
            await session.handle.shutdown()
        }
    }

    @Test("A keep-alive extends the expiry")
    func keepAliveExtends() async throws {
        let clock = TestClock()
        try await SeamStack.run(clock: clock) { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let session = try await Self.client(stack).startSession(contentURL: content).resolved
            // Seam's expiry has whole seconds: move its clock past the next one.
            clock.advance(.seconds(2))
            let extended = try await session.handle.keepAlive()
            #expect(extended > session.expiresAt)
            #expect(await session.handle.expiresAt == extended)
            await session.handle.shutdown()
        }
    }

    @Test("Consent, the PAL nonce and ad parameters travel from SeamKit to the ad server")
    func consentReachesTheAdServer() async throws {
        try await SeamStack.run { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let options = SessionOptions(
                adParams: ["site": "kit"], palNonce: "nonce-7",
                consent: .init(gdpr: true, gdprConsent: "CPtcfString", allowStorage: false))
            let session = try await Self.client(stack).startSession(contentURL: content, options: options).resolved
            let request = try #require(await stack.demo.beaconLog.snapshot().adRequests.first)
            let query = Dictionary(
                request.query.split(separator: "&").compactMap { pair -> (String, String)? in
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return parts.count == 2 ? (parts[0], parts[1]) : nil
                }, uniquingKeysWith: { first, _ in first })
            #expect(query["gdpr"] == "1", "\(request.query)")
            #expect(query["gdpr_consent"] == "CPtcfString")
            #expect(query["paln"] == "nonce-7")
            #expect(query["site"] == "kit")
            await session.handle.shutdown()
        }
    }

    @Test("The keep-alive loop reports the session alive, then expired once Seam no longer has it")
    func keepAliveLoop() async throws {
        // Seam's clock and SeamKit's are the test's: a keep-alive turn is an advance, not a wait.
        let server = TestClock()
        let app = TestClock()
        try await SeamStack.run(clock: server, { $0.sessions.keepAliveSeconds = 1 }) { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let session = try await Self.client(stack, clock: app).startSession(contentURL: content).resolved
            // The server's 1 s is clamped to SeamKit's shortest interval.
            #expect(session.keepAliveInterval == 5)
            var statuses = session.handle.statuses.makeAsyncIterator()
            // The loop waits its interval on SeamKit's clock; Seam's moves on as far.
            #expect(await app.waitForSleepers(), "the keep-alive loop never waited for its turn")
            server.advance(.seconds(5))
            app.advance(.seconds(5))
            guard case .alive(let expiry) = await statuses.next() else {
                Issue.record("the first status is not alive")
                return
            }
            #expect(expiry > session.expiresAt)
            // Seam loses the session (deleted behind the app's back): the next keep-alive is 410.
            #expect(try await stack.request("/v1/sessions/\(session.sessionID)", method: .DELETE).status == 204)
            #expect(await app.waitForSleepers(), "the keep-alive loop did not wait for its next turn")
            app.advance(.seconds(5))
            guard case .expired(let error) = await statuses.next() else {
                Issue.record("the session did not expire")
                return
            }
            guard case .sessionExpired(let status, let code, _) = error else {
                Issue.record("expired with \(error)")
                return
            }
            #expect(status == 410)
            #expect(code == "SESSION_EXPIRED")
            #expect(await statuses.next() == nil)
        }
    }

    @Test("Shutdown deletes the session: its playlist is then 410")
    func shutdownDeletes() async throws {
        try await SeamStack.run { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let session = try await Self.client(stack).startSession(contentURL: content).resolved
            #expect(try await Self.get(session.playbackURL).status == 200)
            await session.handle.shutdown()
            #expect(try await Self.get(session.playbackURL).status == 410)
            var statuses = session.handle.statuses.makeAsyncIterator()
            #expect(await statuses.next() == .ended)
            #expect(await statuses.next() == nil)
        }
    }

    @Test("Content the domain rules leave alone never reaches Seam and plays as it is")
    func notInterceptedLocally() async throws {
        let client = SeamClient(
            configuration: SeamKitConfiguration(
                seamBaseURL: Self.unreachableSeam,
                domainRules: try .custom(["*.cdn.example"])),
            urlSession: URLSession(configuration: .ephemeral))
        let content = try #require(URL(string: "https://origin.test/title/master.m3u8"))
        let start = client.startSession(contentURL: content, fallbackURL: Self.fallback)
        // Seam is unreachable: had SeamKit called it, this would be sessionCreationFailed.
        #expect(start.playNow == content)
        await #expect(throws: SeamKitError.notIntercepted) { try await start.resolved }
        // A host the rules take does go to Seam.
        let intercepted = client.startSession(
            contentURL: try #require(URL(string: "https://a.cdn.example/master.m3u8")))
        await #expect { try await intercepted.resolved } throws: { error in
            if case SeamKitError.sessionCreationFailed(nil, nil, _) = error { return true }
            return false
        }
    }

    @Test("Content the server's domain rules leave alone is notIntercepted")
    func notInterceptedByServer() async throws {
        try await SeamStack.run({
            $0.domains.mode = .custom; $0.domains.hosts = ["*.cdn.example"]
        }) { stack in
            let content = try #require(URL(string: stack.demo.contentURL))
            let start = try Self.client(stack).startSession(contentURL: content, fallbackURL: Self.fallback)
            #expect(start.playNow == Self.fallback)
            await #expect(throws: SeamKitError.notIntercepted) { try await start.resolved }
        }
    }

    @Test("An unreachable Seam fails the session; the fallback still plays")
    func unreachableSeam() async throws {
        let client = SeamClient(
            configuration: SeamKitConfiguration(seamBaseURL: Self.unreachableSeam),
            urlSession: URLSession(configuration: .ephemeral))
        let start = client.startSession(
            contentURL: try #require(URL(string: "https://origin.test/master.m3u8")),
            fallbackURL: Self.fallback)
        #expect(start.playNow == Self.fallback)
        await #expect { try await start.resolved } throws: { error in
            if case SeamKitError.sessionCreationFailed(status: nil, code: nil, _) = error { return true }
            return false
        }
    }

    @Test("Seam's refusal arrives with its status and code")
    func refusedBySeam() async throws {
        try await SeamStack.run { stack in
            // Seam may not fetch from this host (it does not resolve): the origin fails.
            let content = try #require(URL(string: "http://127.0.0.1:9/missing/master.m3u8"))
            let start = try Self.client(stack).startSession(contentURL: content, fallbackURL: Self.fallback)
            #expect(start.playNow == Self.fallback)
            do throws(SeamKitError) {
                _ = try await start.resolved
                Issue.record("a session was made for content no origin serves")
            } catch {
                guard case .sessionCreationFailed(let status, let code, _) = error else {
                    Issue.record("failed with \(error)")
                    return
                }
                #expect(status.map { $0 >= 400 } == true)
                #expect(code?.isEmpty == false)
            }
        }
    }

    @Test("A URL that is not absolute http(s) is invalidPlaybackURL, without calling Seam")
    func invalidURL() async throws {
        let client = SeamClient(
            configuration: SeamKitConfiguration(seamBaseURL: Self.unreachableSeam),
            urlSession: URLSession(configuration: .ephemeral))
        let ftp = try #require(URL(string: "ftp://origin.test/master.m3u8"))
        let start = client.startSession(contentURL: ftp, fallbackURL: Self.fallback)
        #expect(start.playNow == Self.fallback)
        await #expect(throws: SeamKitError.invalidPlaybackURL("ftp://origin.test/master.m3u8")) {
            try await start.resolved
        }
        let relative = try #require(URL(string: "title/master.m3u8"))
        await #expect(throws: SeamKitError.invalidPlaybackURL("title/master.m3u8")) {
            try await client.startSession(contentURL: relative).resolved
        }
    }

    @Test("Without a configuration: notConfigured, and the fallback plays")
    func notConfigured() async throws {
        let start = SeamClient(configuration: nil).startSession(
            contentURL: try #require(URL(string: "https://origin.test/master.m3u8")),
            fallbackURL: Self.fallback)
        #expect(start.playNow == Self.fallback)
        await #expect(throws: SeamKitError.notConfigured) { try await start.resolved }
    }
}
