import Foundation

/// The conditioning jobs of one replica: which run, which wait, who waits for them, and which
/// creatives failed recently. A value: the owner holds it under a lock, feeds it events with the
/// time, and carries the actions out after releasing the lock (the shape of AsyncHTTPClient's
/// connection pool state machine). No I/O, no clock of its own.
///
/// - A job is named by its key (the creative's identity and the content ladder's fingerprint):
///   asked for twice, it runs once, and every asker waits for the same run (de-duplication).
/// - At most `concurrency` jobs run; the rest queue in arrival order, at most `queueLimit`: beyond
///   it a request is refused (the break plays without that ad, and a later session asks again).
/// - A waiter is referred to by its id; it stops waiting when its job ends or when its owner
///   says its time is up (the ad decision budget): the job itself runs on for later sessions.
/// - A job that failed is not run again for `retryAfter` seconds: askers get its reason at once.
struct ConditioningQueueStateMachine: Sendable {
    typealias Key = String
    typealias WaiterID = Int

    /// How a job ended.
    enum Outcome: Sendable, Equatable {
        case conditioned
        case failed(String)
    }

    /// What a waiter is told.
    enum Answer: Sendable, Equatable {
        case conditioned
        case failed(String)
        /// Its time was up before the job ended; the job goes on.
        case stillRunning
        /// The queue was full: nothing was started.
        case queueFull
    }

    enum Action: Sendable, Equatable {
        /// Start the job (download, probe, encode); report `finished` when it ends.
        case start(Key)
        /// Tell these waiters.
        case answer([WaiterID], Answer)
        case none
    }

    private enum Job: Sendable, Equatable {
        case queued(waiters: [WaiterID])
        case running(waiters: [WaiterID])
        case failed(reason: String, until: Date)
    }

    let concurrency: Int
    let queueLimit: Int
    let retryAfter: TimeInterval
    private var jobs: [Key: Job] = [:]
    private var queue: [Key] = []
    private var running = 0

    init(concurrency: Int, queueLimit: Int, retryAfter: TimeInterval) {
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queueLimit)
        self.retryAfter = retryAfter
    }

    /// Jobs waiting for a worker.
    var queued: Int { queue.count }
    /// Jobs running.
    var active: Int { running }

    /// Someone wants `key` conditioned; `waiter` waits for the outcome (nil: start it, wait for
    /// nothing, as the prefetch route does).
    mutating func request(_ key: Key, waiter: WaiterID?, now: Date) -> [Action] {
        let waiters = waiter.map { [$0] } ?? []
        switch jobs[key] {
        case .queued(let others)?:
            jobs[key] = .queued(waiters: others + waiters)
            return []
        case .running(let others)?:
            jobs[key] = .running(waiters: others + waiters)
            return []
        case .failed(let reason, let until)? where until > now:
            return waiters.isEmpty ? [] : [.answer(waiters, .failed(reason))]
        case .failed?, nil:
            if running < concurrency {
                running += 1
                jobs[key] = .running(waiters: waiters)
                return [.start(key)]
            }
            guard queue.count < queueLimit else {
                jobs[key] = nil
                return waiters.isEmpty ? [] : [.answer(waiters, .queueFull)]
            }
            queue.append(key)
            jobs[key] = .queued(waiters: waiters)
            return []
        }
    }

    /// The job of `key` ended: its waiters are told, and the next queued job starts.
    mutating func finished(_ key: Key, _ outcome: Outcome, now: Date) -> [Action] {
        guard case .running(let waiters)? = jobs[key] else { return [] }
        running -= 1
        var actions: [Action] = []
        switch outcome {
        case .conditioned:
            // Kept on disk from here: later asks find it there and never reach the machine.
            jobs[key] = nil
            if !waiters.isEmpty { actions.append(.answer(waiters, .conditioned)) }
        case .failed(let reason):
            jobs[key] = .failed(reason: reason, until: now.addingTimeInterval(retryAfter))
            if !waiters.isEmpty { actions.append(.answer(waiters, .failed(reason))) }
        }
        if !queue.isEmpty {
            let next = queue.removeFirst()
            if case .queued(let nextWaiters)? = jobs[next] {
                running += 1
                jobs[next] = .running(waiters: nextWaiters)
                actions.append(.start(next))
            }
        }
        return actions
    }

    /// `waiter`'s time is up: it stops waiting for `key` (told `stillRunning`); the job goes on.
    mutating func timedOut(_ waiter: WaiterID, for key: Key) -> [Action] {
        switch jobs[key] {
        case .queued(let waiters)? where waiters.contains(waiter):
            jobs[key] = .queued(waiters: waiters.filter { $0 != waiter })
        case .running(let waiters)? where waiters.contains(waiter):
            jobs[key] = .running(waiters: waiters.filter { $0 != waiter })
        default:
            return []
        }
        return [.answer([waiter], .stillRunning)]
    }

    /// Forgets failures whose time has passed (called now and then; a failure is also forgotten
    /// when it is asked for after its time).
    mutating func forgetFailures(before now: Date) {
        jobs = jobs.filter { _, job in
            if case .failed(_, let until) = job { return until > now }
            return true
        }
    }

    /// Where a job stands (the prefetch route's answer).
    enum JobStatus: Sendable, Equatable {
        /// Not known here: never asked for, conditioned (then on disk), refused, or failed long ago.
        case idle
        /// Waiting for a worker, `position` jobs ahead of it (0: next).
        case queued(position: Int)
        case running
        /// Failed, and not retried before `until`.
        case failed(String, until: Date)
    }

    func status(_ key: Key, now: Date) -> JobStatus {
        switch jobs[key] {
        case .queued?: return .queued(position: queue.firstIndex(of: key) ?? 0)
        case .running?: return .running
        case .failed(let reason, let until)? where until > now: return .failed(reason, until: until)
        case .failed?, nil: return .idle
        }
    }

    /// Failures remembered (for metrics).
    var failuresRemembered: Int {
        jobs.values.reduce(0) { count, job in
            if case .failed = job { return count + 1 }
            return count
        }
    }
}
