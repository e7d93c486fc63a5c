/// A live session's decisions by break number: only those of breaks still on its timeline, so a
/// handful at most. Kept as a small array, not a dictionary: a dictionary's storage for even one
/// decision costs a session about 300 bytes, the array's about 150 (BENCHMARKS.md, issue 26:
/// every live viewer holds one), and a lookup among two or three is a few comparisons.
public struct BreakDecisions<Decision: LiveSessionDecision>: Sendable {
    private var items: [Decision] = []

    public init() {}

    /// The decision of break `breakNumber`; setting nil removes it.
    public subscript(breakNumber: Int) -> Decision? {
        get { items.first { $0.breakNumber == breakNumber } }
        set {
            let index = items.firstIndex { $0.breakNumber == breakNumber }
            switch (index, newValue) {
            case (let index?, let decision?): items[index] = decision
            case (let index?, nil): items.remove(at: index)
            case (nil, let decision?): items.append(decision)
            case (nil, nil): break
            }
            if items.isEmpty { items = [] }  // an emptied array keeps its storage otherwise
        }
    }

    /// Every decision, in the order they were recorded.
    public var values: [Decision] { items }

    public var count: Int { items.count }

    public var isEmpty: Bool { items.isEmpty }

    /// Keeps only the decisions of the breaks numbered in `breakNumbers`.
    mutating func keep(_ breakNumbers: Set<Int>) {
        items.removeAll { !breakNumbers.contains($0.breakNumber) }
        if items.isEmpty { items = [] }
    }
}

/// Equal when they hold the same decision for the same breaks, in whatever order they were recorded.
extension BreakDecisions: Equatable where Decision: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.items.allSatisfy { rhs[$0.breakNumber] == $0 }
    }
}
