import Foundation
import Testing
@testable import SeamServer
import Stitching

/// What SeamKit sends (`SessionCreateBody`, SeamWire) is the type the server reads: its strict
/// `SessionRequest` wraps the same value, so every field SeamKit can send reads back equal, and
/// the record keeps the same JSON.
@Suite struct SessionCreateBodyTests {
    @Test("Every field SeamKit sends decodes with the server's SessionRequest")
    func everyFieldDecodes() throws {
        let id = SessionIDKey.random().issue()
        let body = SessionCreateBody(
            url: "https://origin.test/a.m3u8", fallbackUrl: "https://origin.test/fallback.m3u8",
            adParams: ["ppid": "42"], customParams: ["section": "sport"], adTagHeaders: ["X-Device": "tv"],
            contentId: "title-7", durationMs: 600_000, palNonce: "nonce-1",
            consent: .init(gdpr: true, gdprConsent: "CO-abc", allowStorage: false),
            mode: .interstitials, trackingMode: .hybrid, pipOf: id.value,
            policy: .init(
                restrict: [.skip, .jump], snap: [.in, .out], resumeOffset: 0, playoutLimit: 30.5, repeat: .everyTime))
        let request = try JSONDecoder().decode(SessionRequest.self, from: JSONEncoder().encode(body))
        #expect(request.url == body.url)
        #expect(request.fallbackUrl == body.fallbackUrl)
        #expect(request.adParams == ["ppid": "42"])
        #expect(request.customParams == ["section": "sport"])
        #expect(request.adTagHeaders == ["X-Device": "tv"])
        #expect(request.contentId == "title-7")
        #expect(request.durationMs == 600_000)
        #expect(request.palNonce == "nonce-1")
        #expect(request.consent == SessionRequest.Consent(gdpr: true, gdprConsent: "CO-abc", allowStorage: false))
        #expect(request.mode == .interstitials)
        #expect(request.trackingMode == .hybrid)
        #expect(request.pipOf == id)
        #expect(
            request.policy
                == AdPolicy(
                    restrict: [.skip, .jump], snap: [.in, .out], resumeOffset: 0, playoutLimit: 30.5,
                    repeat: .everyTime))
    }

    @Test("The server's strict reading gives back SeamKit's body, and writes it as SeamKit does")
    func sameValue() throws {
        let body = SessionCreateBody(
            url: "https://origin.test/a.m3u8", consent: .init(gdpr: false), mode: .stitched, trackingMode: .client,
            pipOf: SessionIDKey.random().issue().value, policy: .init(snap: [.out], repeat: .once))
        let bytes = try JSONEncoder().encode(body)
        let request = try JSONDecoder().decode(SessionRequest.self, from: bytes)
        #expect(request.body == body)
        #expect(try JSONDecoder().decode(SessionCreateBody.self, from: JSONEncoder().encode(request)) == body)
    }

    @Test("A body with only the URL sends only the URL")
    func absentFieldsAreLeftOut() throws {
        let json = try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(SessionCreateBody(url: "https://origin.test/a.m3u8")))
        #expect((json as? [String: Any])?.keys.sorted() == ["url"])
    }
}
