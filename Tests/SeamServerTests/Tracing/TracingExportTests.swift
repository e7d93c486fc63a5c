import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import SeamDemo
import SeamTesting
import Testing

/// A real `seam serve` exporting to a tiny OTLP/HTTP collector on loopback: what an operator's
/// collector receives, and that the process's log lines carry the same trace ids.
@Suite(.serialized) struct TracingExportTests {
    /// Every body POSTed to `/v1/traces`, as received (OTLP protobuf).
    final class Collector: Sendable {
        private let received = NIOLockedValueBox<[[UInt8]]>([])
        var bodies: [[UInt8]] { received.withLockedValue { $0 } }

        /// Runs a collector on a free loopback port for `body`, which gets its base URL.
        func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
            let router = Router()
            router.post("/v1/traces") { request, _ -> Response in
                let bytes = try await request.body.collect(upTo: 16 << 20)
                self.received.withLockedValue { $0.append(Array(buffer: bytes)) }
                // An empty ExportTraceServiceResponse: everything accepted.
                return Response(
                    status: .ok, headers: [.contentType: "application/x-protobuf"],
                    body: .init(byteBuffer: ByteBuffer()))
            }
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: quietLogger)
            try await app.test(.live) { client in
                try await body("http://127.0.0.1:\(try #require(client.port))")
            }
        }

        /// Whether any body holds `bytes` (a span name, a raw trace id).
        func contains(_ bytes: [UInt8]) -> Bool {
            bodies.contains { body in
                guard body.count >= bytes.count, let first = bytes.first else { return false }
                return body.indices.dropLast(bytes.count - 1).contains {
                    body[$0] == first && Array(body[$0..<$0 + bytes.count]) == bytes
                }
            }
        }
    }

    /// The JSON log lines (`server.logFormat=json`) of a process's output with this message.
    static func logLines(_ log: String, message: String) -> [[String: Any]] {
        log.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard line.hasPrefix("{"),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["message"] as? String == message
            else { return nil }
            return object
        }
    }

    /// `0af7651916cd43dd8448eb211c80319c` → its 16 bytes, as OTLP protobuf carries a trace id.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }

    static func createSession(seam: SeamExecutable, url: String) async throws -> Int {
        let reply = try await DemoTestSupport.request(
            "http://127.0.0.1:\(seam.port)/v1/sessions", method: .POST,
            headers: [("Content-Type", "application/json")], body: "{\"url\": \"\(url)\"}")
        return reply.status
    }

    @Test("tracing.otlpEndpoint set: the collector receives the session's spans, and its log line names their trace id")
    func exportsSpans() async throws {
        let collector = Collector()
        let state = try DemoTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try await collector.run { endpoint in
            try await DemoTestSupport.withServers { demo in
                let seam = try await SeamExecutable.serve(
                    [
                        "tracing.otlpEndpoint=\(endpoint)", "tracing.serviceName=seam-under-test",
                        "server.logFormat=json", "upstream.allowPrivateNetworks=true",
                        "ads.adTagURL=\(demo.adServer.baseURL)/vast/wrapper-chain?depth=2",
                        // Room for a loaded machine: the ads (and so their spans) always come.
                        "ads.totalBudgetSeconds=30", "ads.requestTimeoutSeconds=10",
                        // and the content: a 5 s origin time-out answered 504 once in a full run.
                        "upstream.originTimeoutSeconds=30", "upstream.adMediaTimeoutSeconds=30",
                    ], stateDirectory: state)
                let status: Int
                do {
                    status = try await Self.createSession(seam: seam, url: demo.contentURL)
                } catch {
                    await seam.stop()
                    throw error
                }
                // SIGTERM: the exporter stops after the server and sends what is queued.
                await seam.stop()
                #expect(status == 201, "\(seam.log.suffix(2000))")
                #expect(seam.process.terminationStatus == 0)

                let created = try #require(
                    Self.logLines(seam.log, message: "session created").first, "\(seam.log.suffix(2000))")
                let metadata = try #require(created["metadata"] as? [String: String])
                let traceID = try #require(metadata["trace_id"])
                #expect(traceID.count == 32, "a W3C trace id: \(traceID)")
                #expect(metadata["span_id"]?.count == 16)

                #expect(
                    !collector.bodies.isEmpty, "nothing reached the collector; seam's log: \(seam.log.suffix(2000))")
                for name in [
                    "POST /v1/sessions", "session.create", "origin.fetch", "ad.decision", "ad.request",
                    "creative.fetch",
                    "seam-under-test",
                ] {
                    #expect(collector.contains(Array(name.utf8)), "no \(name) in what the collector received")
                }
                let rawTraceID = try #require(Self.bytes(hex: traceID))
                #expect(collector.contains(rawTraceID), "the log's trace id \(traceID) is not among the exported spans")
                // The ad tag's query (personal data in production) never leaves in a span.
                #expect(!collector.contains(Array("depth=2".utf8)))
            }
        }
    }

    @Test(
        "tracing.otlpEndpoint empty: nothing is sent, even with OTEL_EXPORTER_OTLP_ENDPOINT set, and logs carry no trace id"
    )
    func offSendsNothing() async throws {
        let collector = Collector()
        let state = try DemoTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try await collector.run { endpoint in
            try await DemoTestSupport.withServers { demo in
                let seam = try await SeamExecutable.serve(
                    [
                        "server.logFormat=json", "upstream.allowPrivateNetworks=true",
                        "ads.adTagURL=\(demo.vmapURL)",
                    ],
                    stateDirectory: state,
                    environment: [
                        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
                        "OTEL_BSP_SCHEDULE_DELAY": "100",
                    ])
                let status: Int
                do {
                    status = try await Self.createSession(seam: seam, url: demo.contentURL)
                    // Longer than the schedule delay an exporter would have used.
                    try await Task.sleep(for: .milliseconds(500))
                } catch {
                    await seam.stop()
                    throw error
                }
                await seam.stop()
                #expect(status == 201)
                #expect(collector.bodies.isEmpty)
                let created = try #require(
                    Self.logLines(seam.log, message: "session created").first, "\(seam.log.suffix(2000))")
                #expect((created["metadata"] as? [String: String])?["trace_id"] == nil)
                #expect(!seam.log.contains("trace_id"))
            }
        }
    }
}
