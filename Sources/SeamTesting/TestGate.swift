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

    /// The places the running task already holds in each gate (a stack inside a stack, say): it
    /// is not made to wait for a second one, which could wait for itself; and it can lend them
    /// while it waits for something else (``lendingPlaces(while:)``).
    @TaskLocal private static var held: [ObjectIdentifier: Holding] = [:]

    /// A holder's places in a gate, under the number the gate gave it.
    private struct Holding: Sendable {
        var holder: Int
        var count: Int
    }

    /// The gate's name in the timeline (``TestTimeline``).
    package nonisolated let name: String
    private let places: Int
    private var taken = 0
    /// Waiters in the order they are let in: by ticket, then by arrival.
    private var waiters: [(ticket: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// The ticket of each queue key: the order in which the keys were first seen.
    private var tickets: [String: Int] = [:]
    private var nextTicket = 0
    private var nextHolder = 0
    /// The holders whose places are lent now (their child tasks see the same places: lent once).
    private var lent: Set<Int> = []

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

    /// Takes `count` places (at most all of them), waiting behind everyone with an earlier ticket;
    /// the holder's number.
    private func acquire(_ count: Int, key: String?, order: Order) async -> Int {
        nextHolder += 1
        let holder = nextHolder
        let ticket = ticket(for: key, order: order)
        let first = waiters.first.map { ticket < $0.ticket } ?? true
        if first && taken + count <= places {
            taken += count
            return holder
        }
        // The places are counted for it by `release` before it is resumed.
        await withCheckedContinuation { continuation in
            let index = waiters.firstIndex { $0.ticket > ticket } ?? waiters.endIndex
            waiters.insert((ticket, count, continuation), at: index)
        }
        return holder
    }

    private func release(_ count: Int) {
        taken -= count
        // In ticket order: one who needs every place holds back those behind it.
        while let first = waiters.first, taken + first.count <= places {
            waiters.removeFirst()
            taken += first.count
            first.continuation.resume()
        }
    }

    /// Gives a holder's places back for a while, unless they are lent already.
    private func lend(_ holding: Holding) -> Bool {
        guard lent.insert(holding.holder).inserted else { return false }
        release(holding.count)
        return true
    }

    /// Takes lent places back at once, even past the gate's places: the holder already waited its
    /// turn, and those let in meanwhile run on. No one else is let in until enough are given back.
    private func reclaim(_ holding: Holding) {
        lent.remove(holding.holder)
        taken += holding.count
    }

    /// Runs `wait` — a wait for another gate, `ChromiumGate` — with the places the running task
    /// holds in this gate given back for its length, and takes them back after it.
    ///
    /// A heavy test that waits for the one browser run that uses a core held a heavy place idle
    /// meanwhile: in one suite run, 330 s of the five places' time went to waiting so (five tests
    /// at once at the worst), while the tests that could have run in them waited behind.
    package nonisolated func lendingPlaces<Value: Sendable>(
        while wait: () async throws -> Value
    ) async rethrows -> Value {
        guard let holding = Self.held[ObjectIdentifier(self)], await lend(holding) else { return try await wait() }
        let since = TestTimeline.now
        defer { TestTimeline.record(gate: "\(name) (lent)", asked: since, given: since) }
        do {
            let value = try await wait()
            await reclaim(holding)
            return value
        } catch {
            await reclaim(holding)
            throw error
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
        if Self.held[id] != nil { return try await body() }
        let count = min(max(1, count), places)
        let asked = TestTimeline.now
        let holding = Holding(holder: await acquire(count, key: key, order: order), count: count)
        let given = TestTimeline.now
        defer { TestTimeline.record(gate: name, asked: asked, given: given) }
        do {
            let value = try await Self.$held.withValue(Self.held.merging([id: holding]) { $1 }) { try await body() }
            await release(count)
            return value
        } catch {
            await release(count)
            throw error
        }
    }
}
