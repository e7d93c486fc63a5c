import Foundation
import Testing
@testable import SeamServer

@Suite("Live: ADS request limiter", .timeLimit(.minutes(2)))
struct AdRequestLimiterTests {
    /// Far enough that no deadline passes on a busy machine.
    static var farDeadline: ContinuousClock.Instant { .now + .seconds(120) }

    @Test("Never more than maxConcurrent bodies at once under 200 concurrent callers")
    func bound() async throws {
        let limiter = AdRequestLimiter(maxConcurrent: 4, metricsFactory: SeamMetrics().factory)
        let tracker = ConcurrencyTracker()
        let results = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<200 {
                group.addTask {
                    await limiter.withPermit(deadline: Self.farDeadline) {
                        tracker.enter()
                        try? await Task.sleep(for: .milliseconds(1))
                        await Task.yield()
                        tracker.leave()
                        return index
                    }
                }
            }
            var results: [Int?] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.compactMap { $0 }.sorted() == Array(0..<200))
        #expect(tracker.maximum <= 4)
        #expect(tracker.maximum >= 1)
        #expect(limiter.inFlight == 0)
        #expect(limiter.waiting == 0)
    }

    @Test("Waiters are served in arrival order")
    func fifo() async throws {
        let limiter = AdRequestLimiter(maxConcurrent: 1, metricsFactory: SeamMetrics().factory)
        let gate = LiveTestGate()
        let order = OrderRecorder()
        let holder = Task { await limiter.withPermit(deadline: Self.farDeadline) { await gate.wait() } }
        #expect(await liveEventually { limiter.inFlight == 1 })
        var waiters: [Task<Void?, Never>] = []
        for index in 0..<10 {
            waiters.append(Task { await limiter.withPermit(deadline: Self.farDeadline) { order.append(index) } })
            #expect(await liveEventually { limiter.waiting == index + 1 })
        }
        // A caller arriving after them runs after them, not ahead of the queue.
        gate.open()
        _ = await holder.value
        let late: Void? = await limiter.withPermit(deadline: Self.farDeadline) { order.append(10) }
        for waiter in waiters { _ = await waiter.value }
        #expect(late != nil)
        #expect(order.values == Array(0...10))
        #expect(limiter.inFlight == 0)
    }

    @Test("A waiter still waiting at its deadline gets nil; the permit count stays right")
    func deadline() async throws {
        let metrics = SeamMetrics()
        let limiter = AdRequestLimiter(maxConcurrent: 1, metricsFactory: metrics.factory)
        let gate = LiveTestGate()
        let holder = Task { await limiter.withPermit(deadline: Self.farDeadline) { await gate.wait(); return "held" } }
        #expect(await liveEventually { limiter.inFlight == 1 })

        let ran = OrderRecorder()
        let timedOut = Task { await limiter.withPermit(deadline: .now + .seconds(2)) { ran.append(1) } }
        #expect(await liveEventually { limiter.waiting == 1 })
        let waitingText = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(waitingText.contains("\(SeamMetrics.adsRequestsWaitingName) 1"), "\(waitingText)")

        #expect(await timedOut.value == nil)  // the holder still holds: the deadline decided
        #expect(ran.values.isEmpty)
        #expect(limiter.waiting == 0)
        #expect(limiter.inFlight == 1)
        let afterText = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(afterText.contains("\(SeamMetrics.adsRequestsWaitingName) 0"), "\(afterText)")

        // A deadline already passed is refused without running the body.
        #expect(await limiter.withPermit(deadline: .now - .seconds(1)) { ran.append(2) } == nil)

        gate.open()
        #expect(await holder.value == "held")
        #expect(limiter.inFlight == 0)
        #expect(await limiter.withPermit(deadline: Self.farDeadline) { 42 } == 42)
        #expect(limiter.inFlight == 0)
        #expect(ran.values.isEmpty)
    }

    @Test("A cancelled waiter leaves the queue; the permit goes to the next waiter")
    func cancellation() async throws {
        let limiter = AdRequestLimiter(maxConcurrent: 1, metricsFactory: SeamMetrics().factory)
        let gate = LiveTestGate()
        let ran = OrderRecorder()
        let holder = Task { await limiter.withPermit(deadline: Self.farDeadline) { await gate.wait() } }
        #expect(await liveEventually { limiter.inFlight == 1 })
        let cancelled = Task { await limiter.withPermit(deadline: Self.farDeadline) { ran.append(1) } }
        #expect(await liveEventually { limiter.waiting == 1 })
        let next = Task { await limiter.withPermit(deadline: Self.farDeadline) { ran.append(2) } }
        #expect(await liveEventually { limiter.waiting == 2 })

        cancelled.cancel()
        #expect(await cancelled.value == nil)  // returns while the holder still holds
        #expect(limiter.waiting == 1)
        #expect(limiter.inFlight == 1)

        gate.open()
        _ = await holder.value
        #expect(await next.value != nil)
        #expect(ran.values == [2])
        #expect(limiter.inFlight == 0)
        #expect(limiter.waiting == 0)

        // A caller cancelled before it asks never runs and takes nothing.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await limiter.withPermit(deadline: Self.farDeadline) { ran.append(3) }
        }
        #expect(await early.value == nil)
        #expect(limiter.inFlight == 0)
        #expect(ran.values == [2])
    }

    @Test("Many waiters giving up at once leave the limiter usable")
    func massDeadline() async throws {
        let limiter = AdRequestLimiter(maxConcurrent: 2, metricsFactory: SeamMetrics().factory)
        let gate = LiveTestGate()
        let holders = (0..<2).map { _ in Task { await limiter.withPermit(deadline: Self.farDeadline) { await gate.wait() } } }
        #expect(await liveEventually { limiter.inFlight == 2 })
        let deadline = ContinuousClock.now + .milliseconds(300)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<500 {
                group.addTask { await limiter.withPermit(deadline: deadline) { true } ?? false }
            }
            var results: [Bool] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.allSatisfy { !$0 })
        #expect(limiter.waiting == 0)
        #expect(limiter.inFlight == 2)
        gate.open()
        for holder in holders { _ = await holder.value }
        #expect(limiter.inFlight == 0)
        #expect(await limiter.withPermit(deadline: Self.farDeadline) { 1 } == 1)
    }
}

/// Counts bodies running at once and remembers the most.
final class ConcurrencyTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var _maximum = 0

    func enter() { lock.withLock { current += 1; _maximum = max(_maximum, current) } }
    func leave() { lock.withLock { current -= 1 } }
    var maximum: Int { lock.withLock { _maximum } }
}

final class OrderRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _values: [Int] = []

    func append(_ value: Int) { lock.withLock { _values.append(value) } }
    var values: [Int] { lock.withLock { _values } }
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
