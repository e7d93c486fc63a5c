import Foundation
import NIOConcurrencyHelpers

/// Keeps subprocess launches and descriptor floods apart in one test process.
///
/// swift-corelibs-foundation's `Process.run()` on Linux lists the process's open descriptors
/// into a buffer of its own while it launches; with thousands open (the connection flood and
/// limit tests hold 2,000–4,000 sockets) it writes past that buffer and the test process dies
/// with a bad pointer (seen once, a Chromium launch during a flood). A launch waits while a flood
/// runs; a flood waits for launches under way, then keeps new ones out until it ends.
package enum DescriptorFloodGate {
    private struct State {
        var launching = 0
        var flooding = false
    }

    private static let state = NIOLockedValueBox(State())

    /// Runs `launch` (a `Process.run()`, which returns once the child is started) while no flood runs.
    /// Blocking: call it from a thread of its own, as every launcher here does.
    package static func launch<Value>(_ launch: () throws -> Value) rethrows -> Value {
        while true {
            let admitted = state.withLockedValue { state -> Bool in
                guard !state.flooding else { return false }
                state.launching += 1
                return true
            }
            if admitted { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        defer { state.withLockedValue { $0.launching -= 1 } }
        return try launch()
    }

    /// The same for a caller on the cooperative pool: waits without blocking a thread (a flood's
    /// own work needs those threads).
    package static func launchFromTask<Value>(_ launch: () throws -> Value) async throws -> Value {
        try await admitLaunch()
        defer { state.withLockedValue { $0.launching -= 1 } }
        return try launch()
    }

    /// Waits (on the cooperative pool, without blocking) until no flood runs, then counts a launch.
    private static func admitLaunch() async throws {
        while true {
            let admitted = state.withLockedValue { state -> Bool in
                guard !state.flooding else { return false }
                state.launching += 1
                return true
            }
            if admitted { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Runs `body`, which opens thousands of descriptors, with no launch in progress.
    package static func flood<Value>(_ body: () async throws -> Value) async throws -> Value {
        while true {
            let admitted = state.withLockedValue { state -> Bool in
                guard !state.flooding, state.launching == 0 else { return false }
                state.flooding = true
                return true
            }
            if admitted { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        do {
            let value = try await body()
            state.withLockedValue { $0.flooding = false }
            return value
        } catch {
            state.withLockedValue { $0.flooding = false }
            throw error
        }
    }
}
