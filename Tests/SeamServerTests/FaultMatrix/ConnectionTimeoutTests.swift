import NIOCore
import Testing
@testable import SeamServer

/// Idle and half-sent connections are closed after their time-outs, on real loopback sockets:
/// a silent new connection and a trickled request head at `server.headerReadTimeoutSeconds`
/// (trickling does not extend it), an idle keep-alive connection at `server.idleTimeoutSeconds`,
/// and a slow answer is never cut by either. Each test awaits the close; none sleeps to wait.
///
/// On a busy machine a client can take a while between connecting and sending its first bytes:
/// a test whose request must arrive has a header-read time-out it cannot miss (`arrives`), and
/// an upper bound is only what tells one time-out from the other (the idle one is far longer),
/// never a stopwatch. (A 0.5 s time-out closed a connection before its request was sent, seen.)
@Suite struct ConnectionTimeoutTests {
    /// For connections that send nothing, or too slowly: the time-out under test.
    static let header = 0.5
    /// For connections whose request must arrive before the header-read time-out.
    static let arrives = 5.0
    /// The idle time-out where it is not the one under test: far beyond any header-read close.
    static let idle = 60.0

    @Test("A connection that sends nothing is closed at the header-read time-out, not the longer idle one")
    func silentConnection() async throws {
        try await ConnectionHarness.run({
            $0.headerReadTimeoutSeconds = Self.header; $0.idleTimeoutSeconds = Self.idle
        }) { port, metrics, group in
            let connection = try await RawConnection.open(port: port, group: group)
            let open = try #require(await connection.secondsUntilClosed(limit: .seconds(30)), "still open after 30 s")
            #expect(
                open >= Self.header - 0.05 && open < 30,
                "closed after \(open) s: by the header-read time-out, not the 60 s idle one")
            #expect(connection.text.isEmpty)
            #expect(
                ConnectionHarness.value(#"seam_http_connections_closed_total{reason="header_timeout"}"#, metrics) == 1)
        }
    }

    @Test("A request head trickled byte by byte (slowloris) is closed at the header-read time-out")
    func trickledHead() async throws {
        try await ConnectionHarness.run({
            $0.headerReadTimeoutSeconds = Self.header; $0.idleTimeoutSeconds = Self.idle
        }) { port, _, group in
            let connection = try await RawConnection.open(port: port, group: group)
            // Closed already on a busy machine: the time-out was quicker than the client, as it should be.
            try? await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            // The attacker's side: a header byte every 50 ms, for as long as the server allows.
            let trickle = Task {
                while connection.isOpen {
                    try? await connection.send("X")
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            let open = try #require(
                await connection.secondsUntilClosed(limit: .seconds(30)), "still open after 30 s: trickling extended it"
            )
            trickle.cancel()
            #expect(open >= Self.header - 0.05 && open < 30, "closed after \(open) s")
            #expect(connection.text.isEmpty, "\(connection.text)")
        }
    }

    @Test("A request body dripped byte by byte is closed at the same time-out as a trickled head")
    func drippedBody() async throws {
        try await ConnectionHarness.run({
            $0.headerReadTimeoutSeconds = Self.header; $0.idleTimeoutSeconds = Self.idle
        }) { port, _, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try? await connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 65536\r\n\r\n")
            let drip = Task {
                while connection.isOpen {
                    try? await connection.send("x")
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            let open = try #require(
                await connection.secondsUntilClosed(limit: .seconds(30)), "still open after 30 s: dripping extended it")
            drip.cancel()
            #expect(open >= Self.header - 0.05 && open < 30, "closed after \(open) s")
            #expect(connection.text.isEmpty, "\(connection.text)")
        }
    }

    @Test("A whole request with a body is answered")
    func requestWithBody() async throws {
        try await ConnectionHarness.run({
            $0.headerReadTimeoutSeconds = Self.arrives; $0.idleTimeoutSeconds = Self.idle
        }) { port, _, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send(
                "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
            _ = await connection.secondsUntilClosed(limit: .seconds(30))
            #expect(
                connection.text.hasPrefix("HTTP/1.1 200") && connection.text.hasSuffix("read 5"), "\(connection.text)")
        }
    }

    @Test("A keep-alive connection idle after its response is closed at the idle time-out, not the header-read one")
    func idleKeepAlive() async throws {
        // The header-read time-out (5 s) is longer than the idle one (1.5 s) here: a close well
        // before 5 s is the idle time-out's.
        try await ConnectionHarness.run({
            $0.headerReadTimeoutSeconds = Self.arrives; $0.idleTimeoutSeconds = 1.5
        }) { port, _, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let open = try #require(await connection.secondsUntilClosed(limit: .seconds(30)), "still open after 30 s")
            #expect(connection.text.hasPrefix("HTTP/1.1 200"), "\(connection.text)")
            #expect(open >= 1.5 - 0.05, "closed after \(open) s")
        }
    }

    @Test(
        "A request refused before its body is read (413) still leaves its connection to the idle time-out once the body is in"
    )
    func refusedBeforeTheBody() async throws {
        // The 413 ends before the request does; its end must not leave the connection counted
        // as handling a request for ever (then no time-out and no eviction would ever close it).
        try await ConnectionHarness.run({
            // The body is sent once the 413 is in: 30 s of room before the header-read time-out.
            $0.headerReadTimeoutSeconds = 30; $0.idleTimeoutSeconds = 1.5; $0.maxRequestBodyBytes = 100
        }) { port, metrics, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send("POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n\r\n")
            #expect(await connection.waitFor("HTTP/1.1 413"), "\(connection.text)")
            let sent = NIODeadline.now()
            do { try await connection.send(String(repeating: "x", count: 200)) } catch {}
            _ = try #require(await connection.secondsUntilClosed(limit: .seconds(60)), "still open after 60 s")
            let closed = try await connection.closed.get()
            #expect(
                ConnectionHarness.value(#"seam_http_connections_closed_total{reason="idle_timeout"}"#, metrics) == 1)
            #expect(Double((closed - sent).nanoseconds) / 1e9 >= 1.5 - 0.05)
        }
    }

    @Test("The second request's head on a keep-alive connection has the header-read time-out too")
    func secondHeadTimed() async throws {
        try await ConnectionHarness.run({
            $0.headerReadTimeoutSeconds = Self.arrives; $0.idleTimeoutSeconds = Self.idle
        }) { port, _, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answered = NIODeadline.now()
            #expect(await connection.waitFor(#"{"status":"ok"}"#), "\(connection.text)")
            #expect(connection.text.hasPrefix("HTTP/1.1 200"), "\(connection.text)")
            // Taken before the write: the server cannot see the bytes earlier, whatever the
            // machine's load makes the client's write take (a time taken after it raced that).
            let sent = NIODeadline.now()
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127")
            _ = try #require(
                await connection.secondsUntilClosed(limit: .seconds(40)),
                "still open after 40 s: the idle time-out (60 s) would close it later")
            let closed = try await connection.closed.get()
            let afterBytes = Double((closed - sent).nanoseconds) / 1e9
            #expect(afterBytes >= Self.arrives - 0.05, "closed \(afterBytes) s after the second head began")
            #expect(
                Double((closed - answered).nanoseconds) / 1e9 < 40,
                "the idle time-out (60 s) closed it, not the header-read one")
            #expect(
                connection.text.components(separatedBy: "HTTP/1.1 200").count == 2, "one answer: \(connection.text)")
        }
    }

    @Test("A request whose answer takes longer than both time-outs is answered, not cut")
    func slowAnswer() async throws {
        let gate = Gate()
        try await ConnectionHarness.run(
            {
                $0.headerReadTimeoutSeconds = 1.5; $0.idleTimeoutSeconds = 1.5
            }, gate: gate
        ) { port, _, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            // Held for about three idle time-outs: wait until the server closes the connection
            // for longer than that would allow, then answer.
            let early = await connection.secondsUntilClosed(limit: .milliseconds(4500), closeIfStillOpen: false)
            #expect(early == nil, "closed after \(early ?? 0) s while its request was being answered")
            gate.open()
            _ = await connection.secondsUntilClosed(limit: .seconds(30))
            #expect(
                connection.text.hasPrefix("HTTP/1.1 200") && connection.text.hasSuffix("released"), "\(connection.text)"
            )
        }
    }
}
