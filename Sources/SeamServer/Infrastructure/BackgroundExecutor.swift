import CSeamSystem
import Foundation
import NIOCore

/// Where work that must never take the cores from playlist answers runs: ad decisions (VAST
/// parsing, creative fitting) and beacon sending. A break that starts for 10,000 viewers means
/// 10,000 decisions within seconds; on Swift's shared pool they queue in front of the viewers'
/// reloads. Here they run on threads of their own at a lower scheduling priority (a higher
/// niceness), so the kernel gives the serving threads the CPU first and decisions take what is left.
///
/// Tasks opt in with `Task(executorPreference:)` or `withTaskExecutorPreference`. Threads start
/// when work arrives (up to `maxThreads`) and end after `idleTimeout` without work, so an
/// executor needs no shutdown and costs nothing while idle.
package final class BackgroundExecutor: TaskExecutor, @unchecked Sendable {
    package let name: String
    package let maxThreads: Int
    /// 0 (as the rest of the process) to 19 (lowest).
    package let niceness: Int32
    package let idleTimeout: TimeInterval

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs = CircularBuffer<UnownedJob>()
    private var threads = 0
    private var idleThreads = 0

    /// Low enough that serving threads win every contest for a core (about 1 : 10 of the CPU when
    /// both want it), high enough that decisions still progress on a busy machine.
    package static let defaultNiceness: Int32 = 10

    package init(
        name: String, maxThreads: Int, niceness: Int32 = BackgroundExecutor.defaultNiceness,
        idleTimeout: TimeInterval = 10
    ) {
        self.name = name
        self.maxThreads = max(1, maxThreads)
        self.niceness = min(max(niceness, 0), 19)
        self.idleTimeout = idleTimeout
    }

    /// Threads alive now (running or idle).
    package var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let startThread = jobs.count > idleThreads && threads < maxThreads
        if startThread { threads += 1 }
        if idleThreads > 0 { condition.signal() }
        condition.unlock()
        if startThread {
            Thread { [self] in work() }.start()
        }
    }

    private func work() {
        // Named for profilers (a new thread would inherit its creator's name, often a pool thread's).
        _ = cseam_set_thread_name(name)
        // Failing to lower the priority (not Linux) leaves the thread as any other: still off the shared pool.
        _ = cseam_set_thread_niceness(niceness)
        let executor = asUnownedTaskExecutor()
        condition.lock()
        while true {
            if let job = jobs.popFirst() {
                condition.unlock()
                job.runSynchronously(on: executor)
                condition.lock()
                continue
            }
            idleThreads += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
            idleThreads -= 1
            if !woken, jobs.isEmpty {
                threads -= 1
                condition.unlock()
                return
            }
        }
    }
}
