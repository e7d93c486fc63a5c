import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing
@testable import SeamServer

/// `DeadlineTimer` and the ad budget's race built on it: a wait ends at its deadline, never
/// before, and at once when its task is cancelled, its timer gone with it (the race's loser is
/// cancelled the moment the work ends). Time is a testing event loop's, moved by hand.
struct DeadlineTimerTests {
    /// Whether the timer fired (true), was cancelled (false), or neither yet (nil).
    static func watch(_ timer: DeadlineTimer) -> NIOLockedValueBox<Bool?> {
        let outcome = NIOLockedValueBox<Bool?>(nil)
        timer.outcome?.whenComplete { result in
            outcome.withLockedValue { $0 = (try? result.get()) != nil }
        }
        return outcome
    }

    @Test("A wait ends at its deadline, not before")
    func endsAtTheDeadline() async throws {
        let loop = NIOAsyncTestingEventLoop()
        let now = ContinuousClock.now
        let timer = DeadlineTimer(until: now + .milliseconds(80), now: now, on: loop)
        let fired = Self.watch(timer)
        let waiter = Task { await timer.wait() }
        await loop.advanceTime(by: .milliseconds(79))
        #expect(fired.withLockedValue { $0 } == nil, "fired before its deadline")
        await loop.advanceTime(by: .milliseconds(1))
        await waiter.value
        #expect(fired.withLockedValue { $0 } == true)
        try await loop.shutdownGracefully()
    }

    @Test("A deadline already past returns at once; a cancelled wait returns, and its timer never fires")
    func pastAndCancelled() async throws {
        let loop = NIOAsyncTestingEventLoop()
        let now = ContinuousClock.now
        let past = DeadlineTimer(until: now - .seconds(1), now: now, on: loop)
        #expect(past.outcome == nil, "nothing armed for a deadline already past")
        await past.wait()

        let timer = DeadlineTimer(until: now + .seconds(600), now: now, on: loop)
        let fired = Self.watch(timer)
        let waiter = Task { await timer.wait() }
        waiter.cancel()
        await waiter.value
        await loop.advanceTime(by: .seconds(601))
        #expect(fired.withLockedValue { $0 } == false, "the cancelled timer was not removed")
        try await loop.shutdownGracefully()
    }

    @Test("The race: the work's value when it ends first; nil when the deadline has come first")
    func race() async {
        #expect(await AdTimeBudget.race(until: .now + .seconds(600)) { 7 } == 7)
        let (gate, _) = AsyncStream.makeStream(of: Int.self)
        let lost = await AdTimeBudget.race(until: .now - .seconds(1)) { () -> Int in
            for await value in gate { return value }
            return -1  // cancelled by the race: the stream ends
        }
        #expect(lost == nil)
    }
}
