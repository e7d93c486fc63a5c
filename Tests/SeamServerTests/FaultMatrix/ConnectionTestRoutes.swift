import Hummingbird
import NIOConcurrencyHelpers
@testable import SeamServer

/// Routes for the connection tests: `/healthz` comes with every Seam application; `/held` answers
/// only when the test opens `gate`, so a test can keep requests in flight without sleeping.
struct ConnectionTestRoutes: SeamRouteProvider {
    let gate: Gate

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
