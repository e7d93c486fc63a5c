import NIOCore
import SeamTesting
import Testing

@testable import SeamServer

/// Playlists answered on the event loop (`CachedPlaylistHandler`) on real loopback sockets: answers
/// keep the order of the requests on a connection, whatever answers them; a connection goes on
/// after them; a request the router must see (a body, `Connection: close`) goes to the router;
/// and each is counted as the router's path counts it.
@Suite(.heavyAlone) struct CachedPlaylistHandlerTests {
    static let cached = CachedTestPlaylist.path
    static let get = "GET \(cached) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test(
        "Requests pipelined behind one the router still answers are answered after it, in order: a playlist at hand does not jump the queue"
    )
    func pipelinedAnswersKeepTheirOrder() async throws {
        let gate = Gate()
        try await ConnectionHarness.run({ _ in }, gate: gate) { port, metrics, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + Self.get + Self.get)
            // A hang guard, not a budget: the held request reaches the gate whenever the machine lets it.
            for _ in 0..<30000 where gate.waiting == 0 { try await Task.sleep(for: .milliseconds(2)) }
            #expect(gate.waiting == 1)
            #expect(!connection.text.contains("HTTP/1.1"), "answered before the held request: \(connection.text)")
            gate.open()
            #expect(await connection.waitFor("HTTP/1.1 ", count: 3))
            let text = connection.text
            // The held answer first; the two behind it went the router's way (its 404 for the
            // test's playlist), since the router's answer was not over when they came.
            let released = try #require(text.range(of: "released"))
            let others = try #require(text.range(of: "HTTP/1.1 404"))
            #expect(released.lowerBound < others.lowerBound, "\(text)")
            #expect(ConnectionHarness.value(#"seam_http_playlists_answered_early_total"#, metrics) == 0)
            // Once the router's answers are over, the next playlist is answered early again.
            try await connection.send(Self.get)
            #expect(await connection.waitFor("#EXTM3U"))
            #expect(ConnectionHarness.value(#"seam_http_playlists_answered_early_total"#, metrics) == 1)
            await connection.close()
        }
    }

    @Test(
        "Many cached playlists on one kept-alive connection, then a routed request on it: all answered, the connection stays open"
    )
    func aConnectionGoesOn() async throws {
        try await ConnectionHarness.run({ _ in }) { port, metrics, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send(String(repeating: Self.get, count: 5))
            #expect(await connection.waitFor("#EXT-X-VERSION:3", count: 5))
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await connection.waitFor("HTTP/1.1 200 OK", count: 6))
            try await connection.send(Self.get)
            #expect(await connection.waitFor("#EXT-X-VERSION:3", count: 6))
            #expect(connection.isOpen)
            // Counted with the route's name, as the router counts it.
            let series = #"seam_http_requests_total{route="/v1/sessions/{id}/master.m3u8",method="GET",status="200"}"#
            #expect(ConnectionHarness.value(series, metrics) == 6)
            #expect(ConnectionHarness.value(#"seam_http_playlists_answered_early_total"#, metrics) == 6)
            // Its headers: the router's playlist headers, the loop mark, the date and the server.
            let head = connection.text.components(separatedBy: "\r\n\r\n")[0].lowercased()
            for field in [
                "content-type: application/vnd.apple.mpegurl", "cache-control: no-cache", "content-length: 25",
                "via: 1.1 seam", "server: seam", "date: ",
            ] {
                #expect(head.contains(field), "\(field) missing in \(head)")
            }
            await connection.close()
        }
    }

    @Test(
        "A HEAD the router answers after an early answer on the same connection gets no body, and the GET after it its whole body: each answer framed for its own request"
    )
    func headAfterAnEarlyAnswer() async throws {
        try await ConnectionHarness.run({ _ in }) { port, _, group in
            let connection = try await RawConnection.open(port: port, group: group)
            try await connection.send(Self.get)
            #expect(await connection.waitFor("#EXT-X-VERSION:3"))
            // The router answers both (HEAD is never answered early); NIO's encoder frames each by
            // the method of the request it answers, which it pairs in order.
            try await connection.send("HEAD \(Self.cached) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await connection.waitFor("HTTP/1.1 ", count: 2))
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await connection.waitFor(#"{"status":"ok"}"#))
            // Read the answers in turn, each as long as its head and Content-Length say (none for
            // the HEAD's), and find nothing left over.
            var rest = Substring(connection.text)
            var bodies: [Substring] = []
            for method in ["GET", "HEAD", "GET"] {
                let end = try #require(rest.range(of: "\r\n\r\n"), "\(method) answer incomplete: \(rest)")
                let head = rest[..<end.lowerBound].lowercased()
                #expect(head.hasPrefix("http/1.1 "), "\(method) answer starts with \(head)")
                let length =
                    head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                let after = rest[end.upperBound...]
                let body = after.utf8.prefix(method == "HEAD" ? 0 : length)
                bodies.append(Substring(body))
                rest = after[body.endIndex...]
            }
            #expect(rest.isEmpty, "bytes after the third answer: \(rest)")
            #expect(bodies[0].hasPrefix("#EXTM3U"))
            #expect(bodies[1].isEmpty)
            #expect(bodies[2] == #"{"status":"ok"}"#, "the GET after the HEAD: \(bodies[2])")
            #expect(connection.isOpen)
            await connection.close()
        }
    }

    @Test(
        "A request that asks to close the connection, or sends a body, goes to the router; the connection closes as asked"
    )
    func theRoutersRequestsGoThere() async throws {
        try await ConnectionHarness.run({ _ in }) { port, metrics, group in
            let closing = try await RawConnection.open(port: port, group: group)
            try await closing.send("GET \(Self.cached) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(await closing.secondsUntilClosed(limit: .seconds(10)) != nil, "the connection was not closed")
            // The router has no route for the test's playlist: its 404 proves who answered.
            #expect(closing.text.hasPrefix("HTTP/1.1 404"), "\(closing.text)")
            let body = try await RawConnection.open(port: port, group: group)
            try await body.send("GET \(Self.cached) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello")
            #expect(await body.waitFor("HTTP/1.1"))
            #expect(body.text.hasPrefix("HTTP/1.1 404"), "\(body.text)")
            try await body.send(Self.get)
            #expect(await body.waitFor("HTTP/1.1", count: 2))
            #expect(body.text.contains("#EXTM3U"), "the next request on the connection is answered early again")
            #expect(ConnectionHarness.value(#"seam_http_playlists_answered_early_total"#, metrics) == 1)
            await body.close()
        }
    }

    @Test(
        "A connection kept busy only by playlists answered early is never closed sooner than the idle time-out after a request, and closes at it once idle"
    )
    func idleTimeOutSeesEarlyAnswers() async throws {
        // The idle time-out is run by the connection guard, which sees these requests; the
        // framework's, which they skip, is off (it took such a connection for an idle one). The
        // header-read time-out is the longer here, so the close's reason tells them apart.
        let idle = 1.5
        try await ConnectionHarness.run({
            $0.idleTimeoutSeconds = idle; $0.headerReadTimeoutSeconds = 5
        }) {
            port, metrics, group in
            let connection = try await RawConnection.open(port: port, group: group)
            let opened = NIODeadline.now()
            var answers = 0
            // When the last answered request was sent: its answer ended after that, and the idle
            // time-out runs from its end.
            var lastAnsweredSent = opened
            // Requests for two idle time-outs, each answered early.
            while NIODeadline.now() - opened < .milliseconds(Int64(2 * idle * 1000)), connection.isOpen {
                let sent = NIODeadline.now()
                do { try await connection.send(Self.get) } catch { break }
                guard await connection.waitFor("#EXTM3U", count: answers + 1) else { break }
                answers += 1
                lastAnsweredSent = sent
                // Pacing, not a budget: nothing races it.
                try await Task.sleep(for: .milliseconds(100))
            }
            // At least one: a machine stalled past the idle time-out between two requests has the
            // connection closed, rightly, after its first (the check below holds either way).
            #expect(answers >= 1, "\(connection.text)")
            #expect(ConnectionHarness.value(#"seam_http_playlists_answered_early_total"#, metrics) == Double(answers))
            _ = try #require(await connection.secondsUntilClosed(limit: .seconds(30)), "still open after 30 s")
            let closed = try await connection.closed.get()
            // Closed only once a request waited an idle time-out for its successor (only a machine
            // too busy to send the next one in time closes it during the loop; that is right too).
            let sinceLastRequest = Double((closed - lastAnsweredSent).nanoseconds) / 1e9
            #expect(sinceLastRequest >= idle - 0.05, "closed \(sinceLastRequest) s after its last request")
            #expect(
                ConnectionHarness.value(#"seam_http_connections_closed_total{reason="idle_timeout"}"#, metrics) == 1)
            #expect(
                ConnectionHarness.value(#"seam_http_connections_closed_total{reason="header_timeout"}"#, metrics) == 0)
        }
    }

    @Test("The Date header reads as the wall clock's IMF-fixdate")
    func dates() {
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(1_800_000_000) == "Fri, 15 Jan 2027 08:00:00 GMT")
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        var date = HTTPDate()
        #expect(date.text(at: 1_800_000_000) == date.text(at: 1_800_000_000))
        #expect(date.text(at: 1_800_000_001) == "Fri, 15 Jan 2027 08:00:01 GMT")
    }
}
