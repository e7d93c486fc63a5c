import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing
import SeamTesting
@testable import SeamServer

/// Seam on a real loopback port, as `buildSeamApplication` builds it, with the test's server
/// settings, and an event loop of the test's own for raw client connections.
enum ConnectionHarness {
    static func run(
        _ adjust: (inout SeamConfiguration.Server) -> Void,
        gate: Gate = Gate(),
        _ body:
            @escaping @Sendable (_ port: Int, _ metrics: SeamMetrics, _ group: any EventLoopGroup) async throws -> Void
    ) async throws {
        var configuration = SeamConfiguration()
        configuration.server.host = "127.0.0.1"
        configuration.server.port = 0
        adjust(&configuration.server)
        let metrics = SeamMetrics()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        // Run by hand rather than with HummingbirdTesting, whose client holds a connection of its
        // own: these tests count connections exactly.
        let app = buildSeamApplication(
            configuration: configuration, logger: FaultMatrixApp.quietLogger,
            routes: [ConnectionTestRoutes(gate: gate)], metrics: metrics,
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            })
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { gate.open() }
        let outcome: Result<Void, any Error> = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                try? await ServiceGroup(configuration: .init(services: [app], logger: FaultMatrixApp.quietLogger)).run()
            }
            var port = 0
            for await value in ports { port = value }
            let result: Result<Void, any Error>
            if port > 0 {
                do {
                    // Limit tests open thousands of sockets: no subprocess starts meanwhile.
                    try await DescriptorFloodGate.flood { try await body(port, metrics, group) }
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(ConnectionHarnessError.didNotStart)
            }
            gate.open()
            tasks.cancelAll()
            return result
        }
        try? await group.shutdownGracefully()
        try outcome.get()
    }

    enum ConnectionHarnessError: Error {
        case didNotStart
    }

    /// A metric's value from Prometheus text (`name` with its labels, as written), or nil.
    static func value(_ series: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    static func value(_ series: String, _ metrics: SeamMetrics) -> Double? {
        value(series, in: String(decoding: metrics.exposition(), as: UTF8.self))
    }

    /// One `GET path` on a new connection (closed after the answer): the status, the seconds from
    /// connecting to the end of the answer, and the body.
    static func get(
        _ path: String, port: Int, group: any EventLoopGroup
    ) async throws -> (status: Int?, seconds: Double, body: String) {
        let started = NIODeadline.now()
        let connection = try await RawConnection.open(port: port, group: group)
        try await connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        _ = await connection.secondsUntilClosed(limit: .seconds(10))
        let seconds = Double((NIODeadline.now() - started).nanoseconds) / 1e9
        let text = connection.text
        let statusLine = text.split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (parts.count > 1 ? Int(parts[1]) : nil, seconds, body)
    }
}
