import HLS
import Testing
@testable import SeamServer

/// The origin cache's stale-window rules as tables: events in (request, fetch completed,
/// cancelled, sweep), actions out, time passed in. No fetch, no task, no sleep.
@Suite("Live: origin playlist cache machine")
struct OriginPlaylistCacheStateMachineTests {
    typealias Machine = OriginPlaylistCacheStateMachine
    static let url = "http://origin.example/live/ch1/720p.m3u8"
    static let t0 = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int64(seconds * 1000)) }

    static func window(_ sequence: Int, segments: Int = 3, at seconds: Double) -> OriginWindow {
        let playlist = MediaPlaylist(
            version: 3, targetDuration: 6, mediaSequence: sequence,
            segments: (sequence..<(sequence + segments)).map { MediaSegment(uri: "seg\($0).ts", duration: 6) })
        return OriginWindow(playlist: playlist, finalURL: url, fetchedAt: at(seconds))
    }

    static func machine(
        freshFor: Double = 1, serveWhileRefreshing: Double = 0, maxStale: Double = 12,
        retryAfterFailure: Double = 0.5, maxEntries: Int = 10_000
    ) -> Machine {
        Machine(
            configuration: .init(
                freshFor: .milliseconds(Int64(freshFor * 1000)),
                serveWhileRefreshing: .milliseconds(Int64(serveWhileRefreshing * 1000)),
                maxStale: .milliseconds(Int64(maxStale * 1000)),
                retryAfterFailure: .milliseconds(Int64(retryAfterFailure * 1000)), maxEntries: maxEntries),
            now: t0)
    }

    /// One step of a table: an event at a time, and what the machine answers, written short.
    enum Event {
        case request(Double)
        case fetched(OriginWindow, Double)
        case failed(SeamError, Double)
        case cancel(UInt64)
    }

    /// `fresh 10`, `stale 10`, `error ORIGIN_TIMEOUT`, `wait 0 fetch`, `wait 1`, `refresh 10`,
    /// `answer [0, 1] fresh 11`, `cancelled`.
    static func run(_ machine: inout Machine, _ event: Event) -> String {
        func outcome(_ result: Result<OriginWindow, SeamError>) -> String {
            switch result {
            case .success(let window): "\(window.isStale ? "stale" : "fresh") \(window.playlist.mediaSequence)"
            case .failure(let error): "error \(error.code.rawValue)"
            }
        }
        switch event {
        case .request(let time):
            switch machine.windowRequested(url, now: at(time)) {
            case .answer(let result): return outcome(result)
            case .answerAndFetch(let result):
                return "refresh " + outcome(result).replacingOccurrences(of: "fresh ", with: "")
            case .wait(let id, let startFetch): return "wait \(id.value)" + (startFetch ? " fetch" : "")
            }
        case .fetched(let window, let time):
            let completion = machine.fetchCompleted(url, result: .success(window), now: at(time))
            return "answer \(completion.waiters.map(\.value)) " + outcome(completion.outcome)
        case .failed(let error, let time):
            let completion = machine.fetchCompleted(url, result: .failure(error), now: at(time))
            return "answer \(completion.waiters.map(\.value)) " + outcome(completion.outcome)
        case .cancel(let id):
            return machine.waiterCancelled(url, .init(value: id)) ? "cancelled" : "not waiting"
        }
    }

    static func check(
        _ machine: inout Machine, _ table: [(Event, String)], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (index, row) in table.enumerated() {
            let answer = run(&machine, row.0)
            #expect(answer == row.1, "row \(index): \(row.0)", sourceLocation: sourceLocation)
        }
    }

    static let unreachable = SeamError(.originUnavailable, "refused")

    /// `windowAtHand` (the early playlist path, which cannot wait): the window when it is fresh,
    /// nothing — and no waiter, no fetch — when a caller would wait or be answered a failure.
    @Test func aWindowAtHandNeverWaits() {
        var machine = Self.machine()
        func atHand(_ time: Double) -> String {
            switch machine.windowAtHand(Self.url, now: Self.at(time)) {
            case .answer(.success(let window))?: "fresh \(window.playlist.mediaSequence)"
            case .answerAndFetch(.success(let window))?: "refresh \(window.playlist.mediaSequence)"
            case nil: "not at hand"
            default: "other"
            }
        }
        #expect(atHand(0) == "not at hand", "nothing fetched yet")
        #expect(machine.fetchCount == 0)
        Self.check(&machine, [(.request(0), "wait 0 fetch")])
        #expect(atHand(0.1) == "not at hand", "a fetch is on its way")
        Self.check(&machine, [(.fetched(Self.window(10, at: 0.2), 0.2), "answer [0] fresh 10")])
        #expect(atHand(0.5) == "fresh 10")
        #expect(atHand(1.3) == "not at hand", "expired: a caller would wait for the refresh")
        #expect(machine.fetchCount == 1, "and nothing was fetched for it")
        #expect(machine.waitingCount == 0)
        Self.check(
            &machine, [(.request(1.3), "wait 1 fetch"), (.failed(Self.unreachable, 1.4), "answer [1] stale 10")])
        #expect(atHand(1.5) == "not at hand", "after a failure the router's path answers")
    }

    /// The early path once stalled a viewer: a busy channel's window at hand after two quiet
    /// periods (its ask count starts over, so it is no longer busy) registered a waiter and marked
    /// a fetch as running that nobody started; the router's path then waited for it forever.
    @Test func aWindowNotAtHandLeavesNoWaiterAndNoFetchBehind() {
        var machine = Self.machine(serveWhileRefreshing: 4)
        var table: [(Event, String)] = [
            (.request(0), "wait 0 fetch"), (.fetched(Self.window(10, at: 0), 0), "answer [0] fresh 10"),
        ]
        for step in 1...9 { table.append((.request(Double(step) / 10), "fresh 10")) }  // busy
        Self.check(&machine, table)
        // Quiet for two periods, still within serveWhileRefreshing: a caller would now wait.
        #expect(machine.windowAtHand(Self.url, now: Self.at(3)) == nil)
        #expect(machine.waitingCount == 0)
        #expect(machine.fetchCount == 1)
        // The router's path asks: it starts the fetch itself and is answered by it.
        Self.check(
            &machine,
            [(.request(3), "wait 1 fetch"), (.fetched(Self.window(11, at: 3.1), 3.1), "answer [1] fresh 11")])
    }

    @Test("Callers during a fetch wait for it; one fetch answers them all; a fresh window needs no fetch")
    func coalescingAndFreshness() {
        var machine = Self.machine()
        Self.check(
            &machine,
            [
                (.request(0), "wait 0 fetch"),
                (.request(0.1), "wait 1"),
                (.request(0.2), "wait 2"),
                (.fetched(Self.window(10, at: 0.3), 0.3), "answer [0, 1, 2] fresh 10"),
                (.request(0.5), "fresh 10"),
                (.request(1.299), "fresh 10"),
                (.request(1.3), "wait 3 fetch"),  // freshFor (1 s) after the fetch
                (.fetched(Self.window(11, at: 1.4), 1.4), "answer [3] fresh 11"),
            ])
        #expect(machine.fetchCount == 2)
        #expect(machine.waitingCount == 0)
    }

    @Test(
        "A failure serves the last good window while it is younger than maxStale, then the error; no refetch within retryAfterFailure"
    )
    func staleThenError() {
        var machine = Self.machine(maxStale: 4, retryAfterFailure: 0.5)
        Self.check(
            &machine,
            [
                (.request(0), "wait 0 fetch"),
                (.fetched(Self.window(10, at: 0), 0), "answer [0] fresh 10"),
                (.request(2), "wait 1 fetch"),
                (.failed(Self.unreachable, 2), "answer [1] stale 10"),
                (.request(2.1), "stale 10"),  // within retryAfterFailure: the same outcome, no fetch
                (.request(2.499), "stale 10"),
                (.request(2.5), "wait 2 fetch"),
                (.failed(Self.unreachable, 3), "answer [2] stale 10"),
                (.request(4), "wait 3 fetch"),  // the last good window is 4 s old: too old
                (.failed(Self.unreachable, 4), "answer [3] error ORIGIN_UNAVAILABLE"),
                (.request(4.2), "error ORIGIN_UNAVAILABLE"),
                (.request(4.5), "wait 4 fetch"),  // the origin is back
                (.fetched(Self.window(12, at: 4.5), 4.5), "answer [4] fresh 12"),
            ])
        #expect(machine.fetchCount == 5)
    }

    @Test(
        "A window that moves backwards is refused: the last good one is served, then the error, then the new numbering is followed"
    )
    func backwards() {
        var machine = Self.machine(maxStale: 12)
        Self.check(
            &machine,
            [
                (.request(0), "wait 0 fetch"),
                (.fetched(Self.window(10, at: 0), 0), "answer [0] fresh 10"),
                (.request(2), "wait 1 fetch"),
                (.fetched(Self.window(8, at: 2), 2), "answer [1] stale 10"),
                (.request(3), "wait 2 fetch"),
                (.fetched(Self.window(10, segments: 2, at: 3), 3), "answer [2] stale 10"),  // last segment went back
                (.request(4), "wait 3 fetch"),
                (.fetched(Self.window(10, at: 4), 4), "answer [3] fresh 10"),  // an equal window is fine
                (.request(16), "wait 4 fetch"),
                // last good 12 s old
                (.fetched(Self.window(8, at: 16), 16), "answer [4] error ORIGIN_INVALID_PLAYLIST"),
                (.request(16.5), "wait 5 fetch"),
                (.fetched(Self.window(8, at: 16.5), 16.5), "answer [5] fresh 8"),  // restarted numbering followed
            ])
    }

    @Test("A busy channel past freshFor answers from its last window while one refresh runs; a quiet one waits")
    func servedWhileRefreshing() {
        var machine = Self.machine(serveWhileRefreshing: 2)
        var table: [(Event, String)] = [
            (.request(0), "wait 0 fetch"), (.fetched(Self.window(10, at: 0), 0), "answer [0] fresh 10"),
        ]
        for step in 1...9 { table.append((.request(Double(step) / 10), "fresh 10")) }  // 10 callers in the period: busy
        table += [
            (.request(1.5), "refresh 10"),  // this caller starts the refresh and is answered at once
            (.request(1.6), "fresh 10"),  // others too, without a second refresh
            (.fetched(Self.window(11, at: 1.7), 1.7), "answer [] fresh 11"),
            (.request(1.8), "fresh 11"),
            (.request(5), "wait 1 fetch"),  // nobody asked for two periods: quiet, waits for the fresh window
        ]
        Self.check(&machine, table)
        #expect(machine.fetchCount == 3)
    }

    @Test("A cancelled waiter leaves; the fetch goes on for the others and still fills the cache")
    func cancelledWaiter() {
        var machine = Self.machine()
        Self.check(
            &machine,
            [
                (.request(0), "wait 0 fetch"),
                (.request(0), "wait 1"),
                (.cancel(0), "cancelled"),
                (.cancel(0), "not waiting"),
                (.fetched(Self.window(10, at: 0.2), 0.2), "answer [1] fresh 10"),
                (.request(0.3), "fresh 10"),
            ])
        #expect(machine.fetchCount == 1)
    }

    @Test("Idle entries are swept; the entry count is bounded; an entry a fetch depends on stays")
    func sweepAndBound() {
        var machine = Self.machine(maxEntries: 2)
        for (index, url) in ["a", "b"].enumerated() {
            guard case .wait = machine.windowRequested(url, now: Self.at(Double(index))) else {
                Issue.record("no fetch for \(url)"); return
            }
        }
        _ = machine.fetchCompleted("a", result: .success(Self.window(1, at: 0)), now: Self.at(0))
        // b's fetch runs: c pushes a out, not b.
        _ = machine.windowRequested("c", now: Self.at(2))
        #expect(Set(machine.entries.keys) == ["b", "c"])
        _ = machine.fetchCompleted("b", result: .success(Self.window(1, at: 3)), now: Self.at(3))
        _ = machine.fetchCompleted("c", result: .success(Self.window(1, at: 3)), now: Self.at(3))
        // Asked at 1 s and 2 s: idle (60 s) from 61 s and 62 s.
        machine.sweep(now: Self.at(60.5))
        #expect(Set(machine.entries.keys) == ["b", "c"])
        machine.sweep(now: Self.at(61))
        #expect(machine.entries.keys.sorted() == ["c"])
        machine.sweep(now: Self.at(62))
        #expect(machine.entries.isEmpty)
    }
}
