import NIOConcurrencyHelpers
import SeamTesting
import Testing

/// The tests' gates (the heavy tier, whole stacks): at most their number of places run at once; the
/// next waits for a place; a holder asking again is not made to wait for itself.
@Suite struct TestGateTests {
    @Test func aThirdHeavyTestWaitsForOneOfTwoPlaces() async throws {
        let gate = TestGate(places: 2)
        let ran = NIOLockedValueBox<[String]>([])
        let holdA = LiveTestGate()
        let holdB = LiveTestGate()
        let a = Task {
            try await gate.run {
                ran.withLockedValue { $0.append("a") }; await holdA.wait()
            }
        }
        let b = Task {
            try await gate.run {
                ran.withLockedValue { $0.append("b") }; await holdB.wait()
            }
        }
        #expect(await liveEventually { ran.withLockedValue { $0.count } == 2 })
        let c = Task { try await gate.run { ran.withLockedValue { $0.append("c") } } }
        // Both places are taken: c waits in the gate and has not run.
        #expect(await liveEventually { await gate.waiting == 1 })
        #expect(ran.withLockedValue { $0 }.contains("c") == false)
        holdA.open()
        try await a.value
        try await c.value
        #expect(ran.withLockedValue { $0 }.last == "c")
        holdB.open()
        try await b.value
        // All places are free again: one more runs at once.
        try await gate.run { ran.withLockedValue { $0.append("d") } }
        #expect(ran.withLockedValue { $0 }.count == 4)
    }

    @Test func aHolderAskingAgainDoesNotWaitForItself() async throws {
        let gate = TestGate(places: 1)
        let inner = try await gate.run { try await gate.run { "inner" } }
        #expect(inner == "inner")
    }

    @Test func oneThatNeedsEveryPlaceWaitsForAllAndHoldsBackThoseBehindIt() async throws {
        let gate = TestGate(places: 2)
        let ran = NIOLockedValueBox<[String]>([])
        let holdA = LiveTestGate()
        let a = Task {
            try await gate.run {
                ran.withLockedValue { $0.append("a") }; await holdA.wait()
            }
        }
        #expect(await liveEventually { ran.withLockedValue { $0.count } == 1 })
        let alone = Task { try await gate.run(places: gate.capacity) { ran.withLockedValue { $0.append("alone") } } }
        #expect(await liveEventually { await gate.waiting == 1 })
        let behind = Task { try await gate.run { ran.withLockedValue { $0.append("behind") } } }
        #expect(await liveEventually { await gate.waiting == 2 })
        // A place is free, but the one behind waits its turn after the one that needs both.
        #expect(ran.withLockedValue { $0 } == ["a"])
        holdA.open()
        try await a.value
        try await alone.value
        try await behind.value
        #expect(ran.withLockedValue { $0 } == ["a", "alone", "behind"])
    }

    /// The tests of a serialized suite ask one after another: the next keeps the suite's place in
    /// line, ahead of a suite that asked after the first.
    @Test func aSuitesNextTestKeepsTheSuitesPlaceInLine() async throws {
        let gate = TestGate(places: 1)
        let ran = NIOLockedValueBox<[String]>([])
        let holdA = LiveTestGate()
        let a = Task {
            try await gate.run(queue: "chain") {
                ran.withLockedValue { $0.append("chain 1") }; await holdA.wait()
            }
        }
        #expect(await liveEventually { ran.withLockedValue { $0.count } == 1 })
        let other = Task { try await gate.run(queue: "other") { ran.withLockedValue { $0.append("other") } } }
        #expect(await liveEventually { await gate.waiting == 1 })
        let next = Task { try await gate.run(queue: "chain") { ran.withLockedValue { $0.append("chain 2") } } }
        #expect(await liveEventually { await gate.waiting == 2 })
        holdA.open()
        try await a.value
        try await next.value
        try await other.value
        #expect(ran.withLockedValue { $0 } == ["chain 1", "chain 2", "other"])
    }

    /// One that needs every place goes after the rest: a free place goes to the one behind it,
    /// instead of idling while it waits for the others.
    @Test func oneThatGoesLastLetsThoseBehindItUseAFreePlace() async throws {
        let gate = TestGate(places: 2)
        let ran = NIOLockedValueBox<[String]>([])
        let holdA = LiveTestGate()
        let holdBehind = LiveTestGate()
        let a = Task {
            try await gate.run {
                ran.withLockedValue { $0.append("a") }; await holdA.wait()
            }
        }
        #expect(await liveEventually { ran.withLockedValue { $0.count } == 1 })
        let alone = Task {
            try await gate.run(places: gate.capacity, order: .last) { ran.withLockedValue { $0.append("alone") } }
        }
        #expect(await liveEventually { await gate.waiting == 1 })
        let behind = Task {
            try await gate.run {
                ran.withLockedValue { $0.append("behind") }; await holdBehind.wait()
            }
        }
        #expect(await liveEventually { ran.withLockedValue { $0.count } == 2 })
        #expect(ran.withLockedValue { $0 } == ["a", "behind"])
        holdA.open()
        try await a.value
        holdBehind.open()
        try await behind.value
        try await alone.value
        #expect(ran.withLockedValue { $0 } == ["a", "behind", "alone"])
    }

    /// The longest go first: ahead of those that were already waiting.
    @Test func oneThatGoesFirstIsLetInAheadOfThoseWaiting() async throws {
        let gate = TestGate(places: 1)
        let ran = NIOLockedValueBox<[String]>([])
        let holdA = LiveTestGate()
        let a = Task {
            try await gate.run {
                ran.withLockedValue { $0.append("a") }; await holdA.wait()
            }
        }
        #expect(await liveEventually { ran.withLockedValue { $0.count } == 1 })
        let waiting = Task { try await gate.run { ran.withLockedValue { $0.append("waiting") } } }
        #expect(await liveEventually { await gate.waiting == 1 })
        let long = Task { try await gate.run(order: .first) { ran.withLockedValue { $0.append("long") } } }
        #expect(await liveEventually { await gate.waiting == 2 })
        holdA.open()
        try await a.value
        try await long.value
        try await waiting.value
        #expect(ran.withLockedValue { $0 } == ["a", "long", "waiting"])
    }

    /// The browser gate: one run that uses a core at a time, beside up to two real-time watchers.
    @Test func aRealTimeWatcherRunsBesideTheOneRunThatUsesACore() async throws {
        let gate = ChromiumGate()
        await gate.acquire()
        await gate.acquire(realTime: true)
        await gate.acquire(realTime: true)
        #expect(await gate.waiting == 0)
        let third = Task { await gate.acquire(realTime: true) }
        let second = Task { await gate.acquire() }
        #expect(await liveEventually { await gate.waiting == 2 })
        await gate.release(realTime: true)
        await third.value
        #expect(await gate.waiting == 1)
        await gate.release()
        await second.value
        #expect(await gate.waiting == 0)
    }
}
