import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import SeamDemo
import SeamServer

/// Shared plumbing for the demo server tests: real servers on ephemeral loopback ports, a real
/// HTTP client, and a raw socket client for request targets an HTTP library would normalise.
package enum DemoTestSupport {
    /// The repository's `Samples/` folder, found from this file so tests run from any directory.
    package static let samplesRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SeamTesting
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Samples").path

    package static var mediaRoot: String { samplesRoot + "/media" }
    package static var vastRoot: String { samplesRoot + "/vast" }
    package static var webRoot: String { samplesRoot + "/web" }

    package static var quietLogger: Logger {
        var logger = Logger(label: "seam.demo.tests")
        logger.logLevel = .warning
        return logger
    }

    package static func configuration(
        mediaRoot: String = mediaRoot, vastRoot: String = vastRoot
    ) -> DemoServers.Configuration {
        var configuration = DemoServers.Configuration()
        configuration.mediaRoot = mediaRoot
        configuration.vastRoot = vastRoot
        configuration.originPort = 0
        configuration.adServerPort = 0
        configuration.logger = quietLogger
        return configuration
    }

    /// Runs `body` with both demo servers on free ports.
    package static func withServers<T: Sendable>(
        mediaRoot: String = mediaRoot, _ body: (DemoServers) async throws -> T
    ) async throws -> T {
        try await DemoServers.withRunning(configuration(mediaRoot: mediaRoot), body)
    }

    package struct Reply: Sendable {
        package var status: Int
        package var headers: HTTPHeaders
        package var body: ByteBuffer
        package var text: String { String(buffer: body) }
        package func header(_ name: String) -> String? { headers.first(name: name) }
    }

    package static func request(
        _ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: bytes)
    }

    /// Sends `target` verbatim in the request line (`GET <target> HTTP/1.1`) and returns the status
    /// code: HTTP clients resolve `..` and re-encode paths, which would hide what the server does.
    package static func rawStatus(host: String = "127.0.0.1", port: Int, target: String) async throws -> Int {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let response = try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(
                ByteBuffer(string: "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n"))
            var received = ByteBuffer()
            for try await var chunk in inbound {
                received.writeBuffer(&chunk)
                if received.readableBytes > 1 << 20 { break }
            }
            return String(buffer: received)
        }
        // "HTTP/1.1 404 Not Found"
        let statusLine = response.split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = statusLine.split(separator: " ")
        return parts.count > 1 ? Int(parts[1]) ?? -1 : -1
    }

    package static func fileSize(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? -1
    }

    /// A fresh temporary directory, removed by the returned cleanup.
    package static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("seam-demo-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
