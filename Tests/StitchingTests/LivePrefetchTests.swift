import HLS
import Testing

@testable import Stitching

/// Prefetch as a table: an announced break is decided once the live edge is within the lead of
/// its start, and opens with that decision; one still on its way is waited for as the break's
/// own; a session that joins inside the break decides it then. Time passed in, no sockets.
@Suite struct LivePrefetchTests {
    typealias Machine = LiveSessionStateMachineTests.Machine
    typealias Table = LiveSessionStateMachineTests

    /// No cues: the only break is the announced one.
    static let channel = LiveChannelFixture(breaks: [], cues: false)
    /// 30 s from segment 20's start (the fixture's segment k starts at epoch + 6k).
    static let announced = AnnouncedBreak(id: "b", start: channel.epoch + 20 * 6, duration: 30)
    static let lead = Duration.seconds(30)

    static func reload(_ machine: inout Machine, last: Int, at seconds: Double, start: Bool = false) -> [String] {
        Table.describe(
            machine.reload(
                window: channel.window("v0", last: last), now: Table.at(seconds), budget: Table.budget,
                isSessionStart: start, announced: [announced], prefetchLead: lead))
    }

    static func decision(_ label: String = "ads") -> TestDecision {
        var decision = TestDecision.ads(
            for: LiveBreak(
                number: -1, signalID: announced.signalID, startSequence: -1, duration: 30, elapsedAtJoin: 0,
                programDateTime: announced.start))
        decision.label = label
        return decision
    }

    @Test func decidedAheadOpensWithItsAds() throws {
        var machine = Table.machine()
        let table: [(last: Int, at: Double, expected: [String])] = [
            (12, 0, ["answer"]),  // the edge (78 s) is 42 s before the break: not yet
            // Edge 90 s, the break at 120 s: within the 30 s lead. It may run until the break's
            // start (30 s on) plus the budget.
            (14, 1, ["prefetch announced-b 30.0 s by 33.0", "answer"]),
            (15, 2, ["answer"]),  // asked once
        ]
        for row in table {
            #expect(Self.reload(&machine, last: row.last, at: row.at) == row.expected, "window ending at \(row.last)")
        }
        #expect(Table.describe(machine.prefetchLanded(Self.decision(), signalID: Self.announced.signalID)).isEmpty)
        // The break opens at segment 20 with the decision made ahead: nothing is asked.
        #expect(Self.reload(&machine, last: 21, at: 40) == ["answer"])
        let opened = try #require(machine.timeline.breaks.first)
        #expect(opened.signalID == "announced-b")
        #expect(opened.startSequence == 20)
        #expect(opened.phase == .replacing)
        #expect(machine.decisions[opened.number]?.label == "ads")
        #expect(machine.decisions[opened.number]?.breakNumber == opened.number)
        #expect(machine.pendingBreaks.isEmpty)
    }

    /// What a session record must hold before an answer: a decision made ahead is a change a
    /// record keeps but no answer shows; the break opening with it is shown once a record holds
    /// that decision; its end shows nothing a replica resuming the record would not derive.
    @Test func aBreakDecidedAheadIsShownOnceItsDecisionIsStored() throws {
        var machine = Table.machine()
        _ = Self.reload(&machine, last: 14, at: 1)
        #expect(machine.changes == 0)
        _ = machine.prefetchLanded(Self.decision(), signalID: Self.announced.signalID)
        #expect(machine.changes == 1, "a decision made ahead is kept by the record")
        #expect(machine.changesShown == 0, "and no answer shows it")
        let written = machine.snapshot
        #expect(written.prefetched?.map(\.signalID) == [Self.announced.signalID])
        #expect(written.changes == 1)

        for (last, at) in [(16, 10.0), (18, 20), (20, 30)] {
            #expect(Self.reload(&machine, last: last, at: at) == ["answer"])
        }
        #expect(Self.reload(&machine, last: 21, at: 40) == ["answer"])
        #expect(machine.timeline.changes == 1, "the timeline counts the opening")
        #expect(machine.changes == 1, "a record holding the decision made ahead opens the break the same way")
        #expect(machine.changesShown == 1, "answered once a record holds the decision made ahead")
        let opened = machine
        // The break (segments 20–24) ends at segment 25.
        #expect(Self.reload(&machine, last: 26, at: 70) == ["answer"])
        #expect(machine.timeline.breakNumbered(0)?.phase == .ended)
        #expect(machine.changes == 2)
        #expect(machine.changesShown == 1, "a break's end is derived from the origin's window")
        #expect(machine.snapshot.changes == 2, "a record written now says so")

        // Another replica takes the session up from the record written when the decision landed:
        // the break opens there with the same decision, nothing is asked, and nothing it serves
        // waits for a write.
        var resumed = Machine(resuming: written)
        #expect(resumed.changes == 1)
        #expect(resumed.changesShown == 1)
        #expect(Self.reload(&resumed, last: 21, at: 40) == ["answer"])
        #expect(resumed.decisions[0]?.label == "ads")
        #expect(resumed.timeline.breakNumbered(0)?.startSequence == 20)
        #expect(resumed.timeline.entries == opened.timeline.entries, "the same entries")
        #expect(resumed.changes == opened.changes, "and nothing for the resuming replica to write")
        #expect(resumed.timeline.firstSequenceNumber == opened.timeline.firstSequenceNumber, "numbered the same")
        #expect(resumed.changesShown == 1)
    }

    @Test func aBreakWaitingForItsDecisionIsShownOnlyOnceStored() {
        var machine = Table.machine()
        _ = Self.reload(&machine, last: 14, at: 1)
        // The break opens while the decision made ahead is still on its way: when it lands, the
        // break shows a decision no record holds yet.
        _ = Self.reload(&machine, last: 20, at: 30)
        _ = machine.prefetchLanded(Self.decision(), signalID: Self.announced.signalID)
        #expect(machine.changesShown == machine.changes)
        #expect(machine.changes == 1)
    }

    /// Announced "in 27 seconds" (the break API's usual form) lands inside a segment: the break
    /// opens whole at the next boundary, with the decision made ahead for its whole duration.
    @Test func anAnnouncementInsideASegmentOpensWholeWithItsDecisionMadeAhead() throws {
        let inside = AnnouncedBreak(id: "m", start: Self.channel.epoch + 20 * 6 - 3, duration: 30)
        var machine = Table.machine()
        func reload(_ last: Int, _ at: Double) -> [String] {
            Table.describe(
                machine.reload(
                    window: Self.channel.window("v0", last: last), now: Table.at(at), budget: Table.budget,
                    isSessionStart: false, announced: [inside], prefetchLead: Self.lead))
        }
        #expect(reload(14, 1) == ["prefetch announced-m 30.0 s by 30.0", "answer"])
        var decision = Self.decision("made ahead")
        decision.breakNumber = -1
        _ = machine.prefetchLanded(decision, signalID: inside.signalID)
        for (last, at) in [(16, 10.0), (18, 20), (19, 26)] { #expect(reload(last, at) == ["answer"]) }
        #expect(reload(21, 40) == ["answer"], "no decision asked at the opening")
        let opened = try #require(machine.timeline.breaks.first)
        #expect(opened.startSequence == 20, "the first boundary after its time")
        #expect(opened.elapsedAtJoin == 0)
        #expect(abs(opened.duration - 30) < 0.001, "whole")
        #expect(machine.decisions[opened.number]?.label == "made ahead")
    }

    @Test func aPrefetchStillOnItsWayIsWaitedForAsTheBreaksOwn() throws {
        var machine = Table.machine()
        #expect(Self.reload(&machine, last: 14, at: 1) == ["prefetch announced-b 30.0 s by 33.0", "answer"])
        // The break opens before the prefetch lands: no second request, the break pends on it.
        #expect(Self.reload(&machine, last: 20, at: 30) == ["answer"])
        #expect(machine.pendingBreaks == [0])
        #expect(Table.content(machine).last == 19)
        // A session start waiting now waits for the prefetch.
        let waiting = Self.reload(&machine, last: 20, at: 30.5, start: true)
        #expect(waiting == ["wait 0 until 33.0"])
        #expect(
            Table.describe(machine.prefetchLanded(Self.decision(), signalID: Self.announced.signalID)) == ["resume [0]"]
        )
        #expect(machine.decisions[0]?.label == "ads")
        #expect(Self.reload(&machine, last: 21, at: 31) == ["answer"])
        #expect(machine.timeline.breakNumbered(0)?.phase == .replacing)
    }

    @Test func aPrefetchThatWillNotComeLeavesTheBreakToContent() {
        var machine = Table.machine()
        _ = Self.reload(&machine, last: 14, at: 1)
        _ = Self.reload(&machine, last: 20, at: 30)
        #expect(
            Table.describe(machine.prefetchExpired(signalID: Self.announced.signalID, detail: "queue full")).isEmpty)
        #expect(machine.decisions[0]?.label == "ADS_TIMEOUT: queue full")
        #expect(Self.reload(&machine, last: 22, at: 31) == ["answer"])
        #expect(Table.content(machine).contains(20), "the break plays content")
        // And a landing after that is dropped.
        #expect(Table.describe(machine.prefetchLanded(Self.decision(), signalID: Self.announced.signalID)).isEmpty)
        #expect(machine.decisions[0]?.label == "ADS_TIMEOUT: queue full")
    }

    @Test func aSessionJoiningInsideTheBreakDecidesItThen() {
        var machine = Table.machine()
        // The first window starts at segment 22: the break began at 20, 12 s before; no prefetch,
        // its own decision for the 18 s left.
        #expect(Self.reload(&machine, last: 27, at: 0) == ["submit 0 by 2.0", "answer"])
        #expect(machine.timeline.breakNumbered(0).map { abs($0.duration - 18) < 0.001 } == true)
    }

    @Test func aPrefetchedDecisionIsNotUsedForABreakJoinedLate() {
        var machine = Table.machine()
        _ = Self.reload(&machine, last: 14, at: 1)
        _ = machine.prefetchLanded(Self.decision(), signalID: Self.announced.signalID)
        // The origin jumps past the break's start (a gap to segment 23): the break opens late,
        // 18 s in; the decision for 30 s is not used, a new one is asked for what is left.
        #expect(Self.reload(&machine, last: 28, at: 40) == ["submit 0 by 42.0", "answer"])
    }

    @Test func withoutALeadNothingIsPrefetched() {
        var machine = Table.machine()
        let actions = Table.describe(
            machine.reload(
                window: Self.channel.window("v0", last: 14), now: Table.at(1), budget: Table.budget,
                isSessionStart: false, announced: [Self.announced]))
        #expect(actions == ["answer"])
    }

    @Test func theSchedulesNextBreakIsPrefetchedToo() throws {
        // A 30 s break every 120 s of program date-time: one starts at segment 20 (epoch + 120 s).
        var machine = Machine(
            timeline: LiveTimeline(
                configuration: .init(
                    defaultBreakSeconds: 30, schedule: BreakSchedule(every: 120, offset: 0, duration: 30),
                    targetDuration: 6)))
        func reload(_ last: Int, _ at: Double) -> [String] {
            Table.describe(
                machine.reload(
                    window: Self.channel.window("v0", last: last), now: Table.at(at), budget: Table.budget,
                    isSessionStart: false, prefetchLead: Self.lead))
        }
        #expect(reload(12, 0) == ["answer"])
        #expect(reload(14, 1) == ["prefetch schedule-15000001 30.0 s by 33.0", "answer"])
        #expect(reload(15, 2) == ["answer"])
        var decision = Self.decision()
        decision.label = "scheduled ads"
        _ = machine.prefetchLanded(decision, signalID: "schedule-15000001")
        // The window ends where the break begins (segment 19 ends at epoch + 120 s): the break
        // is next, not past, and its decision made ahead stays.
        #expect(reload(19, 30) == ["answer"])
        #expect(reload(21, 40) == ["answer"])
        let opened = try #require(machine.timeline.breaks.first)
        #expect(opened.signalID == "schedule-15000001")
        #expect(machine.decisions[opened.number]?.label == "scheduled ads")
    }

    @Test func aCancelledAnnouncementLeavesNothingBehind() {
        var machine = Table.machine()
        _ = Self.reload(&machine, last: 14, at: 1)
        _ = machine.prefetchLanded(Self.decision(), signalID: Self.announced.signalID)
        // Cancelled: the next reloads no longer name it; its decision is let go, and no break opens.
        let actions = Table.describe(
            machine.reload(
                window: Self.channel.window("v0", last: 22), now: Table.at(40), budget: Table.budget,
                isSessionStart: false, announced: [], prefetchLead: Self.lead))
        #expect(actions == ["answer"])
        #expect(machine.timeline.breaks.isEmpty)
        // Named again once its start is behind the timeline: nothing opens, nothing is asked.
        #expect(Self.reload(&machine, last: 22, at: 41) == ["answer"])
        #expect(machine.timeline.breaks.isEmpty)
    }
}
