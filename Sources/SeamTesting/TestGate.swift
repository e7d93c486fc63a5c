import Foundation

/// At most `places` holders at once across the test process; waiters are let in in order of
/// arrival. Two gates bound what a 2-core machine can do at once without turning time-outs into
/// coin tosses: ``heavy`` (the heavy tier, see ``HeavyTier``) and ``stacks`` (whole Seam stacks on
/// loopback, ``SeamStack``).
package actor TestGate {
    /// The heavy tier: `SEAM_HEAVY_TESTS` places (1 or more), else 4. Most heavy tests wait in real
    /// time (a live channel's reloads, a minute of video played) and use little CPU (the suite
    /// used 34 % of the 2 cores with three places); the ones that use a core (a browser playing
    /// faster than real time, an ffmpeg job) also take `ChromiumGate`, and the ones that need the
    /// machine (floods, process-wide measurements) take every place, after the rest. Measured on
    /// the 2-core machine (`SEAM_TEST_TIMELINE`, docs/testing.md): three places kept every place
    /// busy for the whole 307 s run; four, 263 s.
    package static let heavy = TestGate(name: "heavy", places: places(from: "SEAM_HEAVY_TESTS", default: 5))

    /// Whole stacks (the demo origin and ad server, Seam, a client) running at once:
    /// `SEAM_TEST_STACKS` places, else 8. Swift Testing starts every test at once; a hundred stacks
    /// starting together on 2 cores kept loopback requests waiting past their 5 s time-outs for the
    /// first 20 s of a run (measured). Each stack test takes well under a second when let in.
    package static let stacks = TestGate(name: "stacks", places: places(from: "SEAM_TEST_STACKS", default: 8))

    private static func places(from variable: String, default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[variable].flatMap(Int.init).map { max(1, $0) } ?? fallback
    }

    /// Whether the running task already holds a place in a gate (a stack inside a stack, say): it
    /// is not made to wait for a second one, which could wait for itself.
    @TaskLocal private static var held: Set<ObjectIdentifier> = []

    /// The gate's name in the timeline (``TestTimeline``).
    package nonisolated let name: String
    private let places: Int
    private var taken = 0
    /// Waiters in the order they are let in: by ticket, then by arrival.
    private var waiters: [(ticket: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// The ticket of each queue key: the order in which the keys were first seen.
    private var tickets: [String: Int] = [:]
    private var nextTicket = 0

    package init(name: String = "gate", places: Int) {
        self.name = name
        self.places = max(1, places)
    }

    /// Where in the line a holder goes: with those who asked before it (`arrival`), or ahead of or
    /// behind every one of those.
    package enum Order: Int, Sendable {
        case first = 0, arrival = 1, last = 2
    }

    /// The ticket for `key`: the one it got when first seen (a fresh one for no key), in the
    /// part of the line `order` says.
    private func ticket(for key: String?, order: Order) -> Int {
        let ticket: Int
        if let key, let known = tickets[key] {
            ticket = known
        } else {
            nextTicket += 1
            ticket = nextTicket
            if let key { tickets[key] = ticket }
        }
        return ticket + order.rawValue << 40
    }

    /// Takes `count` places (at most all of them), waiting behind everyone with an earlier ticket.
    private func acquire(_ count: Int, key: String?, order: Order) async {
        let count = min(max(1, count), places)
        let ticket = ticket(for: key, order: order)
        let first = waiters.first.map { ticket < $0.ticket } ?? true
        if first && taken + count <= places {
            taken += count
            return
        }
        // The places are counted for it by `admit` before it is resumed.
        await withCheckedContinuation { continuation in
            let index = waiters.firstIndex { $0.ticket > ticket } ?? waiters.endIndex
            waiters.insert((ticket, count, continuation), at: index)
        }
    }

    private func release(_ count: Int) {
        taken -= min(max(1, count), places)
        // In ticket order: one who needs every place holds back those behind it.
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
    ///
    /// Waiters are let in in order of arrival, except that those asking with the same `queue` key
    /// share the ticket of the first of them: the tests of a serialized suite ask one after
    /// another, and each keeps the suite's place in the line instead of going to its back (a
    /// five-test suite otherwise waited behind the whole tier five times over). `order` puts it
    /// ahead of them all (the longest first, so they do not make the run's tail) or behind them
    /// all (one that needs every place, waiting at the front, leaves every place it frees unused).
    package nonisolated func run<Value: Sendable>(
        places count: Int = 1, queue key: String? = nil, order: Order = .arrival,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let id = ObjectIdentifier(self)
        if Self.held.contains(id) { return try await body() }
        let asked = TestTimeline.now
        await acquire(count, key: key, order: order)
        let given = TestTimeline.now
        defer { TestTimeline.record(gate: name, asked: asked, given: given) }
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
