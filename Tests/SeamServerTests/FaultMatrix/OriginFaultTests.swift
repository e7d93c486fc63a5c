import Foundation
import NIOCore
import Testing
import SeamTesting
@testable import SeamServer

/// Fault matrix — an origin that misbehaves when a session starts: each fault gets its documented
/// error (docs/reliability.md) within the origin's time-out, and the server goes on serving.
@Suite(.serialized) struct OriginFaultTests {
    static let good = FaultMedia.vod(segments: 4)

    static let cases: [(name: String, route: FaultServer.Route, status: Int, code: String)] = [
        ("5xx", FaultServer.Route(status: 503, body: ByteBuffer(string: "busy")), 502, "ORIGIN_UNAVAILABLE"),
        ("404", FaultServer.Route(status: 404, body: ByteBuffer(string: "gone")), 502, "ORIGIN_NOT_FOUND"),
        ("410", FaultServer.Route(status: 410, body: ByteBuffer(string: "gone")), 502, "ORIGIN_NOT_FOUND"),
        ("slow", .text(good, delay: .seconds(600)), 504, "ORIGIN_TIMEOUT"),
        (
            "dripping",
            {
                var route = FaultServer.Route.text(good); route.dripEvery = .milliseconds(100); return route
            }(), 504, "ORIGIN_TIMEOUT"
        ),
        (
            "binary",
            FaultServer.Route(
                body: ByteBuffer(
                    bytes: [0x47, 0x40, 0x11, 0x10, 0x00, 0xFF, 0x00, 0x01] + Array(repeating: 0xFF, count: 180))), 502,
            "ORIGIN_INVALID_PLAYLIST"
        ),
        (
            "html", .text("<html><body>Login required</body></html>", contentType: "text/html"), 502,
            "ORIGIN_INVALID_PLAYLIST"
        ),
        ("empty", .text(""), 502, "ORIGIN_INVALID_PLAYLIST"),
        (
            "no-variants", .text("#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=1\n"), 502,
            "ORIGIN_INVALID_PLAYLIST"
        ),
    ]

    /// The error code says what ended each wait (`ORIGIN_TIMEOUT`: the 1.5 s time-out, where the
    /// drip would take 20 s); the time limit guards a hang.
    @Test(.timeLimit(.minutes(5)), arguments: 0..<cases.count)
    func aMisbehavingOriginGetsItsDocumentedError(_ index: Int) async throws {
        let item = Self.cases[index]
        let origin = FaultServer(["/title.m3u8": item.route])
        try await SeamStack.run({ $0.upstream.originTimeoutSeconds = 1.5 }) { stack in
            try await origin.run { base in
                let answer = try await stack.request("/v1/sessions", method: .POST, json: ["url": base + "/title.m3u8"])
                #expect(answer.status == item.status, "\(item.name): \(answer.body)")
                #expect(answer.errorCode == item.code, "\(item.name): \(answer.body)")
                #expect(try await stack.request("/healthz").status == 200)
            }
        }
    }

    @Test("An https URL to a plain-HTTP origin: 502 ORIGIN_NOT_TLS naming the fix, in Seam's words only")
    func tlsSpokenToAPlainHTTPOrigin() async throws {
        let origin = FaultServer(["/title.m3u8": .text(Self.good)])
        try await SeamStack.run { stack in
            try await origin.run { base in
                let https = base.replacingOccurrences(of: "http://", with: "https://") + "/title.m3u8"
                let answer = try await stack.request("/v1/sessions", method: .POST, json: ["url": https])
                #expect(answer.status == 502, "\(answer.body)")
                #expect(answer.errorCode == "ORIGIN_NOT_TLS", "\(answer.body)")
                let message = (answer.json["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("http://") && message.contains("seam.scheme=http"), "\(message)")
                for leak in ["NIOSSL", "BoringSSL", "WRONG_VERSION_NUMBER", "/checkouts/", "handshakeFailed", "errno"] {
                    #expect(!answer.body.contains(leak), "\(leak) in \(answer.body)")
                }
            }
        }
    }

    @Test("Nothing listening at the origin's port: the answer says so, without errno text or library names")
    func nothingListens() async throws {
        try await SeamStack.run { stack in
            let answer = try await stack.request(
                "/v1/sessions", method: .POST, json: ["url": "http://127.0.0.1:9/title.m3u8"])
            #expect(answer.status == 502, "\(answer.body)")
            #expect(answer.errorCode == "ORIGIN_UNAVAILABLE")
            #expect(answer.body.contains("refused"), "\(answer.body)")
            for leak in ["NIOConnectionError", "IOError", "errno", "Connection refused (", "/checkouts/"] {
                #expect(!answer.body.contains(leak), "\(leak) in \(answer.body)")
            }
        }
    }

    /// A media playlist that fails while its multivariant playlist was fine fails the start too:
    /// a session never plays with a rendition missing.
    @Test func aBrokenRenditionFailsTheStart() async throws {
        let origin = FaultServer([
            "/master.m3u8": .text(FaultMedia.multivariant(variants: 2)),
            "/v0.m3u8": .text(Self.good),
            "/v1.m3u8": FaultServer.Route(status: 500, body: ByteBuffer(string: "oops")),
        ])
        try await SeamStack.run { stack in
            try await origin.run { base in
                let answer = try await stack.request(
                    "/v1/sessions", method: .POST, json: ["url": base + "/master.m3u8"])
                #expect(answer.status == 502, "\(answer.body)")
                #expect(answer.errorCode == "ORIGIN_UNAVAILABLE", "\(answer.body)")
                #expect(answer.body.contains("v1.m3u8"), "\(answer.body)")
            }
        }
    }
}
