import Foundation
import SeamTesting
import Testing
@testable import SeamServer

@Suite("Live: break decision queue", .timeLimit(.minutes(2)))
struct BreakDecisionQueueTests {
    /// Far enough that no deadline passes on a busy machine.
    static var farDeadline: ContinuousClock.Instant { .now + .seconds(120) }

    static func queue(
        _ maxConcurrent: Int, metrics: SeamMetrics = SeamMetrics(), clock: TestClock = TestClock()
    ) -> BreakDecisionQueue {
        BreakDecisionQueue(
            maxConcurrent: maxConcurrent,
            executor: BackgroundExecutor(name: "seam-test-dq", maxThreads: 2, niceness: 5),
            clock: clock.seamClock, metricsFactory: metrics.factory)
    }

    /// Submits a job and returns when it ran (true) or expired (false).
    static func submit(
        _ queue: BreakDecisionQueue, deadline: ContinuousClock.Instant = farDeadline,
        _ body: @escaping @Sendable () async -> Void = {}
    ) -> Task<Bool, Never> {
        let outcome = LiveTestOutcome()
        queue.submit(deadline: deadline) {
            await body(); outcome.set(true)
        } expired: {
            outcome.set(false)
        }
        return Task { await outcome.value() }
    }

    @Test("Never more than maxConcurrent decisions at once under 200 submissions; every one runs")
    func bound() async throws {
        let queue = Self.queue(4)
        let tracker = ConcurrencyTracker()
        let jobs = (0..<200).map { _ in
            Self.submit(queue) {
                tracker.enter()
                try? await Task.sleep(for: .milliseconds(1))
                await Task.yield()
                tracker.leave()
            }
        }
        var ran = 0
        for job in jobs where await job.value { ran += 1 }
        #expect(ran == 200)
        #expect(tracker.maximum <= 4)
        #expect(tracker.maximum >= 1)
        #expect(await liveEventually { queue.running == 0 })
        #expect(queue.waiting == 0)
    }

    @Test("Decisions run on the background executor's lower-priority threads")
    func runsInTheBackground() async throws {
        let queue = Self.queue(2)
        let names = NameRecorder()
        let niceness = OrderRecorder()
        #expect(
            await Self.submit(queue) {
                let facts = BackgroundExecutorTests.currentThread()
                names.append(facts.name ?? "")
                niceness.append(Int(facts.niceness))
            }.value)
        #expect(names.values == ["seam-test-dq"])
        #if os(Linux)
            #expect((niceness.values.first ?? 0) >= 5)
        #endif
    }

    @Test("Decisions wait in the order they were submitted")
    func fifo() async throws {
        let queue = Self.queue(1)
        let gate = LiveTestGate()
        let order = OrderRecorder()
        let holder = Self.submit(queue) { await gate.wait() }
        #expect(await liveEventually { queue.running == 1 && queue.waiting == 0 })
        #expect(queue.running == queue.maxConcurrent)
        let waiters = (0..<10).map { index in Self.submit(queue) { order.append(index) } }
        #expect(queue.waiting == 10)
        gate.open()
        #expect(await holder.value)
        for waiter in waiters { #expect(await waiter.value) }
        #expect(order.values == Array(0..<10))
        #expect(await liveEventually { queue.running < queue.maxConcurrent })
    }

    @Test("A decision still waiting at its deadline expires without running; the gauge follows the queue")
    func deadline() async throws {
        let metrics = SeamMetrics()
        let clock = TestClock()
        let queue = Self.queue(1, metrics: metrics, clock: clock)
        let gate = LiveTestGate()
        let ran = OrderRecorder()
        let holder = Self.submit(queue) { await gate.wait() }
        #expect(await liveEventually { queue.running == 1 && queue.waiting == 0 })

        let late = Self.submit(queue, deadline: clock.now + .milliseconds(200)) { ran.append(1) }
        let onTime = Self.submit(queue) { ran.append(2) }
        #expect(queue.waiting == 2)
        let waitingText = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(waitingText.contains("\(SeamMetrics.adsRequestsWaitingName) 2"), "\(waitingText)")

        clock.advance(.milliseconds(300))
        gate.open()
        #expect(await holder.value)
        #expect(await late.value == false)
        #expect(await onTime.value == true)
        #expect(ran.values == [2])
        #expect(await liveEventually { queue.running == 0 })
        let afterText = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(afterText.contains("\(SeamMetrics.adsRequestsWaitingName) 0"), "\(afterText)")

        // A deadline already passed expires at once. On the queue's clock: the real `.now`, a
        // second back, is ahead of a test clock the test moved only 300 ms after a slow start.
        #expect(await Self.submit(queue, deadline: clock.now - .seconds(1)) { ran.append(3) }.value == false)
        #expect(ran.values == [2])
    }

    @Test("Thousands expiring at once leave the queue usable")
    func massExpiry() async throws {
        let clock = TestClock()
        let queue = Self.queue(2, clock: clock)
        let gate = LiveTestGate()
        let holders = (0..<2).map { _ in Self.submit(queue) { await gate.wait() } }
        #expect(await liveEventually { queue.running == 2 && queue.waiting == 0 })
        let deadline = clock.now + .milliseconds(100)
        let expiring = (0..<5_000).map { _ in Self.submit(queue, deadline: deadline) }
        clock.advance(.milliseconds(200))
        gate.open()
        for holder in holders { #expect(await holder.value) }
        var ran = 0
        for job in expiring where await job.value { ran += 1 }
        #expect(ran == 0)
        #expect(await Self.submit(queue).value)
        #expect(await liveEventually { queue.running == 0 && queue.waiting == 0 })
    }
}

/// Remembers whether a job ran or expired; `value()` waits for it.
final class LiveTestOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Bool?
    private var waiter: CheckedContinuation<Bool, Never>?

    func set(_ value: Bool) {
        let (waiter, twice) = lock.withLock { () -> (CheckedContinuation<Bool, Never>?, Bool) in
            guard outcome == nil else { return (nil, true) }
            outcome = value
            defer { self.waiter = nil }
            return (self.waiter, false)
        }
        if twice { Issue.record("a job ran or expired twice") }
        waiter?.resume(returning: value)
    }

    func value() async -> Bool {
        await withCheckedContinuation { continuation in
            let known = lock.withLock { () -> Bool? in
                if let outcome { return outcome }
                waiter = continuation
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}

/// Counts bodies running at once and remembers the most.
final class ConcurrencyTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var _maximum = 0

    func enter() {
        lock.withLock {
            current += 1; _maximum = max(_maximum, current)
        }
    }
    func leave() { lock.withLock { current -= 1 } }
    var maximum: Int { lock.withLock { _maximum } }
}

final class OrderRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _values: [Int] = []

    func append(_ value: Int) { lock.withLock { _values.append(value) } }
    var values: [Int] { lock.withLock { _values } }
}

final class NameRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _values: [String] = []

    func append(_ value: String) { lock.withLock { _values.append(value) } }
    var values: [String] { lock.withLock { _values } }
}

/// Bodies wait on it until the test opens it.
final class LiveTestGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = lock.withLock { () -> Bool in
                guard !isOpen else { return true }
                waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let all = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiting = [] }
            return waiting
        }
        for continuation in all { continuation.resume() }
    }
}
