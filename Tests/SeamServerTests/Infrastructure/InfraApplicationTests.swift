import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
@testable import SeamServer

/// A route provider with the routes the application tests need.
struct InfraTestRoutes: SeamRouteProvider {
    static let playlist: String = {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for index in 0..<100 { text += "#EXTINF:6.000,\nhttps://cdn.example.com/content/segment_\(index).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }()

    struct Secret: Error, CustomStringConvertible {
        var description: String { "database password is hunter2 at /etc/seam/secret" }
    }

    func addRoutes(to router: Router<SeamRequestContext>) {
        router.get("/test/playlist.m3u8") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl"],
                body: .init(byteBuffer: ByteBuffer(string: Self.playlist)))
        }
        router.get("/test/small.m3u8") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl"],
                body: .init(byteBuffer: ByteBuffer(string: "#EXTM3U\n")))
        }
        router.get("/test/segment.ts") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "video/mp2t"],
                body: .init(byteBuffer: ByteBuffer(repeating: 0x47, count: 8192)))
        }
        router.get("/test/expired") { _, _ -> Response in
            throw SeamError(.sessionExpired, "This session has expired. Start a new session.")
        }
        router.get("/test/crash") { _, _ -> Response in
            throw Secret()
        }
        router.post("/test/echo") { request, context -> Response in
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            return Response(status: .ok, body: .init(byteBuffer: body))
        }
    }
}

@Suite("Infra: application, middlewares and health routes")
struct InfraApplicationTests {
    static func app(
        _ edit: (inout SeamConfiguration) -> Void = { _ in },
        metrics: SeamMetrics = SeamMetrics(),
        readiness: @escaping @Sendable () async -> Bool = { true }
    ) -> some ApplicationProtocol {
        var configuration = SeamConfiguration()
        edit(&configuration)
        var logger = Logger(label: "infra-test-app")
        logger.logLevel = .critical
        return buildSeamApplication(
            configuration: configuration, logger: logger, routes: [InfraTestRoutes()],
            metrics: metrics, readiness: readiness)
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))
        return try #require(object as? [String: Any])
    }

    @Test("GET /healthz answers ok")
    func healthz() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test("GET /readyz follows the readiness check")
    func readyz() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        try await Self.app(readiness: { false }).test(.router) { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("not ready"))
            }
        }
    }

    @Test("GET /metrics shows the request counter by route and status")
    func metrics() async throws {
        let metrics = SeamMetrics()
        try await Self.app(metrics: metrics).test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(!String(buffer: response.body).contains(#"route="/healthz""#))
            }
            try await client.execute(uri: "/healthz", method: .get)
            try await client.execute(uri: "/healthz", method: .get)
            try await client.execute(uri: "/test/expired", method: .get)
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                let text = String(buffer: response.body)
                #expect(text.contains("# TYPE seam_http_requests_total counter"))
                #expect(
                    text.contains(#"seam_http_requests_total{route="/healthz",method="GET",status="200"} 2"#), "\(text)"
                )
                #expect(text.contains(#"seam_http_requests_total{route="/test/expired",method="GET",status="410"} 1"#))
                #expect(text.contains("seam_http_request_duration_seconds_bucket"))
            }
        }
    }

    @Test("gzip: compressed when accepted and large enough, and the bytes round-trip")
    func gzipApplied() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(
                uri: "/test/playlist.m3u8", method: .get, headers: [.acceptEncoding: "br;q=1.0, gzip;q=0.8"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.headers[values: .vary].contains("Accept-Encoding"))
                #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                var compressed = response.body
                #expect(compressed.readableBytes < InfraTestRoutes.playlist.utf8.count / 3)
                let plain = try compressed.decompress(with: .gzip())
                #expect(String(buffer: plain) == InfraTestRoutes.playlist)
            }
        }
    }

    @Test("gzip: not applied when not accepted, too small, not text, refused with q=0, or switched off")
    func gzipSkipped() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/test/playlist.m3u8", method: .get) { response in
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.headers[values: .vary].contains("Accept-Encoding"))  // caches must still know
                #expect(String(buffer: response.body) == InfraTestRoutes.playlist)
            }
            try await client.execute(
                uri: "/test/playlist.m3u8", method: .get, headers: [.acceptEncoding: "gzip;q=0, identity"]
            ) { response in
                #expect(response.headers[.contentEncoding] == nil)
            }
            try await client.execute(uri: "/test/small.m3u8", method: .get, headers: [.acceptEncoding: "gzip"]) {
                response in
                #expect(response.headers[.contentEncoding] == nil)
                #expect(String(buffer: response.body) == "#EXTM3U\n")
            }
            try await client.execute(uri: "/test/segment.ts", method: .get, headers: [.acceptEncoding: "gzip"]) {
                response in
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.body.readableBytes == 8192)
            }
        }
        try await Self.app({ $0.server.gzip = false }).test(.router) { client in
            try await client.execute(uri: "/test/playlist.m3u8", method: .get, headers: [.acceptEncoding: "gzip"]) {
                response in
                #expect(response.headers[.contentEncoding] == nil)
            }
        }
    }

    @Test(
        "Accept-Encoding parsing",
        arguments: [
            ("gzip", true), ("GZIP", true), ("deflate, gzip", true), ("gzip;q=0.5", true), ("*", true),
            ("gzip;q=0", false), ("*;q=0", false), ("br", false), ("", false), ("identity", false),
            ("br, *;q=0.1", true),
            ("gzip;q=0, *", false),
            // Without parameters (read without allocating): any listed gzip, x-gzip or *.
            ("gzip, deflate, br", true), (" br ,  x-gzip ", true), ("br,deflate", false), ("gzipped", false),
            ("br, Gzip", true), (",", false), ("deflate, *", true),
        ])
    func acceptEncoding(header: String, expected: Bool) {
        #expect(GzipMiddleware<SeamRequestContext>.acceptsGzip([header]) == expected)
    }

    @Test("A thrown SeamError becomes its status and JSON body")
    func seamErrorShape() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/test/expired", method: .get) { response in
                #expect(response.status == .gone)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let body = try Self.json(response.body)
                let error = try #require(body["error"] as? [String: String])
                #expect(error["code"] == "SESSION_EXPIRED")
                #expect(error["message"] == "This session has expired. Start a new session.")
                #expect(body.count == 1)
            }
        }
    }

    @Test("Any other error is 500 INTERNAL_ERROR without internals; unknown paths are JSON 404s")
    func otherErrors() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/test/crash", method: .get) { response in
                #expect(response.status == .internalServerError)
                let text = String(buffer: response.body)
                #expect(!text.contains("hunter2"))
                #expect(!text.contains("/etc/seam"))
                let error = try #require(try Self.json(response.body)["error"] as? [String: String])
                #expect(error["code"] == "INTERNAL_ERROR")
            }
            try await client.execute(uri: "/no/such/path", method: .get) { response in
                #expect(response.status == .notFound)
                let error = try #require(try Self.json(response.body)["error"] as? [String: String])
                #expect(error["code"] == "NOT_FOUND")
            }
        }
    }

    @Test("A request body over server.maxRequestBodyBytes is 413 PAYLOAD_TOO_LARGE")
    func bodyLimit() async throws {
        let app = Self.app { $0.server.maxRequestBodyBytes = 100 }
        // Over real HTTP, with the Content-Length the client declares.
        try await app.test(.live) { client in
            try await client.execute(uri: "/test/echo", method: .post, body: ByteBuffer(repeating: 0x61, count: 101)) {
                response in
                #expect(response.status == .contentTooLarge)
                let error = try #require(try Self.json(response.body)["error"] as? [String: String])
                #expect(error["code"] == "PAYLOAD_TOO_LARGE")
                #expect(error["message"]?.contains("100 bytes") == true)
            }
            try await client.execute(uri: "/test/echo", method: .post, body: ByteBuffer(repeating: 0x61, count: 100)) {
                response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 100)
            }
        }
        // Without a declared length, the body is counted as it arrives.
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/test/echo", method: .post, headers: [.transferEncoding: "chunked"],
                body: ByteBuffer(repeating: 0x61, count: 5000)
            ) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
    }
}
