import Foundation
import NIOCore
import NIOPosix
import SeamTesting
import Testing

@testable import SeamServer

/// A VOD session's playlists are answered on the network thread, before the router
/// (`CachedPlaylistHandler`): a player must not be able to tell. Each playlist, asked with and
/// without `Origin` and `Accept-Encoding: gzip`, is answered early on a kept-alive connection and
/// by the router (`Connection: close` sends a request there): the same status, headers (the
/// `Date` aside) and bytes; both are counted in the request metrics.
@Suite(.heavy, .serialized) struct PlaylistsAnsweredEarlyTests {
    struct Answer: Equatable {
        var status: String
        var headers: [String]
        var body: [UInt8]
    }

    static func answer(
        _ path: String, port: Int, headers: [String], close: Bool, group: any EventLoopGroup
    ) async throws -> Answer {
        let connection = try await RawConnection.open(port: port, group: group)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { request += header + "\r\n" }
        if close { request += "Connection: close\r\n" }
        try await connection.send(request + "\r\n")
        // The head ends with a blank line; the body is as long as Content-Length says.
        #expect(await connection.waitFor("\r\n\r\n"))
        var bytes = connection.bytes
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw CancellationError()
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let length =
            lines.first { $0.lowercased().hasPrefix("content-length:") }.flatMap {
                Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            } ?? 0
        // A hang guard, not a budget: the body follows its head whenever the machine lets it.
        for _ in 0..<30000 where bytes.count < end + 4 + length {
            try await Task.sleep(for: .milliseconds(2))
            bytes = connection.bytes
        }
        await connection.close()
        let fields = lines.dropFirst().filter {
            let name = $0.lowercased()
            return !name.hasPrefix("date:") && !name.hasPrefix("connection:")
        }
        return Answer(status: lines[0], headers: fields.sorted(), body: Array(bytes[(end + 4)...]))
    }

    @Test(
        "Answered early or by the router, a VOD session's four playlists give the same status, headers and bytes, with and without Origin and gzip"
    )
    func earlyAnswersAreTheRoutersAnswers() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession()
            let manifest = try #require(session["manifestUrl"] as? String)
            let port = try #require(URL(string: stack.seamBaseURL)?.port)
            let base = String(manifest.dropFirst(stack.seamBaseURL.count).dropLast("master.m3u8".count))
            let paths = [
                base + "master.m3u8", base + "media/v0.m3u8", base + "interstitials/master.m3u8",
                base + "interstitials/media/v1.m3u8",
            ]
            let headerSets = [
                [], ["Origin: https://player.example"], ["Accept-Encoding: gzip, deflate"],
                ["Origin: https://player.example", "Accept-Encoding: gzip"], ["Connection: keep-alive"],
            ]
            let early = { ConnectionHarness.value("seam_http_playlists_answered_early_total", stack.metrics) ?? 0 }
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            var answeredEarly = 0.0
            for path in paths {
                for headers in headerSets {
                    let before = early()
                    let fast = try await Self.answer(path, port: port, headers: headers, close: false, group: group)
                    #expect(early() == before + 1, "\(path) \(headers) was not answered early")
                    answeredEarly += 1
                    let routed = try await Self.answer(path, port: port, headers: headers, close: true, group: group)
                    #expect(early() == before + 1, "\(path) \(headers) with Connection: close was answered early")
                    #expect(fast == routed, "\(path) \(headers)")
                    #expect(fast.status == "HTTP/1.1 200 OK")
                    #expect(!fast.body.isEmpty)
                }
            }
            #expect(early() == answeredEarly)
            // Both ways counted under the route, as one series.
            let series =
                #"seam_http_requests_total{route="/v1/sessions/{id}/media/{rendition}.m3u8",method="GET",status="200"}"#
            #expect((ConnectionHarness.value(series, stack.metrics) ?? 0) >= 10)
            try? await group.shutdownGracefully()
        }
    }

    @Test(
        "A live reload whose origin windows are at hand is answered early as the router answers it, stitched and interstitials, plain and gzip, a replaced break included; one that must wait for the origin goes to the router"
    )
    func liveReloadsAnsweredEarly() async throws {
        let origin = ScriptedLiveOrigin()
        let clock = TestClock()
        var configuration = SeamConfiguration()
        configuration.live.originCacheSeconds = 1
        configuration.ads.adTagURL = ScriptedLiveOrigin.vastURL
        let metrics = SeamMetrics()
        let app = try FaultMatrixApp.make(configuration, upstream: origin, clock: clock, metrics: metrics)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let created = try await client.call(
                "/v1/sessions", method: .post, json: ["url": ScriptedLiveOrigin.liveURL])
            let id = try #require(created.json["sessionId"] as? String)
            // A break at segment 21, decided by the reload that sees it (the router's: the window is new).
            origin.update {
                $0.last = 21
                $0.cueOuts[21] = 20
            }
            clock.advance(.milliseconds(1100))
            let stitched = "/v1/sessions/\(id)/media/v0.m3u8"
            _ = try await client.call(stitched)
            let replaced = await liveEventually {
                ((try? await client.call(stitched).body) ?? "").contains("/ad/0/")
            }
            #expect(replaced, "the break was not replaced")
            let early = { ConnectionHarness.value("seam_http_playlists_answered_early_total", metrics) ?? 0 }
            let paths = [
                stitched, "/v1/sessions/\(id)/media/v1.m3u8", "/v1/sessions/\(id)/interstitials/media/v0.m3u8",
            ]
            // Each rendition's window is fetched once, on the router's way, before it is at hand.
            for path in paths { _ = try await client.call(path) }
            for path in paths {
                for headers in [[], ["Accept-Encoding: gzip"], ["Origin: https://player.example"]] {
                    let before = early()
                    let fast = try await Self.answer(path, port: port, headers: headers, close: false, group: group)
                    #expect(early() == before + 1, "\(path) \(headers) was not answered early")
                    let routed = try await Self.answer(path, port: port, headers: headers, close: true, group: group)
                    #expect(early() == before + 1)
                    #expect(fast == routed, "\(path) \(headers)")
                    #expect(fast.status == "HTTP/1.1 200 OK")
                }
            }
            // The window expires on the test's clock: the channel moves on, whichever way answers.
            origin.update { $0.last = 27 }
            clock.advance(.milliseconds(1100))
            let moved = await liveEventually {
                let answer = try? await Self.answer(stitched, port: port, headers: [], close: false, group: group)
                return answer.map { String(decoding: $0.body, as: UTF8.self).contains("seg_27.ts") } ?? false
            }
            #expect(moved)
        }
        try? await group.shutdownGracefully()
    }

    @Test(
        "A DASH session's MPD, VOD and live (a replaced break in it), is answered early as the router answers it, plain, gzip and with Origin"
    )
    func dashManifestsAnsweredEarly() async throws {
        // The live channel's clock held where a break is in the window; the origin cache's on
        // the test's clock, so its MPD stays at hand however slowly the machine runs.
        let clock = TestClock()
        try await SeamStack.run(
            clock: clock,
            demo: { demo in
                demo.liveEpoch = LiveDASHEndToEndTests.epoch
                demo.liveClock = { LiveDASHEndToEndTests.epoch + 134 }
            },
            configure: { configuration, _ in
                configuration.live.originCacheSeconds = 10
                configuration.ads.trackingMode = "server"
            }
        ) { stack in
            let port = try #require(URL(string: stack.seamBaseURL)?.port)
            let early = { ConnectionHarness.value("seam_http_playlists_answered_early_total", stack.metrics) ?? 0 }
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            for url in [stack.demo.dashContentURL, stack.demo.liveDASHURL] {
                let manifest = try #require(try await stack.createSession(url: url)["manifestUrl"] as? String)
                // Live: the break is decided and its ad's media loaded before the MPD is at hand.
                let replaced = await liveEventually {
                    ((try? await stack.request(manifest).body) ?? "").contains("seam-ad-")
                }
                #expect(replaced, "\(url): no ad period")
                let path = String(manifest.dropFirst(stack.seamBaseURL.count))
                for headers in [[], ["Accept-Encoding: gzip"], ["Origin: https://player.example"]] {
                    let before = early()
                    let fast = try await Self.answer(path, port: port, headers: headers, close: false, group: group)
                    #expect(early() == before + 1, "\(url) \(headers) was not answered early")
                    let routed = try await Self.answer(path, port: port, headers: headers, close: true, group: group)
                    #expect(early() == before + 1)
                    #expect(fast == routed, "\(url) \(headers)")
                    #expect(fast.status == "HTTP/1.1 200 OK")
                    #expect(fast.headers.contains("Content-Type: application/dash+xml"), "\(fast.headers)")
                }
            }
            let series =
                #"seam_http_requests_total{route="/v1/sessions/{id}/manifest.mpd",method="GET",status="200"}"#
            #expect((ConnectionHarness.value(series, stack.metrics) ?? 0) >= 12)
            try? await group.shutdownGracefully()
        }
    }

    @Test("A session this replica does not hold, or a playlist it has not, is the router's: the same errors as ever")
    func theRestIsTheRouters() async throws {
        try await SeamStack.run { stack in
            let session = try await stack.createSession()
            let manifest = try #require(session["manifestUrl"] as? String)
            let missing = try await stack.request(
                manifest.replacingOccurrences(of: "master.m3u8", with: "media/v9.m3u8"))
            #expect(missing.status == 404)
            #expect(missing.body.contains("RENDITION_NOT_FOUND"), "\(missing.body)")
            let unknown = try await stack.request(
                stack.seamBaseURL + "/v1/sessions/" + String(repeating: "a", count: 40) + "/master.m3u8")
            #expect(unknown.status == 404 || unknown.status == 410, "\(unknown.status) \(unknown.body)")
            #expect(ConnectionHarness.value("seam_http_playlists_answered_early_total", stack.metrics) == 0)
        }
    }
}
