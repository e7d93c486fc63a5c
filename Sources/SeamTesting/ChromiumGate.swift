/// The runs that use a core — a browser playing faster than real time, an ffmpeg job — one at a
/// time across the whole test process (every test target runs in it): on 2 cores, two of them
/// starve each other and every test beside them, and a stall they cause is not the stream's.
///
/// A browser watching a live stream in real time (`realTime: true`) uses a fraction of a core
/// (measured: 50 s of CPU over a 130 s live test, Seam and the stack included) and mostly waits
/// for the live edge: two such watchers may run at once, beside the one run that uses a core.
/// Waiters of each kind are let in in order.
package actor ChromiumGate {
    package static let shared = ChromiumGate()

    /// How many of each kind run at once: one that uses a core, two real-time watchers.
    private static func limit(realTime: Bool) -> Int { realTime ? 2 : 1 }

    private var running: [Bool: Int] = [:]
    private var waiters: [Bool: [CheckedContinuation<Void, Never>]] = [:]

    package init() {}

    /// How many wait, of both kinds.
    package var waiting: Int { waiters.values.map(\.count).reduce(0, +) }

    package func acquire(realTime: Bool = false) async {
        if waiters[realTime, default: []].isEmpty && running[realTime, default: 0] < Self.limit(realTime: realTime) {
            running[realTime, default: 0] += 1
            return
        }
        // Counted as running by `release` before it is resumed.
        await withCheckedContinuation { waiters[realTime, default: []].append($0) }
    }

    package func release(realTime: Bool = false) {
        if waiters[realTime, default: []].isEmpty {
            running[realTime, default: 0] -= 1
        } else {
            waiters[realTime, default: []].removeFirst().resume()
        }
    }

    /// Runs `body` holding the gate (as a real-time watcher or as a run that uses a core).
    package static func withChromium<Value: Sendable>(
        realTime: Bool = false,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let asked = TestTimeline.now
        await shared.acquire(realTime: realTime)
        let given = TestTimeline.now
        defer { TestTimeline.record(gate: realTime ? "chromium (real time)" : "chromium", asked: asked, given: given) }
        do {
            let value = try await body()
            await shared.release(realTime: realTime)
            return value
        } catch {
            await shared.release(realTime: realTime)
            throw error
        }
    }
}
