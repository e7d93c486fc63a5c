import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import SeamKit
import SeamTesting
import Testing

/// A keep-alive that gets no good answer is tried again before SeamKit gives the session up: one
/// lost request on a phone's network must not cost the viewer their session. A Seam that says the
/// session is gone (`410`) ends it at once.
@Suite struct KeepAliveRetryTests {
    /// A stand-in for Seam that answers session creation, then keep-alives by a script of statuses.
    static func withFakeSeam(
        keepAlive statuses: [Int], expiresIn: Double = 60,
        _ body: @Sendable (URL, NIOLockedValueBox<Int>) async throws -> Void
    ) async throws {
        let calls = NIOLockedValueBox(0)
        let router = Router()
        router.post("/v1/sessions") { request, context -> Response in
            let base = "http://\(request.head.authority ?? "127.0.0.1")"
            let expiry = ISO8601DateFormatter().string(from: Date().addingTimeInterval(expiresIn))
            let json = """
                {"sessionId":"s1","manifestUrl":"\(base)/v1/sessions/s1/master.m3u8","mode":"stitched",\
                "stitchedManifestUrl":"\(base)/v1/sessions/s1/master.m3u8",\
                "interstitialsManifestUrl":"\(base)/v1/sessions/s1/interstitials/master.m3u8",\
                "trackingUrl":"\(base)/v1/sessions/s1/tracking","expiresAt":"\(expiry)","keepAliveSeconds":5}
                """
            return Response(
                status: .created, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        router.post("/v1/sessions/s1/keepalive") { _, _ -> Response in
            let call = calls.withLockedValue { count -> Int in
                count += 1
                return count
            }
            let status = statuses[min(call - 1, statuses.count - 1)]
            let expiry = ISO8601DateFormatter().string(from: Date().addingTimeInterval(60))
            let body =
                status == 200
                ? #"{"sessionId":"s1","expiresAt":"\#(expiry)","keepAliveSeconds":5}"#
                : #"{"error":{"code":"SESSION_EXPIRED","message":"gone"}}"#
            return Response(
                status: .init(code: status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.delete("/v1/sessions/s1") { _, _ in Response(status: .noContent) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")), calls)
        }
    }

    /// A session whose keep-alive loop waits on `clock` and reads its date: the test drives it,
    /// so the 5 s turns and the 1 s, 2 s... retries take no real time and cannot be late.
    static func session(_ seam: URL, clock: TestClock) async throws -> ResolvedSession {
        let client = SeamClient(
            configuration: SeamKitConfiguration(seamBaseURL: seam), urlSession: URLSession(configuration: .ephemeral),
            clock: clock, date: { clock.date })
        return try await client.startSession(contentURL: URL(string: "http://origin.example/title/master.m3u8")!)
            .resolved
    }

    @Test("A 503 then a 200: the session stays alive")
    func aFailedKeepAliveIsTriedAgain() async throws {
        try await Self.withFakeSeam(keepAlive: [503, 200]) { seam, calls in
            let clock = TestClock()
            let session = try await Self.session(seam, clock: clock)
            var statuses = session.handle.statuses.makeAsyncIterator()
            let first = await clock.driving { await statuses.next() }
            guard case .alive = first else {
                Issue.record("after a failed keep-alive and a good one: \(String(describing: first))")
                return
            }
            #expect(calls.withLockedValue { $0 } == 2)
            await session.handle.shutdown()
        }
    }

    @Test("Failures until the session's expiry has passed: expired, after trying again")
    func repeatedFailuresExpire() async throws {
        // Expiry 8 s after creation; the first keep-alive goes at 5 s, the next 1 s later, then 2 s.
        try await Self.withFakeSeam(keepAlive: [503], expiresIn: 8) { seam, calls in
            let clock = TestClock()
            let session = try await Self.session(seam, clock: clock)
            var statuses = session.handle.statuses.makeAsyncIterator()
            guard case .expired(.sessionExpired(let status, _, _)) = await clock.driving({ await statuses.next() })
            else {
                Issue.record("not expired")
                return
            }
            #expect(status == 503)
            // Tried again (at least once) before giving up; how often depends on the clock.
            #expect(calls.withLockedValue { $0 } >= 2)
        }
    }

    @Test("A 410: expired at once, no retry")
    func goneExpiresAtOnce() async throws {
        try await Self.withFakeSeam(keepAlive: [410, 200]) { seam, calls in
            let clock = TestClock()
            let session = try await Self.session(seam, clock: clock)
            var statuses = session.handle.statuses.makeAsyncIterator()
            guard
                case .expired(.sessionExpired(let status, let code, _)) = await clock.driving({ await statuses.next() })
            else {
                Issue.record("not expired")
                return
            }
            #expect(status == 410)
            #expect(code == "SESSION_EXPIRED")
            #expect(calls.withLockedValue { $0 } == 1)
        }
    }
}
