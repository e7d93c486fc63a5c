import Foundation
import HLS
import Stitching
import SeamTesting
import Testing
@testable import SeamServer

struct CoalescerTestFailure: Error, Equatable {
    var reason: String
}

/// The coalescer's rules as tables (events in, actions out, time passed in), then its owner and
/// the creative loader on a hand-moved clock: each waiter keeps its own deadline. No sleeps.
@Suite("Live: request coalescer", .timeLimit(.minutes(1)))
struct RequestCoalescerTests {
    typealias Machine = RequestCoalescerStateMachine<String, Int, CoalescerTestFailure>
    static let t0 = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int64(seconds * 1000)) }

    static func seconds(_ instant: ContinuousClock.Instant) -> Double {
        let parts = (instant - t0).components
        return Double(parts.seconds) + Double(parts.attoseconds / 1_000_000_000_000_000) / 1000
    }

    enum Event {
        /// A request for a key with a deadline (nil: none) at a time.
        case request(String, deadline: Double?, at: Double)
        case fetched(fetch: UInt64, String, Result<Int, CoalescerTestFailure>, at: Double)
        case timedOut(UInt64)
        case cancelled(UInt64)
    }

    static func describe(_ answer: Machine.Answer) -> String {
        switch answer {
        case .result(.success(let value)): "value \(value)"
        case .result(.failure(let failure)): "failure \(failure.reason)"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        }
    }

    /// `wait 0 until 1.0 fetch 1`, `answer value 7`, `resume 0 timed out`, `cancel fetch 1`.
    static func run(_ machine: inout Machine, _ event: Event) -> [String] {
        func actions(_ actions: [Machine.Action]) -> [String] {
            actions.map { action in
                switch action {
                case .resume(let id, let answer): "resume \(id.value) \(describe(answer))"
                case .cancelFetch(let fetch): "cancel fetch \(fetch.value)"
                }
            }
        }
        switch event {
        case .request(let key, let deadline, let time):
            switch machine.request(key, deadline: deadline.map(at), now: at(time)) {
            case .answer(let answer): return ["answer \(describe(answer))"]
            case .wait(let id, let until, let fetch):
                return [
                    "wait \(id.value)" + (until.map { " until \(seconds($0))" } ?? "")
                        + (fetch.map { " fetch \($0.value)" } ?? "")
                ]
            }
        case .fetched(let fetch, let key, let result, let time):
            return actions(machine.fetchCompleted(.init(value: fetch), key: key, result: result, now: at(time)))
        case .timedOut(let id):
            return actions(machine.waiterTimedOut(.init(value: id)))
        case .cancelled(let id):
            return actions(machine.waiterCancelled(.init(value: id)))
        }
    }

    static func check(
        _ machine: inout Machine, _ table: [(Event, [String])], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (index, row) in table.enumerated() {
            #expect(run(&machine, row.0) == row.1, "row \(index): \(row.0)", sourceLocation: sourceLocation)
        }
    }

    @Test("Each waiter keeps its own deadline: the first one's time-out does not end the fetch for a later one")
    func perWaiterDeadlines() {
        var machine = Machine(lifetime: .seconds(300), capacity: 10)
        Self.check(
            &machine,
            [
                (.request("ad", deadline: 1, at: 0), ["wait 0 until 1.0 fetch 1"]),
                (.request("ad", deadline: 5, at: 0.5), ["wait 2 until 5.0"]),
                (.request("ad", deadline: 3, at: 0.6), ["wait 3 until 3.0"]),
            ])
        #expect(machine.flights["ad"]?.latestDeadline == Self.at(5), "the fetch runs to the latest waiter's deadline")
        Self.check(
            &machine,
            [
                (.timedOut(0), ["resume 0 timed out"]),  // the fetch goes on for 2 and 3
                (.timedOut(0), []),
                (.timedOut(3), ["resume 3 timed out"]),
                (.fetched(fetch: 1, "ad", .success(7), at: 4), ["resume 2 value 7"]),
                (.request("ad", deadline: 9, at: 10), ["answer value 7"]),  // kept for the lifetime
                (.request("ad", deadline: 310, at: 304.5), ["wait 4 until 310.0 fetch 5"]),  // expired: fetched again
            ])
    }

    @Test("A request past its deadline is answered at once; a failure answers every waiter and is not kept")
    func pastDeadlineAndFailure() {
        var machine = Machine(lifetime: .seconds(300), capacity: 10)
        Self.check(
            &machine,
            [
                (.request("ad", deadline: 1, at: 1), ["answer timed out"]),
                (.request("ad", deadline: 3, at: 1), ["wait 0 until 3.0 fetch 1"]),
                (.request("ad", deadline: nil, at: 1.5), ["wait 2"]),
                (
                    .fetched(fetch: 1, "ad", .failure(.init(reason: "404")), at: 2),
                    ["resume 0 failure 404", "resume 2 failure 404"]
                ),
                (.request("ad", deadline: 9, at: 2.5), ["wait 3 until 9.0 fetch 4"]),
            ])
    }

    @Test(
        "When the last waiter leaves the fetch is cancelled; if it still finishes its value is kept but answers nobody")
    func lastWaiterCancelsTheFetch() {
        var machine = Machine(lifetime: .seconds(300), capacity: 10)
        Self.check(
            &machine,
            [
                (.request("ad", deadline: 1, at: 0), ["wait 0 until 1.0 fetch 1"]),
                (.request("ad", deadline: 2, at: 0), ["wait 2 until 2.0"]),
                (.cancelled(2), ["resume 2 cancelled"]),
                (.timedOut(0), ["resume 0 timed out", "cancel fetch 1"]),
                // a new fetch, not the cancelled one
                (.request("ad", deadline: 4, at: 1.5), ["wait 3 until 4.0 fetch 4"]),
                (.fetched(fetch: 1, "ad", .success(7), at: 1.6), []),  // the old one answers nobody...
                (.request("ad", deadline: 4, at: 1.7), ["answer value 7"]),  // ...but its value is kept
                (.fetched(fetch: 4, "ad", .success(8), at: 1.8), ["resume 3 value 8"]),
            ])
    }

    @Test("Keys are independent; values expire after the lifetime; at most `capacity` are kept")
    func lifetimeAndCapacity() {
        var machine = Machine(lifetime: .seconds(10), capacity: 2)
        for (index, key) in ["a", "b", "c"].enumerated() {
            let time = Double(index)
            guard case .wait(_, _, let fetch?) = machine.request(key, deadline: nil, now: Self.at(time)) else {
                Issue.record("no fetch for \(key)")
                return
            }
            _ = machine.fetchCompleted(fetch, key: key, result: .success(index), now: Self.at(time))
        }
        #expect(machine.cachedValue("a", now: Self.at(3)) == nil, "the oldest went when c came")
        #expect(machine.cachedValue("b", now: Self.at(3)) == 1)
        #expect(machine.cachedValue("c", now: Self.at(11.999)) == 2)
        #expect(machine.cachedValue("c", now: Self.at(12)) == nil)
    }

    // MARK: Owner

    @Test("Owner: a waiter whose deadline passes gets its time-out while the shared fetch goes on for a later one")
    func ownerPerWaiterDeadlines() async throws {
        let clock = TestClock()
        let coalescer = RequestCoalescer<String, Int, CoalescerTestFailure>(
            lifetime: .seconds(300), capacity: 10, clock: clock.seamClock)
        let gate = LiveTestGate()
        let fetches = OrderRecorder()
        let fetch: @Sendable (String) async -> Result<Int, CoalescerTestFailure> = { _ in
            fetches.append(1)
            await gate.wait()
            return .success(7)
        }
        let early = Task { await coalescer.value(for: "ad", deadline: clock.now + .seconds(1), fetch: fetch) }
        let late = Task { await coalescer.value(for: "ad", deadline: clock.now + .seconds(5), fetch: fetch) }
        #expect(await liveEventually { coalescer.waiterCount == 2 && clock.sleeping == 2 })
        clock.advance(.seconds(1))
        #expect(RequestCoalescerTests.describe(await early.value) == "timed out")
        #expect(coalescer.waiterCount == 1)
        gate.open()
        #expect(RequestCoalescerTests.describe(await late.value) == "value 7")
        #expect(fetches.values.count == 1)
        #expect(coalescer.cached("ad") == 7)
        #expect(await liveEventually { clock.sleeping == 0 }, "a waiter's timer outlived it")
    }

    @Test("Owner: a cancelled waiter leaves at once; the fetch goes on for the others")
    func ownerCancellation() async throws {
        let clock = TestClock()
        let coalescer = RequestCoalescer<String, Int, CoalescerTestFailure>(
            lifetime: .seconds(300), capacity: 10, clock: clock.seamClock)
        let gate = LiveTestGate()
        let fetch: @Sendable (String) async -> Result<Int, CoalescerTestFailure> = { _ in
            await gate.wait()
            return .success(7)
        }
        let leaving = Task { await coalescer.value(for: "ad", deadline: nil, fetch: fetch) }
        let staying = Task { await coalescer.value(for: "ad", deadline: nil, fetch: fetch) }
        #expect(await liveEventually { coalescer.waiterCount == 2 })
        leaving.cancel()
        #expect(RequestCoalescerTests.describe(await leaving.value) == "cancelled")
        gate.open()
        #expect(RequestCoalescerTests.describe(await staying.value) == "value 7")
    }

    @Test(
        "Creative loader: a start with a short budget times out; the shared fetch still serves a start with a longer one"
    )
    func creativeLoaderJoinerWithALaterDeadline() async throws {
        let upstream = ScriptedOrigin(
            .body("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n"))
        upstream.hold()
        let clock = TestClock()
        let loader = CreativeLoader(upstream: upstream, fetchTimeout: .seconds(10), clock: clock.seamClock)
        let url = "http://ads.example/creative.m3u8"
        // Today's bug: the first caller's deadline governed the fetch for everyone.
        let short = Task { await loader.load(url, deadline: clock.now + .seconds(1)) }
        #expect(await liveEventually { upstream.calls == 1 })
        let long = Task { await loader.load(url, deadline: clock.now + .seconds(5)) }
        #expect(await liveEventually { clock.sleeping == 2 })
        clock.advance(.seconds(1))
        guard case .failure(let error) = await short.value else {
            Issue.record("the short start got the creative while its fetch was held")
            return
        }
        #expect(error.description.contains("ad budget"), "\(error)")
        upstream.release()
        guard case .success(let creative) = await long.value else {
            Issue.record("the long start lost the creative to the short start's budget")
            return
        }
        #expect(creative.url == url)
        #expect(upstream.calls == 1)
    }

    @Test("Channel catalog: concurrent session starts share one build; a failed build is not kept")
    func catalogSharesOneBuild() async throws {
        let clock = TestClock()
        let catalog = LiveChannelCatalog(clock: clock.seamClock)
        let gate = LiveTestGate()
        let builds = OrderRecorder()
        let build: @Sendable () async throws(SeamError) -> LiveChannel = { () async throws(SeamError) -> LiveChannel in
            builds.append(1)
            await gate.wait()
            throw SeamError(.originUnavailable, "the origin is down")
        }
        let url = "http://origin.example/live/master.m3u8"
        let starts = (0..<3).map { _ in
            Task { () -> SeamError? in
                do throws(SeamError) { _ = try await catalog.channel(url, build: build); return nil } catch {
                    return error
                }
            }
        }
        #expect(await liveEventually { catalog.waiting == 3 && builds.values.count == 1 })
        gate.open()
        for start in starts { #expect(await start.value?.code == .originUnavailable) }
        #expect(builds.values.count == 1)
        #expect(catalog.cached(url) == nil)
        _ = try? await catalog.channel(url, build: build)
        #expect(builds.values.count == 2, "a failure is not kept: the next start builds again")
    }
    /// A build whose every waiter left (a player gave up on its session start) is cancelled; what
    /// it made may lack what it gave up on (the slate), so it is not kept for later viewers.
    @Test("Channel catalog: a build cancelled because every waiter left is not kept")
    func catalogDropsACancelledBuild() async throws {
        let catalog = LiveChannelCatalog(clock: TestClock().seamClock)
        let gate = LiveTestGate()
        let builds = OrderRecorder()
        let url = "http://origin.example/live/master.m3u8"
        let window = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n")
        let build: @Sendable () async throws(SeamError) -> LiveChannel = { () async throws(SeamError) -> LiveChannel in
            builds.append(1)
            await gate.wait()
            defer { builds.append(2) }
            return LiveChannel(url: url, content: ContentSet(media: window, url: url), slate: nil, schedule: nil)
        }
        let start = Task { () -> SeamError? in
            do throws(SeamError) { _ = try await catalog.channel(url, build: build); return nil } catch { return error }
        }
        #expect(await liveEventually { catalog.waiting == 1 && builds.values.count == 1 })
        start.cancel()
        #expect(await start.value != nil, "the cancelled start gets no channel")
        gate.open()
        #expect(await liveEventually { builds.values.contains(2) })
        // The finished build's completion lands right after it; it must not leave a channel behind.
        #expect(await !liveEventually(timeout: .milliseconds(300)) { catalog.cached(url) != nil })
        _ = try await catalog.channel(url, build: build)
        #expect(builds.values.filter { $0 == 1 }.count == 2, "the next start builds the channel again")
        #expect(catalog.cached(url) != nil)
    }
}
