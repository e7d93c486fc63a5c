import Foundation
import Testing
@testable import SeamServer

/// The conditioning queue as tables of events and the actions they return: no workers, no
/// sleeps, time passed in.
@Suite struct ConditioningQueueStateMachineTests {
    typealias Machine = ConditioningQueueStateMachine
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    enum Event {
        case request(String, waiter: Int?)
        case finished(String, Machine.Outcome)
        case timedOut(Int, String)
        case forget
    }

    /// Two workers, a queue of two, failures remembered for 60 s.
    static let table: [(String, [(Double, Event, [Machine.Action])])] = [
        (
            "one job, asked three times, runs once; its waiters all hear",
            [
                (0, .request("a", waiter: 1), [.start("a")]),
                (0, .request("a", waiter: 2), []),
                (1, .request("a", waiter: nil), []),
                (5, .finished("a", .conditioned), [.answer([1, 2], .conditioned)]),
            ]
        ),
        (
            "two workers: the third job queues and starts when one ends",
            [
                (0, .request("a", waiter: 1), [.start("a")]),
                (0, .request("b", waiter: 2), [.start("b")]),
                (0, .request("c", waiter: 3), []),
                (0, .request("c", waiter: 4), []),
                (3, .finished("b", .conditioned), [.answer([2], .conditioned), .start("c")]),
                (6, .finished("c", .conditioned), [.answer([3, 4], .conditioned)]),
                (7, .finished("a", .conditioned), [.answer([1], .conditioned)]),
            ]
        ),
        (
            "the queue full: refused, nothing started",
            [
                (0, .request("a", waiter: nil), [.start("a")]),
                (0, .request("b", waiter: nil), [.start("b")]),
                (0, .request("c", waiter: nil), []),
                (0, .request("d", waiter: nil), []),
                (0, .request("e", waiter: 5), [.answer([5], .queueFull)]),
                (1, .finished("a", .conditioned), [.start("c")]),
                (1, .request("e", waiter: 6), []),
            ]
        ),
        (
            "a waiter out of time hears stillRunning; the job goes on for the others",
            [
                (0, .request("a", waiter: 1), [.start("a")]),
                (0, .request("a", waiter: 2), []),
                (2, .timedOut(1, "a"), [.answer([1], .stillRunning)]),
                (2, .timedOut(1, "a"), []),
                (9, .finished("a", .conditioned), [.answer([2], .conditioned)]),
            ]
        ),
        (
            "a failed job is not run again for a while: askers hear why at once, then it runs again",
            [
                (0, .request("a", waiter: 1), [.start("a")]),
                (4, .finished("a", .failed("ffmpeg exited with 1")), [.answer([1], .failed("ffmpeg exited with 1"))]),
                (30, .request("a", waiter: 2), [.answer([2], .failed("ffmpeg exited with 1"))]),
                (30, .request("a", waiter: nil), []),
                (65, .request("a", waiter: 3), [.start("a")]),
            ]
        ),
        (
            "a queued waiter out of time; the job still starts and ends with nobody to tell",
            [
                (0, .request("a", waiter: nil), [.start("a")]),
                (0, .request("b", waiter: nil), [.start("b")]),
                (0, .request("c", waiter: 3), []),
                (1, .timedOut(3, "c"), [.answer([3], .stillRunning)]),
                (2, .finished("a", .conditioned), [.start("c")]),
                (3, .finished("c", .conditioned), []),
            ]
        ),
        (
            "an end reported twice or for a job never started changes nothing",
            [
                (0, .request("a", waiter: 1), [.start("a")]),
                (1, .finished("a", .conditioned), [.answer([1], .conditioned)]),
                (2, .finished("a", .conditioned), []),
                (2, .finished("zzz", .failed("x")), []),
                (3, .request("b", waiter: nil), [.start("b")]),
                (3, .request("c", waiter: nil), [.start("c")]),
            ]
        ),
    ]

    @Test("Events and actions, as a table", arguments: Self.table)
    func play(name: String, events: [(Double, Event, [Machine.Action])]) {
        var machine = Machine(concurrency: 2, queueLimit: 2, retryAfter: 60)
        for (index, (seconds, event, expected)) in events.enumerated() {
            let now = Self.t0.addingTimeInterval(seconds)
            let actions: [Machine.Action]
            switch event {
            case .request(let key, let waiter): actions = machine.request(key, waiter: waiter, now: now)
            case .finished(let key, let outcome): actions = machine.finished(key, outcome, now: now)
            case .timedOut(let waiter, let key): actions = machine.timedOut(waiter, for: key)
            case .forget:
                machine.forgetFailures(before: now)
                actions = []
            }
            #expect(actions == expected, "\(name): event \(index) (\(event) at \(seconds) s)")
        }
    }

    @Test("Counts for the metrics: running, queued and failures remembered; old failures forgotten")
    func counts() {
        var machine = Machine(concurrency: 1, queueLimit: 5, retryAfter: 60)
        _ = machine.request("a", waiter: nil, now: Self.t0)
        _ = machine.request("b", waiter: nil, now: Self.t0)
        _ = machine.request("c", waiter: nil, now: Self.t0)
        #expect((machine.active, machine.queued) == (1, 2))
        _ = machine.finished("a", .failed("no video stream"), now: Self.t0)
        #expect((machine.active, machine.queued, machine.failuresRemembered) == (1, 1, 1))
        machine.forgetFailures(before: Self.t0.addingTimeInterval(59))
        #expect(machine.failuresRemembered == 1)
        machine.forgetFailures(before: Self.t0.addingTimeInterval(61))
        #expect(machine.failuresRemembered == 0)
    }

    @Test(
        "Where a job stands, as the prefetch route reports it: queued with its place, running, failed until its retry time, else idle"
    )
    func status() {
        var machine = Machine(concurrency: 1, queueLimit: 2, retryAfter: 60)
        #expect(machine.status("a", now: Self.t0) == .idle)
        _ = machine.request("a", waiter: nil, now: Self.t0)
        _ = machine.request("b", waiter: nil, now: Self.t0)
        _ = machine.request("c", waiter: 7, now: Self.t0)
        _ = machine.request("d", waiter: nil, now: Self.t0)
        #expect(machine.status("a", now: Self.t0) == .running)
        #expect(machine.status("b", now: Self.t0) == .queued(position: 0))
        #expect(machine.status("c", now: Self.t0) == .queued(position: 1))
        #expect(machine.status("d", now: Self.t0) == .idle, "refused: the queue was full")
        _ = machine.finished("a", .failed("no video stream"), now: Self.t0)
        let until = Self.t0.addingTimeInterval(60)
        #expect(machine.status("a", now: Self.t0.addingTimeInterval(59)) == .failed("no video stream", until: until))
        #expect(machine.status("a", now: Self.t0.addingTimeInterval(61)) == .idle)
        #expect(machine.status("b", now: Self.t0) == .running)
        #expect(machine.status("c", now: Self.t0) == .queued(position: 0))
        _ = machine.finished("b", .conditioned, now: Self.t0)
        #expect(machine.status("b", now: Self.t0) == .idle, "conditioned: on disk from here")
    }
}
