import Foundation

/// At most `places` holders at once across the test process; waiters are let in in order of
/// arrival. Two gates bound what a 2-core machine can do at once without turning time-outs into
/// coin tosses: ``heavy`` (the heavy tier, see ``HeavyTier``) and ``stacks`` (whole Seam stacks on
/// loopback, ``SeamStack``).
package actor TestGate {
    /// The heavy tier: `SEAM_HEAVY_TESTS` places (1 or more), else 2 — one per core of the machine
    /// CI runs on.
    package static let heavy = TestGate(places: places(from: "SEAM_HEAVY_TESTS", default: 2))

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
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init(places: Int) {
        self.places = max(1, places)
    }

    private func acquire() async {
        guard taken >= places else {
            taken += 1
            return
        }
        // The place is handed over by `release`, which does not give it back to the count.
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            taken -= 1
        } else {
            waiters.removeFirst().resume()
        }
    }

    /// Runs `body` holding a place.
    package nonisolated func run<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        let id = ObjectIdentifier(self)
        if Self.held.contains(id) { return try await body() }
        await acquire()
        do {
            let value = try await Self.$held.withValue(Self.held.union([id])) { try await body() }
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }
}
