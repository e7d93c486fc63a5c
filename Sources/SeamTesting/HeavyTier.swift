import Foundation
import Testing

/// The heavy tier: tests that drive Chromium, ffmpeg/ffprobe, GStreamer, conditioning jobs, live
/// playback in real time, thousands of connections or process-wide measurements. Unbounded, a dozen
/// of them at once on 2 cores starve each other (and a stall they cause is not the stream's), so
/// they go through one gate across the whole test process — every test target runs in it — while
/// the fast tier (unit, table and in-process router tests, whose time is injected) stays parallel
/// beside them.
///
/// Put `.heavy` on the suite or test: each of its test cases then waits for the process-wide
/// ``TestGate/heavy`` (in order of arrival) and holds a place in it while it runs; `.heavyAlone`
/// takes every place, so no other heavy test runs beside it. Why the gate has three places and
/// what still runs one at a time: ``TestGate/heavy``.
///
/// `SEAM_TEST_TIER=fast swift test` skips the heavy tier (and says so); `swift test` runs both.
package struct HeavyTier: SuiteTrait, TestTrait, TestScoping {
    /// Whether the test takes every place: no other heavy test runs beside it (floods of
    /// connections timed against real time-outs, process-wide measurements). Such tests run
    /// after the rest of the tier.
    package var alone = false

    /// Whether the test is among the tier's longest (a minute or more of a live stream in real
    /// time): it goes in ahead of the rest, so the run does not end waiting for it.
    package var long = false

    package var isRecursive: Bool { true }

    /// The time limit for a heavy test: a hang guard, not a stopwatch. Swift Testing counts the
    /// wait for a place in the gate in a test's time, and a heavy test may wait behind several
    /// minutes of others (a 4-minute limit failed a test that had waited 150 s of it).
    package static let timeLimit: TimeLimitTrait.Duration = .minutes(30)

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

    package func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite is the queue key: a serialized suite's next test keeps the suite's place. Those
        // that run alone go after the rest (waiting at the front, they idled the other places).
        try await TestGate.heavy.run(
            places: alone ? TestGate.heavy.capacity : 1, queue: "\(test.id.parent ?? test.id)",
            order: alone ? .last : long ? .first : .arrival, function)
    }
}

extension Trait where Self == HeavyTier {
    /// Runs in the heavy tier: through the process-wide ``TestGate/heavy``.
    package static var heavy: HeavyTier { HeavyTier() }

    /// Runs in the heavy tier with no other heavy test beside it, after the rest of the tier.
    package static var heavyAlone: HeavyTier { HeavyTier(alone: true) }

    /// Runs in the heavy tier ahead of the rest: a minute or more of a live stream in real time,
    /// or a serialized suite whose tests add up to that.
    package static var heavyLong: HeavyTier { HeavyTier(long: true) }
}
