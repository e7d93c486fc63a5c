import NIOCore
import SeamTesting
import Testing
@testable import SeamServer

/// `server.maxConnections` on real loopback sockets: at the limit a new viewer is served at once
/// because the connection that has waited longest for a request is closed for it (silent and
/// half-sent ones alike, oldest first); connections with a request in flight are never closed for
/// room, and when all of them have one the new connection is closed at once.
@Suite(.heavyAlone) struct ConnectionLimitTests {
    static let openSeries = "seam_http_connections_open"
    static func closedSeries(_ reason: String) -> String { #"seam_http_connections_closed_total{reason="\#(reason)"}"# }

    /// Waits until Seam has admitted `count` connections (it admits them on its own event loop,
    /// a moment after the client's connect returns).
    func awaitOpen(_ count: Int, _ metrics: SeamMetrics) async -> Bool {
        for _ in 0..<2000 {
            if (ConnectionHarness.value(Self.openSeries, metrics) ?? 0) >= Double(count) { return true }
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(2))
        }
        return false
    }

    @Test("At the limit, each new viewer is served at once and the longest-waiting idle connection is closed for it")
    func oldestIdleMakesRoom() async throws {
        let limit = 24
        try await ConnectionHarness.run({
            $0.maxConnections = limit; $0.headerReadTimeoutSeconds = 60; $0.idleTimeoutSeconds = 60
        }) { port, metrics, group in
            var idle: [RawConnection] = []
            for index in 0..<limit {
                let connection = try await RawConnection.open(port: port, group: group)
                if index.isMultiple(of: 2) {
                    try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                }
                idle.append(connection)
                #expect(await awaitOpen(index + 1, metrics))
            }
            #expect(ConnectionHarness.value(Self.openSeries, metrics) == Double(limit))
            #expect(ConnectionHarness.value(Self.closedSeries("evicted"), metrics) == 0)
            // Viewers keep their connections open (keep-alive), so each one needs room of its own.
            var viewers: [RawConnection] = []
            for viewer in 0..<3 {
                let started = NIODeadline.now()
                let connection = try await RawConnection.open(port: port, group: group)
                try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await connection.waitFor(#"{"status":"ok"}"#), "viewer \(viewer): \(connection.text)")
                let seconds = Double((NIODeadline.now() - started).nanoseconds) / 1e9
                #expect(connection.text.hasPrefix("HTTP/1.1 200"), "viewer \(viewer)")
                #expect(seconds < 1, "viewer \(viewer) waited \(seconds) s")
                viewers.append(connection)
            }
            #expect(viewers.allSatisfy { $0.isOpen })
            // Each new viewer closed the connection that had waited longest: the first three opened,
            // silent or half-sent, in order, and no other.
            for connection in idle.prefix(3) { _ = await connection.secondsUntilClosed(limit: .seconds(2)) }
            let closedByServer = idle.enumerated().filter { !$0.element.isOpen }.map(\.offset)
            #expect(closedByServer == [0, 1, 2], "\(closedByServer)")
            #expect(ConnectionHarness.value(Self.closedSeries("evicted"), metrics) == 3)
            #expect((ConnectionHarness.value(Self.openSeries, metrics) ?? 0) <= Double(limit))
            for connection in idle + viewers { await connection.close() }
        }
    }

    @Test(
        "Connections with a request in flight are never closed for room; with all of them busy a new connection is closed at once"
    )
    func busyConnectionsStay() async throws {
        let limit = 6
        let gate = Gate()
        try await ConnectionHarness.run(
            {
                $0.maxConnections = limit; $0.headerReadTimeoutSeconds = 60; $0.idleTimeoutSeconds = 60
            },
            gate: gate
        ) { port, metrics, group in
            var busy: [RawConnection] = []
            for index in 0..<limit {
                let connection = try await RawConnection.open(port: port, group: group)
                try await connection.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                busy.append(connection)
                #expect(await awaitOpen(index + 1, metrics))
            }
            // Wait until all six requests are in flight (at the gate).
            for _ in 0..<2000 where gate.waiting < limit { try? await Task.sleep(for: .milliseconds(2)) }
            #expect(gate.waiting == limit)

            let refused = try await RawConnection.open(port: port, group: group)
            let open = await refused.secondsUntilClosed(limit: .seconds(2))
            #expect(
                open != nil && (open ?? 9) < 1,
                "a new connection at a full limit of busy ones stayed open \(open ?? -1) s")
            #expect(refused.text.isEmpty)
            #expect(ConnectionHarness.value(Self.closedSeries("refused"), metrics) == 1)
            #expect(busy.allSatisfy { $0.isOpen }, "a connection with a request in flight was closed")

            gate.open()
            for connection in busy {
                #expect(await connection.waitFor("released"), "\(connection.text)")
                #expect(connection.text.hasPrefix("HTTP/1.1 200"))
            }
            // Now they wait for their next request, and a new viewer gets room again.
            let answer = try await ConnectionHarness.get("/healthz", port: port, group: group)
            #expect(answer.status == 200 && answer.seconds < 1, "\(answer)")
            for connection in busy { await connection.close() }
        }
    }
}
