import Foundation
import NIOConcurrencyHelpers
import Testing

/// Where the suite's wall time goes: with `SEAM_TEST_TIMELINE=FILE`, every hold of a gate
/// (``TestGate/heavy``, ``TestGate/stacks``, ``ChromiumGate``) appends one line to FILE —
/// seconds since the process started when the place was asked for, when it was given, when it was
/// given back, the gate and the test. `scripts/test-timeline.py FILE` sums it up: what held the
/// browser gate, for how long, and what waited. Off (and free) when the variable is unset.
package enum TestTimeline {
    private static let path = ProcessInfo.processInfo.environment["SEAM_TEST_TIMELINE"].flatMap {
        $0.isEmpty ? nil : $0
    }
    private static let start = ContinuousClock.now
    private static let lock = NIOLock()

    /// Seconds since the first use (the start of the test process, near enough).
    package static var now: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    package static var isOn: Bool { path != nil }

    /// Records one hold of `gate`: asked at `asked`, let in at `given`, released now.
    package static func record(gate: String, asked: Double, given: Double) {
        guard let path else { return }
        let released = now
        let test = Test.current.map { "\($0.id)" } ?? "?"
        let line = String(format: "%.3f\t%.3f\t%.3f\t%@\t%@\n", asked, given, released, gate, test)
        lock.withLock {
            guard let data = line.data(using: .utf8) else { return }
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.seekToEndOfFile()
                handle.write(data)
                try? handle.close()
            } else {
                _ = FileManager.default.createFile(atPath: path, contents: data)
            }
        }
    }
}
