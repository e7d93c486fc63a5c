import NIOConcurrencyHelpers
import Testing

@testable import SeamServer

/// Who counts as a replica of the deployment, from the heartbeats heard (time passed in).
@Suite struct ReplicaCensusTests {
    static let t0 = ContinuousClock.now
    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int64(seconds * 1000)) }

    @Test("A replica counts from its heartbeat until three of its intervals (and a second) pass without one")
    func replicasCountWhileTheirHeartbeatsCome() {
        var roll = ReplicaCensus.Roll()
        roll.heartbeatsEvery(1)  // counts for 4 s after each heartbeat
        #expect(roll.count(at: Self.at(0)) == 1)
        roll.heard("seam-a", at: Self.at(0))
        #expect(roll.count(at: Self.at(1)) == 2)
        roll.heard("seam-b", at: Self.at(2))
        roll.heard("seam-a", at: Self.at(2.5))
        #expect(roll.count(at: Self.at(3)) == 3)
        // b missed three heartbeats and a second: gone; a heard again later.
        #expect(roll.count(at: Self.at(6.2)) == 2)
        #expect(roll.count(at: Self.at(6.6)) == 1)
    }

    @Test(
        "A heartbeat is news (answered at once) from a replica not counted until then: a newcomer, or one back after a silence"
    )
    func aNewcomersHeartbeatIsNews() {
        var roll = ReplicaCensus.Roll()
        roll.heartbeatsEvery(1)  // counts for 4 s after each heartbeat
        let table: [(replica: String, at: Double, news: Bool)] = [
            ("seam-a", 0, true),  // first heard
            ("seam-a", 1, false),  // still counted
            ("seam-b", 1.5, true),  // another newcomer
            ("seam-a", 4.9, false),  // 3.9 s after its last: still counted
            ("seam-b", 6, true),  // 4.5 s of silence: it had stopped counting
            ("seam-b", 6.5, false),
        ]
        for row in table {
            #expect(roll.heard(row.replica, at: Self.at(row.at)) == row.news, "\(row)")
        }
    }

    @Test(
        "While its listener is deaf a replica keeps the count it had; hearing again, each replica counts for what was left"
    )
    func aDeafListenerKeepsTheCount() {
        var roll = ReplicaCensus.Roll()
        roll.heartbeatsEvery(1)  // counts for 4 s after each heartbeat
        roll.heard("seam-a", at: Self.at(0))
        roll.heard("seam-b", at: Self.at(1))
        roll.deaf(at: Self.at(2))
        roll.deaf(at: Self.at(5))  // still the first moment it stopped hearing
        #expect(roll.count(at: Self.at(30)) == 3)
        roll.hearing(at: Self.at(40))  // deaf for 38 s: a counts until 42, b until 43
        #expect(roll.count(at: Self.at(41.9)) == 3)
        #expect(roll.count(at: Self.at(42.5)) == 2)
        roll.heard("seam-b", at: Self.at(42.8))
        #expect(roll.count(at: Self.at(44)) == 2)
        #expect(roll.count(at: Self.at(47)) == 1)
        // Hearing without having been deaf changes nothing.
        roll.hearing(at: Self.at(47))
        #expect(roll.count(at: Self.at(47)) == 1)
        // A replica heard as the listener comes back (before it knows it hears) counts from then,
        // not from then plus the time it was deaf.
        roll.heard("seam-c", at: Self.at(48))
        roll.deaf(at: Self.at(49))
        roll.heard("seam-d", at: Self.at(60))
        roll.hearing(at: Self.at(60.01))  // deaf for 11.01 s: c counts until 63.01, d until 64
        #expect(roll.count(at: Self.at(63.5)) == 2)
        #expect(roll.count(at: Self.at(64.5)) == 1)
    }

    @Test("The census counts what its listener hears, on its clock")
    func theCensusCountsWhatItHears() {
        let clock = NIOLockedValueBox(Self.at(0))
        let census = ReplicaCensus(now: { clock.withLockedValue { $0 } })
        census.heartbeatsEvery(0.5)  // counts for 2.5 s
        census.heard("seam-x")
        #expect(census.count == 2)
        clock.withLockedValue { $0 = Self.at(3) }
        #expect(census.count == 1)
    }
}
