/// One long Chromium run at a time across the whole test process (every test target runs in
/// it): on 2 cores, two headless browsers playing for a minute starve each other and every timed
/// test beside them, and a stall they cause is not the stream's. Waiters are resumed in order.
package actor ChromiumGate {
    package static let shared = ChromiumGate()

    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    package func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }

    /// Runs `body` holding the gate.
    package static func withChromium<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        await shared.acquire()
        do {
            let value = try await body()
            await shared.release()
            return value
        } catch {
            await shared.release()
            throw error
        }
    }
}
