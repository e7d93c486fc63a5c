import Testing
@testable import Stitching

/// A live session's decisions by break number (a small array in place of a dictionary): set,
/// replace, remove, keep, and equality whatever the order they were recorded in.
struct BreakDecisionsTests {
    static func decision(_ number: Int, _ label: String) -> TestDecision {
        TestDecision(
            breakNumber: number, layout: LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil), label: label)
    }

    @Test func lookupReplaceRemoveKeep() {
        var decisions = BreakDecisions<TestDecision>()
        #expect(decisions.isEmpty && decisions[0] == nil)
        decisions[3] = Self.decision(3, "a")
        decisions[5] = Self.decision(5, "b")
        #expect(decisions[3]?.label == "a" && decisions[5]?.label == "b" && decisions.count == 2)
        decisions[3] = Self.decision(3, "c")
        #expect(decisions[3]?.label == "c" && decisions.count == 2, "replaced, not added")
        decisions[3] = nil
        #expect(decisions[3] == nil && decisions.count == 1)
        decisions[9] = nil
        #expect(decisions.count == 1, "removing what is not there changes nothing")
        decisions[7] = Self.decision(7, "d")
        decisions.keep([7, 8])
        #expect(decisions.values.map(\.breakNumber) == [7])
        decisions.keep([])
        #expect(decisions.isEmpty)
    }

    @Test func equalWhateverTheOrder() {
        var first = BreakDecisions<TestDecision>()
        first[1] = Self.decision(1, "a")
        first[2] = Self.decision(2, "b")
        var second = BreakDecisions<TestDecision>()
        second[2] = Self.decision(2, "b")
        second[1] = Self.decision(1, "a")
        #expect(first == second)
        second[2] = Self.decision(2, "other")
        #expect(first != second)
        second[2] = nil
        #expect(first != second)
    }
}
