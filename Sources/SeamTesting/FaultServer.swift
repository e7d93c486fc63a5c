import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import SeamServer

/// A loopback HTTP server whose answers a fault test scripts per path (a body, a status, a delay
/// standing for the upstream's own latency), playing origin, ad server and ad CDN at once. It
/// counts the requests per path and the most it held at once.
package final class FaultServer: Sendable {
    package struct Route: Sendable {
        package var status = 200
        package var body: ByteBuffer
        /// How long the server takes to answer (its latency, not a wait of the test's).
        package var delay: Duration = .zero
        package var contentType = "application/vnd.apple.mpegurl"
        /// Send the body one byte at a time, this far apart (an upstream that drips its answer).
        package var dripEvery: Duration?

        package init(
            status: Int = 200, body: ByteBuffer, delay: Duration = .zero,
            contentType: String = "application/vnd.apple.mpegurl", dripEvery: Duration? = nil
        ) {
            self.status = status
            self.body = body
            self.delay = delay
            self.contentType = contentType
            self.dripEvery = dripEvery
        }

        package static func text(
            _ text: String, delay: Duration = .zero, contentType: String = "application/vnd.apple.mpegurl"
        ) -> Route {
            Route(body: ByteBuffer(string: text), delay: delay, contentType: contentType)
        }
    }

    private struct State {
        /// Exact paths, and prefixes ending in `/` (the longest matching one answers).
        package var routes: [String: Route] = [:]
        package var requests: [String: Int] = [:]
        /// Every request as it arrived: the request target (path and query, byte for byte) and headers.
        package var received: [Received] = []
        package var inFlight = 0
        package var mostInFlight = 0
        /// Delayed answers still waiting; released when the test ends so the server stops at once.
        package var sleepers: [UInt64: CheckedContinuation<Void, Never>] = [:]
        package var nextSleeper: UInt64 = 0
        package var closing = false
        /// Tests awaiting a number of requests.
        package var arrivals: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    package init(_ routes: [String: Route] = [:]) {
        state.withLockedValue { $0.routes = routes }
    }

    package func route(_ path: String, _ route: Route) {
        state.withLockedValue { $0.routes[path] = route }
    }

    /// One request as the server received it.
    package struct Received: Sendable {
        /// Path and query exactly as sent.
        package var target: String
        package var headers: [(name: String, value: String)]

        package func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// Every request so far whose path starts with `prefix`, in order of arrival.
    package func received(_ prefix: String = "") -> [Received] {
        state.withLockedValue { $0.received.filter { $0.target.hasPrefix(prefix) } }
    }

    /// Requests for paths starting with `prefix` (every request when empty).
    package func requests(_ prefix: String = "") -> Int {
        state.withLockedValue { $0.requests.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +) }
    }

    /// The most requests the server held at once.
    package var mostInFlight: Int { state.withLockedValue { $0.mostInFlight } }

    /// Returns once the server has received `count` requests in all.
    package func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLockedValue { state -> Bool in
                guard state.requests.values.reduce(0, +) < count else { return true }
                state.arrivals.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends the delays of the answers waiting now (a route with a long delay is a held answer).
    package func releaseHeld() {
        let sleepers = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            defer { state.sleepers = [:] }
            return Array(state.sleepers.values)
        }
        sleepers.forEach { $0.resume() }
    }

    private func begin(_ path: String) -> Route? {
        let (route, arrived) = state.withLockedValue { state -> (Route?, [CheckedContinuation<Void, Never>]) in
            state.requests[path, default: 0] += 1
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            let total = state.requests.values.reduce(0, +)
            let arrived = state.arrivals.filter { $0.count <= total }.map(\.continuation)
            state.arrivals.removeAll { $0.count <= total }
            if let exact = state.routes[path] { return (exact, arrived) }
            let prefixed = state.routes.filter { $0.key.hasSuffix("/") && path.hasPrefix($0.key) }.max {
                $0.key.count < $1.key.count
            }?.value
            return (prefixed, arrived)
        }
        arrived.forEach { $0.resume() }
        return route
    }

    private func end() {
        state.withLockedValue { $0.inFlight -= 1 }
    }

    /// The route's latency: a wait that ends early when the test is over.
    private func delay(_ duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask {
                let id = self.state.withLockedValue { state -> UInt64 in
                    state.nextSleeper += 1
                    return state.nextSleeper
                }
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let now = self.state.withLockedValue { state -> Bool in
                            if state.closing || Task.isCancelled { return true }
                            state.sleepers[id] = continuation
                            return false
                        }
                        if now { continuation.resume() }
                    }
                } onCancel: {
                    self.state.withLockedValue { $0.sleepers.removeValue(forKey: id) }?.resume()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Ends every delayed answer now.
    private func close() {
        let sleepers = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.closing = true
            defer { state.sleepers = [:] }
            return Array(state.sleepers.values)
        }
        sleepers.forEach { $0.resume() }
    }

    /// Runs the server on 127.0.0.1 and a free port for the duration of `body`, which gets its base URL.
    package func run<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        let server = self
        router.get("/**") { request, _ -> Response in
            let path = request.uri.path
            let received = Received(
                target: request.uri.description,
                headers: request.headers.map { (name: $0.name.rawName, value: $0.value) })
            server.state.withLockedValue { $0.received.append(received) }
            guard let route = server.begin(path) else {
                server.end()
                return Response(status: .notFound)
            }
            defer { server.end() }
            if route.delay > .zero { await server.delay(route.delay) }
            if let drip = route.dripEvery {
                let body = route.body
                return Response(
                    status: .init(code: route.status), headers: [.contentType: route.contentType],
                    body: ResponseBody { writer in
                        for byte in body.readableBytesView {
                            try await writer.write(ByteBuffer(bytes: [byte]))
                            await server.delay(drip)
                        }
                        try await writer.finish(nil)
                    })
            }
            return Response(
                status: .init(code: route.status), headers: [.contentType: route.contentType],
                body: .init(byteBuffer: route.body))
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: quietLogger)
        return try await app.test(.live) { client in
            guard let port = client.port else { throw LiveServerError.noPort }
            defer { server.close() }
            return try await body("http://127.0.0.1:\(port)")
        }
    }
}

/// Playlists and VAST the fault tests serve.
package enum FaultMedia {
    /// A finished media playlist of `segments` segments of `seconds` each (MPEG-TS), optionally
    /// with a cue out of `cueSeconds` on its first segment.
    package static func vod(
        segments: Int, seconds: Double = 6, prefix: String = "seg", cueSeconds: Double? = nil
    ) -> String {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(Int(seconds.rounded(.up)))\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MEDIA-SEQUENCE:0\n"
        text.reserveCapacity(segments * 28 + 200)
        for index in 0..<segments {
            if index == 0, let cueSeconds { text += "#EXT-X-CUE-OUT:\(cueSeconds)\n" }
            text += "#EXTINF:\(seconds),\n\(prefix)\(index).ts\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// A multivariant playlist listing `count` variants `v0.m3u8`, `v1.m3u8`, ...
    package static func multivariant(variants count: Int) -> String {
        var text = "#EXTM3U\n"
        for index in 0..<count {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(800_000 + index * 1000)\nv\(index).m3u8\n"
        }
        return text
    }

    /// A VAST pod: ad `i` (from 1) has sequence `i`, lasts `seconds` and its HLS creative is `creative(i)`.
    package static func pod(count: Int, seconds: Int = 10, creative: (Int) -> String) -> String {
        var text = "<VAST version=\"4.2\">"
        for index in 1...count {
            text += """
                <Ad id="ad\(index)" sequence="\(index)"><InLine><AdSystem>Fault</AdSystem><AdTitle>ad\(index)</AdTitle>
                <Impression><![CDATA[http://127.0.0.1:9/track]]></Impression>
                <Creatives><Creative><Linear><Duration>00:00:\(String(format: "%02d", seconds))</Duration>
                <MediaFiles><MediaFile delivery="streaming" type="application/x-mpegURL" width="1280" height="720"><![CDATA[\(creative(index))]]></MediaFile></MediaFiles>
                </Linear></Creative></Creatives></InLine></Ad>
                """
        }
        return text + "</VAST>"
    }
}
