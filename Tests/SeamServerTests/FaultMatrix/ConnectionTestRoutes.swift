import Hummingbird
import NIOCore
import NIOConcurrencyHelpers
@testable import SeamServer

/// Routes for the connection tests: `/healthz` comes with every Seam application; `/held` answers
/// only when the test opens `gate`, so a test can keep requests in flight without sleeping.
struct ConnectionTestRoutes: SeamRouteProvider {
    let gate: Gate

    /// `/v1/sessions/cached/master.m3u8` is answered before the router.
    var cachedPlaylists: (any CachedPlaylistAnswering)? { CachedTestPlaylist() }

    func addRoutes(to router: Router<SeamRequestContext>) {
        router.get("/held") { _, _ -> String in
            await gate.wait()
            return "released"
        }
        router.post("/echo") { request, _ -> String in
            let body = try await request.body.collect(upTo: 1 << 16)
            return "read \(body.readableBytes)"
        }
    }
}

/// A one-shot gate: `wait()` suspends until `open()`; counts who is waiting.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    var waiting: Int { state.withLockedValue { $0.waiters.count } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLockedValue { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// One playlist at hand, as a VOD session's are.
struct CachedTestPlaylist: CachedPlaylistAnswering {
    static let path = "/v1/sessions/cached/master.m3u8"
    static let body = "#EXTM3U\n#EXT-X-VERSION:3\n"

    func cachedPlaylist(path: Substring, acceptsGzip: Bool) -> CachedPlaylist? {
        guard path == Self.path else { return nil }
        return CachedPlaylist(
            route: .master, body: ByteBuffer(string: Self.body), gzipped: false)
    }
}
