import Testing
@testable import SeamServer

/// `DeadlineTimer` and the ad budget's race built on it: a wait ends at its deadline, never
/// before, and at once when its task is cancelled (the race's loser is cancelled the moment the
/// work ends, so its timer must not hold the race up).
struct DeadlineTimerTests {
    @Test("A wait ends at its deadline, not before")
    func endsAtTheDeadline() async {
        let started = ContinuousClock.now
        await DeadlineTimer.wait(until: started + .milliseconds(80))
        #expect(ContinuousClock.now - started >= .milliseconds(80))
    }

    @Test("A deadline already past returns at once; a cancelled wait returns long before its deadline")
    func pastAndCancelled() async {
        let started = ContinuousClock.now
        await DeadlineTimer.wait(until: started - .seconds(1))
        let waiter = Task { await DeadlineTimer.wait(until: .now + .seconds(600)) }
        waiter.cancel()
        await waiter.value
        // A hang guard, not a budget: the deadline was ten minutes away.
        #expect(ContinuousClock.now - started < .seconds(120))
    }

    @Test("The race: the work's value when it ends first; nil at the deadline when it does not")
    func race() async {
        #expect(await AdTimeBudget.race(until: .now + .seconds(600)) { 7 } == 7)
        let (gate, _) = AsyncStream.makeStream(of: Int.self)
        let started = ContinuousClock.now
        let lost = await AdTimeBudget.race(until: started + .milliseconds(60)) { () -> Int in
            for await value in gate { return value }
            return -1  // cancelled by the race: the stream ends
        }
        #expect(lost == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(60))
    }
}
