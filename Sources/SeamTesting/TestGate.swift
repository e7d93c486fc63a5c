import Foundation

/// At most `places` holders at once across the test process; waiters are let in in order of
/// arrival. Two gates bound what a 2-core machine can do at once without turning time-outs into
/// coin tosses: ``heavy`` (the heavy tier, see ``HeavyTier``) and ``stacks`` (whole Seam stacks on
/// loopback, ``SeamStack``).
package actor TestGate {
    /// The heavy tier: `SEAM_HEAVY_TESTS` places (1 or more), else 3. Most heavy tests wait in real
    /// time (a live channel's reloads, a minute of video played) and use little CPU; the ones that
    /// use a core (a browser playing, an ffmpeg job) also take `ChromiumGate`, one at a time, and
    /// the ones that need the machine (floods, process-wide measurements) take every place. On the
    /// 2-core machine: 581 s of suite one at a time, 352 s with two places, 289 s with three.
    package static let heavy = TestGate(places: places(from: "SEAM_HEAVY_TESTS", default: 3))

    /// Whole stacks (the demo origin and ad server, Seam, a client) running at once:
    /// `SEAM_TEST_STACKS` places, else 8. Swift Testing starts every test at once; a hundred stacks
    /// starting together on 2 cores kept loopback requests waiting past their 5 s time-outs for the
    /// first 20 s of a run (measured). Each stack test takes well under a second when let in.
    package static let stacks = TestGate(places: places(from: "SEAM_TEST_STACKS", default: 8))

    private static func places(from variable: String, default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[variable].flatMap(Int.init).map { max(1, $0) } ?? fallback
    }

    /// Whether the running task already holds a place in a gate (a stack inside a stack, say): it
    /// is not made to wait for a second one, which could wait for itself.
    @TaskLocal private static var held: Set<ObjectIdentifier> = []

    private let places: Int
    private var taken = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    package init(places: Int) {
        self.places = max(1, places)
    }

    /// Takes `count` places (at most all of them), waiting behind everyone who came first.
    private func acquire(_ count: Int) async {
        let count = min(max(1, count), places)
        if waiters.isEmpty && taken + count <= places {
            taken += count
            return
        }
        // The places are counted for it by `release` before it is resumed.
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    private func release(_ count: Int) {
        taken -= min(max(1, count), places)
        // In order of arrival: one who needs every place holds back those behind it.
        while let first = waiters.first, taken + first.count <= places {
            waiters.removeFirst()
            taken += first.count
            first.continuation.resume()
        }
    }

    /// How many wait for places now.
    package var waiting: Int { waiters.count }

    /// The number of places (for holders that need them all).
    package nonisolated var capacity: Int { places }

    /// Runs `body` holding `places` places (1 by default; `capacity` to run alone).
    package nonisolated func run<Value: Sendable>(places count: Int = 1, _ body: () async throws -> Value) async throws -> Value {
        let id = ObjectIdentifier(self)
        if Self.held.contains(id) { return try await body() }
        await acquire(count)
        do {
            let value = try await Self.$held.withValue(Self.held.union([id])) { try await body() }
            await release(count)
            return value
        } catch {
            await release(count)
            throw error
        }
    }
}
