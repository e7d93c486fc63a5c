import Foundation
import Testing

/// The heavy tier: tests that drive Chromium, ffmpeg/ffprobe, GStreamer, conditioning jobs, live
/// playback in real time or thousands of connections. On a 2-core machine two of them at once
/// starve each other (and a stall they cause is not the stream's), so they run one at a time across
/// the whole test process — every test target runs in it — while the fast tier (unit, table and
/// in-process router tests, whose time is injected) stays parallel beside them.
///
/// Put `.heavy` on the suite or test: each of its test cases then waits for the process-wide
/// ``HeavyTestGate`` (in order of arrival) and holds it while it runs.
///
/// `SEAM_TEST_TIER=fast swift test` skips the heavy tier (and says so); `swift test` runs both.
package struct HeavyTier: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    /// Whether this run includes the heavy tier (`SEAM_TEST_TIER` is unset, `all` or `heavy`).
    package static var isIncluded: Bool {
        let tier = ProcessInfo.processInfo.environment["SEAM_TEST_TIER"]?.lowercased() ?? "all"
        return tier != "fast"
    }

    package func prepare(for test: Test) async throws {
        try await ConditionTrait.enabled(if: Self.isIncluded, "heavy tier: SEAM_TEST_TIER=fast runs the fast tier only")
            .prepare(for: test)
    }

    /// One scope per test case; none for the suite itself (it would hold the gate its tests wait for).
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> HeavyTier? {
        test.isSuite || testCase == nil ? nil : self
    }

    package func provideScope(for test: Test, testCase: Test.Case?,
                              performing function: @Sendable () async throws -> Void) async throws {
        try await HeavyTestGate.shared.run(function)
    }
}

extension Trait where Self == HeavyTier {
    /// Runs in the heavy tier: one heavy test case at a time across the test process.
    package static var heavy: HeavyTier { HeavyTier() }
}

/// One heavy test case at a time across the test process; waiters are resumed in order.
package actor HeavyTestGate {
    package static let shared = HeavyTestGate()

    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }

    /// Runs `body` holding the gate.
    package func run(_ body: @Sendable () async throws -> Void) async throws {
        await acquire()
        do {
            try await body()
            release()
        } catch {
            release()
            throw error
        }
    }
}
