import HLS
import Testing
@testable import Stitching

/// An ad decision as the tests make it: the ads of `LiveSessionDriver` over the break, or an
/// `ADS_TIMEOUT` with its detail.
struct TestDecision: LiveSessionDecision, Equatable {
    var breakNumber: Int
    var layout: LiveBreakLayout
    var label: String

    static func ads(for item: LiveBreak) -> TestDecision {
        TestDecision(
            breakNumber: item.number,
            layout: LiveBreakLayout.make(
                breakDuration: item.duration, ads: [[5, 5], [5, 5, 5]],
                slate: Array(repeating: 1, count: 10)),
            label: "ads")
    }

    func renumbered(_ breakNumber: Int) -> TestDecision {
        var copy = self
        copy.breakNumber = breakNumber
        return copy
    }

    static func adsTimeout(breakNumber: Int, detail: String) -> TestDecision {
        TestDecision(
            breakNumber: breakNumber, layout: LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil),
            label: "ADS_TIMEOUT: \(detail)")
    }
}

/// A live session's rules as a table: events in, actions out, time passed in. No sockets, no sleeps.
@Suite struct LiveSessionStateMachineTests {
    typealias Machine = LiveSessionStateMachine<TestDecision>

    static let t0 = ContinuousClock.now
    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int64(seconds * 1000)) }
    static let budget = Duration.seconds(2)
    /// A 30 s break cued at segment 13, back to content at 18.
    static let channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)])

    static func machine() -> Machine {
        Machine(timeline: LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6)))
    }

    static func reload(_ machine: inout Machine, last: Int, at seconds: Double, start: Bool = false) -> [String] {
        describe(
            machine.reload(
                window: channel.window("v0", last: last), now: at(seconds), budget: budget, isSessionStart: start))
    }

    /// Actions as a table reads them: `submit 0 by 2.0`, `wait 0 until 2.0`, `resume [0]`, `answer`.
    static func describe(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .submitDecision(let item, let deadline): "submit \(item.number) by \(seconds(deadline))"
            case .submitPrefetch(let item, let deadline):
                "prefetch \(item.signalID ?? "?") \(item.duration) s by \(seconds(deadline))"
            case .wait(let id, let until): "wait \(id.value) until \(seconds(until))"
            case .resumeWaiters(let ids): "resume \(ids.map(\.value))"
            case .answer: "answer"
            }
        }
    }

    static func seconds(_ instant: ContinuousClock.Instant) -> Double {
        let parts = (instant - t0).components
        return Double(parts.seconds) + Double(parts.attoseconds / 1_000_000_000_000_000) / 1000
    }

    /// Origin sequence numbers of the content on the timeline.
    static func content(_ machine: Machine) -> [Int] {
        machine.timeline.entries.compactMap { if case .content(let sequence) = $0.source { sequence } else { nil } }
    }

    static func render(
        _ machine: inout Machine, _ rendition: String = "v0", last: Int
    ) -> Result<MediaPlaylist, Machine.RenderRefusal> {
        machine.render(
            rendition: rendition, window: channel.window(rendition, last: last), targetDuration: 6,
            media: { _ in
                LiveBreakMedia(
                    ads: [
                        LiveChannelFixture.ad("ad0", rendition, [5, 5]),
                        LiveChannelFixture.ad("ad1", rendition, [5, 5, 5]),
                    ],
                    slate: LiveChannelFixture.slate(rendition))
            })
    }

    @Test func aBreakIsDecidedOncePerSessionAndTheTimelineStopsBeforeItUntilThen() throws {
        var machine = Self.machine()
        // (window end, time, expected actions)
        let table: [(last: Int, at: Double, expected: [String])] = [
            (12, 0, ["answer"]),
            (13, 0.5, ["submit 0 by 2.5", "answer"]),  // the cue: decision queued, reload answered at once
            (13, 1, ["answer"]),  // same window: no second decision
            (14, 1.5, ["answer"]),  // newer window: still no second decision
            (15, 2, ["answer"]),
        ]
        for row in table {
            #expect(Self.reload(&machine, last: row.last, at: row.at) == row.expected, "window ending at \(row.last)")
            #expect(Self.content(machine).last == 12, "the timeline must stop before the pending break")
        }
        #expect(machine.pendingBreaks == [0])
        let item = try #require(machine.timeline.breakNumbered(0))
        #expect(item.phase == .pending)

        #expect(Self.describe(machine.decisionLanded(.ads(for: item), now: Self.at(2.4))).isEmpty)
        #expect(Self.reload(&machine, last: 15, at: 2.6) == ["answer"])
        #expect(machine.pendingBreaks.isEmpty)
        #expect(machine.decisions[0]?.label == "ads")
        let playlist = try Self.render(&machine, last: 15).get()
        #expect(playlist.segments.contains { $0.uri.contains("ads.example/ad0") })
        #expect(!playlist.segments.contains { $0.uri.hasSuffix("seg_13.ts") })
        // A later break-free reload asks for nothing more.
        #expect(Self.reload(&machine, last: 20, at: 10) == ["answer"])
        #expect(Self.content(machine).last == 20)
    }

    /// A decision made when its break opened is shown by the next answer, so a record must hold
    /// it first; the break's end is derived from the origin's window by whoever resumes the record.
    @Test func aDecisionMadeAtTheBreakMustBeStoredBeforeItIsShown() throws {
        var machine = Self.machine()
        _ = Self.reload(&machine, last: 13, at: 0)
        #expect((machine.changes, machine.changesShown) == (0, 0), "a pending break changes nothing stored")
        let item = try #require(machine.timeline.breakNumbered(0))
        _ = machine.decisionLanded(.ads(for: item), now: Self.at(1))
        #expect((machine.changes, machine.changesShown) == (1, 1))
        _ = Self.reload(&machine, last: 20, at: 30)
        #expect(machine.timeline.breakNumbered(0)?.phase == .ended)
        #expect((machine.changes, machine.changesShown) == (2, 1))
        // An ADS_TIMEOUT is a decision too: shown as soon as it is recorded.
        var timedOut = Self.machine()
        _ = Self.reload(&timedOut, last: 13, at: 0)
        _ = Self.reload(&timedOut, last: 14, at: 5)
        #expect(timedOut.decisions[0]?.label.hasPrefix("ADS_TIMEOUT") == true)
        #expect(timedOut.changesShown == timedOut.changes)
        #expect(timedOut.changes == 1)
    }

    @Test func aDecisionPastItsBudgetBecomesAdsTimeoutAndTheLateDecisionIsDropped() throws {
        var machine = Self.machine()
        #expect(Self.reload(&machine, last: 13, at: 0) == ["submit 0 by 2.0", "answer"])
        let item = try #require(machine.timeline.breakNumbered(0))
        #expect(Self.reload(&machine, last: 14, at: 1.999) == ["answer"])
        #expect(Self.content(machine).last == 12)
        // The first reload at the deadline plays the break as content.
        #expect(Self.reload(&machine, last: 14, at: 2) == ["answer"])
        #expect(machine.decisions[0]?.label == "ADS_TIMEOUT: \(Machine.timeoutDetail)")
        #expect(Self.content(machine).suffix(2) == [13, 14])
        #expect(machine.pendingBreaks.isEmpty)
        // The decision arrives afterwards: dropped.
        #expect(machine.decisionLanded(.ads(for: item), now: Self.at(2.5)).isEmpty)
        #expect(machine.decisions[0]?.label.hasPrefix("ADS_TIMEOUT") == true)
        let playlist = try Self.render(&machine, last: 14).get()
        #expect(!playlist.segments.contains { $0.uri.contains("ads.example") })
    }

    /// The decider works to the same deadline, so a pod whose slow creative was cut at the
    /// deadline lands a moment after it: while no reload or timer has given the break to
    /// content, its ads still play.
    @Test func aDecisionLandingJustPastItsDeadlineBeforeAnyReloadNoticedStillPlays() throws {
        var machine = Self.machine()
        _ = Self.reload(&machine, last: 13, at: 0)
        let item = try #require(machine.timeline.breakNumbered(0))
        #expect(machine.decisionLanded(.ads(for: item), now: Self.at(2.001)).isEmpty)
        #expect(machine.decisions[0]?.label.hasPrefix("ADS_TIMEOUT") == false)
        #expect(Self.reload(&machine, last: 14, at: 2.2) == ["answer"])
        let playlist = try Self.render(&machine, last: 14).get()
        #expect(playlist.segments.contains { $0.uri.contains("ads.example") })
    }

    @Test func aDecisionThatNeverRanIsAdsTimeoutWithItsReason() {
        var machine = Self.machine()
        _ = Self.reload(&machine, last: 13, at: 0)
        #expect(machine.decisionExpired(breakNumber: 0, detail: "no free slot").isEmpty)
        #expect(machine.decisions[0]?.label == "ADS_TIMEOUT: no free slot")
        #expect(machine.decisionExpired(breakNumber: 0, detail: "again").isEmpty)
        #expect(machine.decisions[0]?.label == "ADS_TIMEOUT: no free slot")
    }

    @Test func aSessionStartWaitsForTheDecisionAndIsResumedWhenItLands() throws {
        var machine = Self.machine()
        // The session's first window already holds the cue.
        #expect(Self.reload(&machine, last: 14, at: 0, start: true) == ["submit 0 by 2.0", "wait 0 until 2.0"])
        #expect(machine.isWaiting(.init(0)))
        let item = try #require(machine.timeline.breakNumbered(0))
        #expect(Self.describe(machine.decisionLanded(.ads(for: item), now: Self.at(0.8))) == ["resume [0]"])
        #expect(!machine.isWaiting(.init(0)))
        // Resumed, the start reloads and answers with the break in its first playlist.
        #expect(Self.reload(&machine, last: 14, at: 0.8, start: true) == ["answer"])
        let playlist = try Self.render(&machine, last: 14).get()
        #expect(playlist.segments.contains { $0.uri.contains("ads.example/ad0") })
    }

    @Test func aSessionStartWaitsUpToTheBudgetAndNoLonger() {
        var machine = Self.machine()
        let table: [(event: String, expected: [String])] = [
            ("start at 0", ["submit 0 by 2.0", "wait 0 until 2.0"]),
            // A timer that fires early lets the start reload; it waits again for the same deadline.
            ("timer 0 at 1.0", ["resume [0]"]),
            ("start at 1.0", ["wait 1 until 2.0"]),
            ("timer 1 at 2.0", ["resume [1]"]),
            // Past the budget: the break is content, and the start answers.
            ("start at 2.0", ["answer"]),
            ("timer 1 at 2.5", []),
        ]
        for row in table {
            let words = row.event.split(separator: " ")
            let time = Double(words.last ?? "") ?? 0
            let actions: [String]
            if words[0] == "start" {
                actions = Self.reload(&machine, last: 14, at: time, start: true)
            } else {
                actions = Self.describe(machine.waiterTimedOut(.init(UInt64(words[1]) ?? 0), now: Self.at(time)))
            }
            #expect(actions == row.expected, "\(row.event)")
        }
        #expect(machine.decisions[0]?.label == "ADS_TIMEOUT: \(Machine.timeoutDetail)")
        #expect(Self.content(machine).suffix(2) == [13, 14])
    }

    @Test func reloadsNeverWaitOnlyStartsDo() {
        var machine = Self.machine()
        #expect(Self.reload(&machine, last: 13, at: 0, start: false) == ["submit 0 by 2.0", "answer"])
        for time in [0.1, 0.5, 1.9] {
            #expect(Self.reload(&machine, last: 14, at: time, start: false) == ["answer"])
        }
        // Were it a session start, it would wait for the decision already running (no second submit).
        #expect(Self.reload(&machine, last: 14, at: 1, start: true) == ["wait 0 until 2.0"])
    }

    @Test func aCancelledWaiterLeavesAndTheDecisionGoesOnForTheSession() throws {
        var machine = Self.machine()
        #expect(Self.reload(&machine, last: 14, at: 0, start: true) == ["submit 0 by 2.0", "wait 0 until 2.0"])
        #expect(Self.describe(machine.waiterCancelled(.init(0))) == ["resume [0]"])
        #expect(Self.describe(machine.waiterCancelled(.init(0))).isEmpty)
        #expect(Self.describe(machine.waiterTimedOut(.init(0), now: Self.at(2))).isEmpty)
        #expect(machine.pendingBreaks == [0])
        let item = try #require(machine.timeline.breakNumbered(0))
        #expect(machine.decisionLanded(.ads(for: item), now: Self.at(1)).isEmpty)
        #expect(machine.decisions[0]?.label == "ads")
    }

    @Test func decisionsOfBreaksThatLeftTheTimelineAreDropped() throws {
        let channel = LiveChannelFixture(breaks: [
            .init(start: 13, planned: 12, returnAt: 15), .init(start: 30, planned: 12, returnAt: 32),
        ])
        var machine = Self.machine()
        var time = 0.0
        for last in 10...60 {
            time += 6
            let actions = machine.reload(
                window: channel.window("v0", last: last), now: Self.at(time), budget: Self.budget, isSessionStart: false
            )
            for case .submitDecision(let item, _) in actions {
                _ = machine.decisionLanded(.ads(for: item), now: Self.at(time))
                _ = machine.reload(
                    window: channel.window("v0", last: last), now: Self.at(time), budget: Self.budget,
                    isSessionStart: false)
            }
            let onTimeline = Set(machine.timeline.breaks.map(\.number))
            #expect(Set(machine.decisions.values.map(\.breakNumber)).isSubset(of: onTimeline), "at window end \(last)")
        }
        #expect(machine.decisions[0] == nil, "break 0 left the timeline long ago")
        #expect(machine.decisions.count <= 1)
    }

    @Test func aRenditionIsNeverAnsweredWithLessThanItListed() throws {
        var machine = Self.machine()
        for last in 5...20 { _ = Self.reload(&machine, last: last, at: Double(last)) }
        _ = machine.decisionLanded(.ads(for: try #require(machine.timeline.breakNumbered(0))), now: Self.at(13.5))
        _ = Self.reload(&machine, last: 20, at: 20)
        let table: [(rendition: String, last: Int, served: Bool)] = [
            ("v0", 18, true),
            ("v0", 20, true),
            ("v0", 19, false),  // ends before the last answer
            ("v0", 20, true),
            ("v1", 17, true),  // each rendition keeps its own record
            ("v1", 16, false),
        ]
        for row in table {
            let outcome = Self.render(&machine, row.rendition, last: row.last)
            switch outcome {
            case .success: #expect(row.served, "\(row.rendition) ending at \(row.last) was served")
            case .failure(let refusal):
                #expect(!row.served, "\(row.rendition) ending at \(row.last) was refused")
                #expect(refusal == .behindServed)
            }
        }
        // An origin window behind everything the session listed would be an empty playlist: refused.
        var fresh = Self.machine()
        for last in 5...12 { _ = Self.reload(&fresh, last: last, at: 0) }
        #expect(throws: Machine.RenderRefusal.behindServed) { try Self.render(&fresh, "v1", last: 4).get() }
    }
}
