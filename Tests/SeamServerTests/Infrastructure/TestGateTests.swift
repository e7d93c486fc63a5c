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
        let a = Task { try await gate.run { ran.withLockedValue { $0.append("a") }; await holdA.wait() } }
        let b = Task { try await gate.run { ran.withLockedValue { $0.append("b") }; await holdB.wait() } }
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
        let a = Task { try await gate.run { ran.withLockedValue { $0.append("a") }; await holdA.wait() } }
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
}
