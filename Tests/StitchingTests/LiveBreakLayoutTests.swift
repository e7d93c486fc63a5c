import Testing
@testable import Stitching

@Suite struct LiveBreakLayoutTests {
    @Test func adsThatFitPlayAndSlateCompletesTheBreak() {
        let layout = LiveBreakLayout.make(
            breakDuration: 30, ads: [[5, 5], [5, 5, 5]], slate: Array(repeating: 1, count: 10))
        #expect(layout.playedAds == [0, 1])
        #expect(layout.trimmedAds.isEmpty)
        #expect(layout.slateSeconds == 5)
        #expect(layout.duration == 30)
        #expect(layout.slots.map(\.end).last == 30)
        // A discontinuity before each ad and before the slate, none inside them.
        #expect(layout.slots.filter(\.discontinuity).count == 3)
    }

    @Test func aPodLongerThanTheBreakIsTrimmedAtAnAdBoundary() {
        let layout = LiveBreakLayout.make(breakDuration: 24, ads: [[5, 5], [5, 5, 5], [5]], slate: nil)
        #expect(layout.playedAds == [0])
        #expect(layout.trimmedAds == [1, 2])
        // No slate: content resumes after the ads.
        #expect(layout.duration == 10)
        #expect(layout.slots.count == 2)
    }

    @Test func slateLoopsWithADiscontinuityAtEachPass() {
        let layout = LiveBreakLayout.make(breakDuration: 24, ads: [], slate: Array(repeating: 1, count: 10))
        #expect(layout.slots.count == 24)
        #expect(layout.slots.filter(\.discontinuity).count == 3)
        #expect(layout.slateSeconds == 24)
    }

    @Test func anAdWithinTheToleranceStillFits() {
        let layout = LiveBreakLayout.make(breakDuration: 20, ads: [[5.2, 5.2, 5.0, 5.0]], slate: nil)
        #expect(layout.playedAds == [0])
        let none = LiveBreakLayout.make(breakDuration: 20, ads: [[25]], slate: nil)
        #expect(none.isEmpty)
        #expect(none.trimmedAds == [0])
    }

    @Test func aRemainderShorterThanASlateSegmentIsLeft() {
        let layout = LiveBreakLayout.make(breakDuration: 12.6, ads: [[5, 5]], slate: [2, 2, 2])
        #expect(layout.slateSeconds == 2)
        #expect(layout.duration == 12.6)
    }
}
