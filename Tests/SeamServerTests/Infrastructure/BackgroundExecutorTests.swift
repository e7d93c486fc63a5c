import CSeamSystem
import Foundation
import Testing
@testable import SeamServer

@Suite struct BackgroundExecutorTests {
    /// What a task sees of the thread it runs on.
    struct ThreadFacts: Sendable {
        var name: String?
        var niceness: Int32
    }

    static func currentThread() -> ThreadFacts {
        ThreadFacts(name: Thread.current.name, niceness: cseam_thread_niceness())
    }

    @Test func tasksThatPreferItRunOnItsOwnLowerPriorityThreads() async {
        let executor = BackgroundExecutor(name: "seam-test-bg", maxThreads: 2, niceness: 7)
        let facts = await Task(executorPreference: executor) {
            // An await in the middle: the task comes back to the executor after it.
            try? await Task.sleep(for: .milliseconds(5))
            return Self.currentThread()
        }.value
        #expect(facts.name == "seam-test-bg")
        #if os(Linux)
            let pool = await Task { Self.currentThread() }.value
            // An unprivileged process can only raise niceness: 7, unless the whole process runs nicer.
            #expect(facts.niceness == max(7, pool.niceness))
            #expect(pool.niceness < 7 ? pool.niceness != facts.niceness : true, "the shared pool keeps its priority")
        #endif
    }

    @Test func manyTasksCompleteOnAtMostMaxThreads() async {
        let executor = BackgroundExecutor(name: "seam-test-many", maxThreads: 3, idleTimeout: 5)
        let results = await withTaskGroup(of: Int.self) { group in
            for index in 0..<2_000 {
                group.addTask(executorPreference: executor) {
                    await Task.yield()
                    return index
                }
            }
            return await group.reduce(0, +)
        }
        #expect(results == (0..<2_000).reduce(0, +))
        #expect(executor.threadCount <= 3)
    }

    @Test func idleThreadsEnd() async throws {
        let executor = BackgroundExecutor(name: "seam-test-idle", maxThreads: 2, idleTimeout: 0.1)
        // (Its thread may already have ended when the test resumes on a busy machine: 0.1 s is short.)
        let first = await Task(executorPreference: executor) { Self.currentThread() }.value
        #expect(first.name == "seam-test-idle")
        let deadline = ContinuousClock.now + .seconds(5)
        while executor.threadCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(executor.threadCount == 0)
        // And work arriving afterwards starts a thread again.
        let facts = await Task(executorPreference: executor) { Self.currentThread() }.value
        #expect(facts.name == "seam-test-idle")
    }
}
