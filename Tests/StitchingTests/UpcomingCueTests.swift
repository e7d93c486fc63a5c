import Foundation
import HLS
import Testing

@testable import Stitching

/// A cue date range written before its `START-DATE` (an origin that announces the splice as soon
/// as it receives it, with pre-roll): the break opens where its start falls, not where its tag
/// sits, and with a prefetch lead it is decided ahead. Tables of windows, no sockets, no sleeps.
@Suite struct UpcomingCueTests {
    typealias Machine = LiveSessionStateMachineTests.Machine
    typealias Table = LiveSessionStateMachineTests

    /// `splice-7` on segment 14, starting at segment 20 (36 s later), 30 s long.
    static let channel = LiveChannelFixture(
        dateRangesAhead: [.init(id: "splice-7", carriedAt: 14, start: 20, planned: 30)], cues: false)
    static let lead = Duration.seconds(30)

    static func reload(
        _ machine: inout Machine, last: Int, at seconds: Double, lead: Duration? = lead,
        channel: LiveChannelFixture = channel
    ) -> [String] {
        Table.describe(
            machine.reload(
                window: channel.window("v0", last: last), now: Table.at(seconds), budget: Table.budget,
                isSessionStart: false, prefetchLead: lead))
    }

    @Test func theBreakOpensAtItsStartNotAtItsTag() throws {
        var driver = LiveSessionDriver(channel: Self.channel)
        for last in 10...16 { driver.advance(last: last) }
        #expect(driver.timeline.breaks.isEmpty, "segment 14 carries the tag; the break starts at 20")
        #expect(driver.timeline.upcomingCues?.map(\.signalID) == ["splice-7"])
        for last in 17...24 { driver.advance(last: last) }
        let opened = try #require(driver.timeline.breaks.first)
        #expect(opened.signalID == "splice-7")
        #expect(opened.startSequence == 20)
        #expect(opened.elapsedAtJoin == 0)
        #expect(opened.duration == 30)
        #expect(driver.timeline.upcomingCues == nil)
        let uris = driver.render("v0", last: 24).segments.map(\.uri)
        #expect(uris.contains("https://origin.example/v0/seg_19.ts"), "content plays up to the splice point")
        #expect(!uris.contains("https://origin.example/v0/seg_20.ts"), "ads replace content from it")
    }

    @Test func aJoinerWhoseFirstWindowHoldsTheTagGetsTheWholeBreak() throws {
        var driver = LiveSessionDriver(channel: Self.channel)
        driver.advance(last: 19)  // segments 14...19: the tag, and the five before the start
        #expect(driver.timeline.upcomingCues?.first?.start == Self.channel.epoch + 120)
        driver.advance(last: 20)
        #expect(driver.timeline.breaks.first?.startSequence == 20)
        #expect(driver.timeline.breaks.first?.elapsedAtJoin == 0)
    }

    @Test func aStartInsideTheCarryingSegmentOpensThereAsBefore() throws {
        // START-DATE on segment 14's own start: not ahead, the break opens with its tag.
        var driver = LiveSessionDriver(
            channel: LiveChannelFixture(
                dateRangesAhead: [.init(id: "now", carriedAt: 14, start: 14, planned: 30)], cues: false))
        for last in 10...15 { driver.advance(last: last) }
        #expect(driver.timeline.upcomingCues == nil)
        #expect(driver.timeline.breaks.first?.startSequence == 14)
    }

    @Test func aCueAheadDoesNotEndTheBreakUnderWay() throws {
        // A cue-out break at 13 (30 s, back at 18) while the origin already writes the next
        // break's date range on segment 15, starting at 22.
        var channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)])
        channel.dateRangesAhead = [.init(id: "next", carriedAt: 15, start: 22, planned: 12)]
        var driver = LiveSessionDriver(channel: channel)
        for last in 10...25 { driver.advance(last: last) }
        let breaks = driver.timeline.breaks
        #expect(breaks.count == 2)
        #expect(breaks.first?.endedEarly == false, "the first break ran its 30 s")
        #expect(breaks.last?.signalID == "next")
        #expect(breaks.last?.startSequence == 22)
    }

    @Test func aGapPastTheWholeBreakForgetsIt() {
        var driver = LiveSessionDriver(channel: Self.channel)
        driver.advance(last: 15)
        #expect(driver.timeline.upcomingCues != nil)
        driver.advance(last: 40)  // the origin jumps to 35...40: the break (120–150 s) is behind
        #expect(driver.timeline.breaks.isEmpty)
        #expect(driver.timeline.upcomingCues == nil)
    }

    @Test func aSessionRecordKeepsItOnceItsTagLeftTheWindow() throws {
        var machine = Table.machine()
        _ = Self.reload(&machine, last: 15, at: 0, lead: nil)
        let changes = machine.timeline.changes
        #expect(changes > 0, "noting a cue ahead is a change a record must carry")
        let data = try JSONEncoder().encode(machine.timeline)
        let decoded = try JSONDecoder().decode(LiveTimeline.self, from: data)
        #expect(decoded.upcomingCues == machine.timeline.upcomingCues)
        // Taken up by another replica whose windows no longer list segment 14.
        var resumed = Machine(resuming: .init(timeline: decoded, decisions: [], served: []))
        #expect(Self.reload(&resumed, last: 21, at: 40, lead: nil) == ["submit 0 by 42.0", "answer"])
        #expect(resumed.timeline.breaks.first?.startSequence == 20)
    }

    @Test func aRecordWithoutTheFieldStillReads() throws {
        var timeline = LiveTimeline(configuration: .init(targetDuration: 6))
        _ = timeline.advance(with: LiveChannelFixture(cues: false).window("v0", last: 8))
        var object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(timeline)) as? [String: Any])
        object["upcomingCues"] = nil
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(LiveTimeline.self, from: old).upcomingCues == nil)
    }

    // MARK: Prefetch

    @Test func decidedAheadOnceTheEdgeIsWithinTheLead() throws {
        var machine = Table.machine()
        let table: [(last: Int, at: Double, expected: [String])] = [
            (13, 0, ["answer"]),  // no tag yet
            // Segment 14 brings the tag: the edge (90 s) is 30 s before the start (120 s).
            (14, 1, ["prefetch splice-7 30.0 s by 33.0", "answer"]),
            (16, 2, ["answer"]),  // asked once
        ]
        for row in table {
            #expect(Self.reload(&machine, last: row.last, at: row.at) == row.expected, "window ending at \(row.last)")
        }
        var decision = TestDecision.ads(
            for: LiveBreak(
                number: -1, signalID: "splice-7", startSequence: -1, duration: 30, elapsedAtJoin: 0,
                programDateTime: Self.channel.epoch + 120))
        decision.label = "ahead"
        #expect(Table.describe(machine.prefetchLanded(decision, signalID: "splice-7")).isEmpty)
        #expect(Self.reload(&machine, last: 21, at: 40) == ["answer"], "the break opens with the decision made ahead")
        let opened = try #require(machine.timeline.breaks.first)
        #expect(opened.startSequence == 20)
        #expect(machine.decisions[opened.number]?.label == "ahead")
    }

    @Test func aTagFurtherAheadThanTheLeadWaitsForIt() {
        // The tag on segment 8, 72 s ahead: the prefetch goes when the edge comes within 30 s.
        let channel = LiveChannelFixture(
            dateRangesAhead: [.init(id: "far", carriedAt: 8, start: 20, planned: 30)], cues: false)
        var machine = Table.machine()
        #expect(Self.reload(&machine, last: 9, at: 0, channel: channel) == ["answer"])
        #expect(Self.reload(&machine, last: 13, at: 24, channel: channel) == ["answer"])
        #expect(Self.reload(&machine, last: 14, at: 30, channel: channel) == ["prefetch far 30.0 s by 62.0", "answer"])
    }
}
