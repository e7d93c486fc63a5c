import Testing
@testable import SeamServer

/// `Task.value(until:)`: a session start waits for a cold title's probes only within its budget,
/// and the probes go on for the sessions after it.
struct TaskDeadlineTests {
    @Test("A task that ends in time gives its value")
    func endsInTime() async {
        let task = Task { 42 }
        #expect(await task.value(until: .now + .seconds(30)) == 42)
    }

    @Test("A task still running at the deadline gives nil, goes on, and gives its value later")
    func outlivesTheDeadline() async {
        let (gate, opener) = AsyncStream.makeStream(of: Int.self)
        let task = Task { () -> Int in
            for await value in gate { return value }
            return -1
        }
        // The task cannot end before the gate opens (below): an answer at all, nil, is the wait
        // ending at the deadline, whatever a loaded machine makes of the 50 ms (a wall-clock bound
        // here failed once under the stress run).
        #expect(await task.value(until: .now + .milliseconds(50)) == nil)
        #expect(!task.isCancelled)
        opener.yield(7)
        #expect(await task.value == 7)
    }

    @Test("A deadline already past gives nil or the value of a task already done, without waiting")
    func pastDeadline() async {
        let (gate, _) = AsyncStream.makeStream(of: Int.self)
        let task = Task { () -> Int in
            for await value in gate { return value }
            return -1
        }
        #expect(await task.value(until: .now - .seconds(1)) == nil)
        task.cancel()
        #expect(await task.value == -1)
    }
}
