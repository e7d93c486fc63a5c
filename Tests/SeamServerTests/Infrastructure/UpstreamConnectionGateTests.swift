import NIOCore
import NIOPosix
import Testing
@testable import SeamServer

/// The gate in front of each upstream pool: first come first served, a wait that ends at its
/// deadline or on cancellation, and slots passed straight from one request to the next.
@Suite struct UpstreamConnectionGateTests {
    let loop = MultiThreadedEventLoopGroup.singleton.next()

    @Test func aFreedSlotGoesToTheLongestWaiter() async {
        let gate = UpstreamConnectionGate(limit: 1)
        #expect(await gate.acquire("h", until: .now() + .seconds(30), timerLoop: loop))
        let (order, continuation) = AsyncStream.makeStream(of: Int.self)
        let (queued, queuedContinuation) = AsyncStream.makeStream(of: Void.self)
        let waiters = Task {
            await withTaskGroup(of: Void.self) { group in
                for number in 1...2 {
                    group.addTask {
                        guard await gate.acquire("h", until: .now() + .seconds(30), timerLoop: loop) else { return }
                        continuation.yield(number)
                        gate.release("h")
                    }
                    // The second asks only once the first waits (nothing is released before both wait).
                    while gate.usage("h").waiting < number { await Task.yield() }
                }
                queuedContinuation.finish()
            }
            continuation.finish()
        }
        for await _ in queued {}
        #expect(gate.usage("h") == (1, 2))
        gate.release("h")
        var seen: [Int] = []
        for await number in order { seen.append(number) }
        await waiters.value
        #expect(seen == [1, 2])
        #expect(gate.usage("h") == (0, 0))
        // Other hosts never waited.
        #expect(await gate.acquire("other", until: .now(), timerLoop: loop))
    }

    @Test func aWaitEndsAtItsDeadline() async {
        let gate = UpstreamConnectionGate(limit: 1)
        #expect(await gate.acquire("h", until: .now() + .seconds(30), timerLoop: loop))
        let started = ContinuousClock.now
        #expect(await gate.acquire("h", until: .now() + .milliseconds(100), timerLoop: loop) == false)
        #expect(ContinuousClock.now - started >= .milliseconds(90))
        #expect(gate.usage("h") == (1, 0))
    }

    @Test func aCancelledWaitLeavesTheQueue() async {
        let gate = UpstreamConnectionGate(limit: 1)
        #expect(await gate.acquire("h", until: .now() + .seconds(30), timerLoop: loop))
        let waiter = Task { await gate.acquire("h", until: .now() + .seconds(30), timerLoop: loop) }
        while gate.usage("h").waiting < 1 { await Task.yield() }
        waiter.cancel()
        #expect(await waiter.value == false)
        #expect(gate.usage("h") == (1, 0))
        gate.release("h")
        #expect(gate.usage("h") == (0, 0))
    }
}
