import Foundation
import HLS
import Testing
@testable import Stitching

/// The live session record is the machine's snapshot, and taking a session up on another replica
/// is the machine's own initializer (`LiveSessionMachine(resuming:)`). A table: one machine keeps
/// going; at each row's moment its snapshot is written as JSON (as the store keeps it), read
/// back and resumed; both then get the same windows and must list the same playlists, with the
/// same decisions. No sockets, no sleeps.
@Suite struct LiveSessionSnapshotTests {
    typealias Machine = LiveSessionMachine

    static let t0 = ContinuousClock.now
    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int64(seconds * 1000)) }
    static let budget = Duration.seconds(2)
    /// A 30 s break cued at segment 13, back to content at 18.
    static let channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)])

    /// Two ads of 10 s and 15 s over the 30 s break, completed with 5 s of slate.
    static func decision(_ item: LiveBreak) -> LiveBreakDecision {
        let ads = [
            LiveAd(TitleFixture.ad("ad0", duration: 10), creativeURL: "https://ads.test/ad0.m3u8"),
            LiveAd(TitleFixture.ad("ad1", duration: 15), creativeURL: "https://ads.test/ad1.m3u8"),
        ]
        return LiveBreakDecision(
            breakNumber: item.number,
            ads: ads,
            layout: LiveBreakLayout.make(
                breakDuration: item.duration, ads: [[5, 5], [5, 5, 5]],
                slate: Array(repeating: 1, count: 10)),
            skippedAds: [BreakPlan.SkippedAd(adID: "ad2", reason: "does not fit")],
            breakStartURLs: ["https://ads.test/break-start"])
    }

    /// The media each ad's creative URL names (what the channel keeps by URL).
    static func media(_ rendition: String) -> (LiveBreakDecision) -> LiveBreakMedia? {
        { decision in
            LiveBreakMedia(
                ads: decision.ads.map { ad in
                    ad.map {
                        LiveChannelFixture.ad(
                            $0.creativeURL.contains("ad0") ? "ad0" : "ad1", rendition,
                            $0.creativeURL.contains("ad0") ? [5, 5] : [5, 5, 5])
                    }
                }, slate: LiveChannelFixture.slate(rendition))
        }
    }

    /// Reloads to window end `last` at `seconds`; lands the decision of a break it submits.
    static func reload(_ machine: inout Machine, last: Int, at seconds: Double) {
        let actions = machine.reload(
            window: channel.window("v0", last: last), now: at(seconds), budget: budget, isSessionStart: false)
        for case .submitDecision(let item, _) in actions {
            _ = machine.decisionLanded(decision(item), now: at(seconds))
        }
        if actions.contains(where: { if case .submitDecision = $0 { true } else { false } }) {
            _ = machine.reload(
                window: channel.window("v0", last: last), now: at(seconds), budget: budget, isSessionStart: false)
        }
    }

    static func render(_ machine: inout Machine, _ rendition: String, last: Int) -> MediaPlaylist? {
        try? machine.render(
            rendition: rendition, window: channel.window(rendition, last: last), targetDuration: 6,
            media: media(rendition)
        ).get()
    }

    /// The snapshot as the store keeps it: JSON bytes, read back.
    static func written(_ snapshot: Machine.Snapshot) throws -> Machine.Snapshot {
        try JSONDecoder().decode(Machine.Snapshot.self, from: JSONEncoder().encode(snapshot))
    }

    @Test(
        "Written at a moment of the session, taken up by the machine's initializer: the same decisions and the same playlists from then on",
        arguments: [
            (written: 12, takenUp: 12),  // before the cue: nothing decided
            (written: 13, takenUp: 15),  // the break decided, taken up inside it
            (written: 16, takenUp: 16),  // inside the break
            (written: 18, takenUp: 22),  // back to content, taken up windows later
            (written: 25, takenUp: 25),  // long after the break
            (written: 18, takenUp: 30),  // the origin's window moved past everything written
            (written: 20, takenUp: 44),
        ])
    func resumes(written: Int, takenUp: Int) throws {
        var kept = Machine(timeline: LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6)))
        var seconds = 0.0
        for end in 10...written {
            Self.reload(&kept, last: end, at: seconds)
            for rendition in ["v0", "v1"] { _ = Self.render(&kept, rendition, last: end) }
            seconds += 6
        }
        let snapshot = try Self.written(kept.snapshot)
        #expect(snapshot == kept.snapshot, "the snapshot survives its JSON form")
        #expect(snapshot.decisions == kept.decisions.values.sorted { $0.breakNumber < $1.breakNumber })
        for end in stride(from: written + 1, through: takenUp, by: 1) {
            Self.reload(&kept, last: end, at: seconds)
            for rendition in ["v0", "v1"] { _ = Self.render(&kept, rendition, last: end) }
            seconds += 6
        }

        var taken = Machine(resuming: snapshot)
        #expect(
            taken.decisions
                == snapshot.decisions.reduce(into: BreakDecisions<LiveBreakDecision>()) { $0[$1.breakNumber] = $1 })
        #expect(taken.servedWindows == snapshot.served)
        for end in takenUp...(takenUp + 6) {
            if end > takenUp { Self.reload(&kept, last: end, at: seconds) }
            Self.reload(&taken, last: end, at: seconds)
            for rendition in ["v0", "v1"] {
                let expected = try #require(Self.render(&kept, rendition, last: end))
                let actual = try #require(
                    Self.render(&taken, rendition, last: end), "the taken-up session refused \(rendition) at \(end)")
                #expect(
                    expected.mediaSequence == actual.mediaSequence
                        && expected.discontinuitySequence == actual.discontinuitySequence,
                    "\(rendition) at \(end): \(expected.mediaSequence)/\(expected.discontinuitySequence) vs \(actual.mediaSequence)/\(actual.discontinuitySequence)"
                )
                #expect(expected.segments.map(\.uri) == actual.segments.map(\.uri), "\(rendition) at \(end)")
            }
            seconds += 6
        }
        #expect(taken.decisions == kept.decisions)
    }

    @Test("A break still pending when written is not in the snapshot: the machine that takes it up decides it again")
    func pendingIsDecidedAgain() throws {
        var kept = Machine(timeline: LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6)))
        _ = kept.reload(
            window: Self.channel.window("v0", last: 12), now: Self.at(0), budget: Self.budget, isSessionStart: false)
        let actions = kept.reload(
            window: Self.channel.window("v0", last: 13), now: Self.at(6), budget: Self.budget, isSessionStart: false)
        #expect(actions.contains { if case .submitDecision = $0 { true } else { false } })
        let snapshot = try Self.written(kept.snapshot)
        #expect(snapshot.decisions.isEmpty)
        var taken = Machine(resuming: snapshot)
        let again = taken.reload(
            window: Self.channel.window("v0", last: 13), now: Self.at(7), budget: Self.budget, isSessionStart: false)
        #expect(again.contains { if case .submitDecision(let item, _) = $0 { item.number == 0 } else { false } })
    }

    @Test(
        "The snapshot's JSON keeps the keys records have had since version 2 (timeline, decisions, served; a decision's fields)"
    )
    func recordForm() throws {
        var kept = Machine(timeline: LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6)))
        for end in 10...14 { Self.reload(&kept, last: end, at: Double(end)) }
        _ = Self.render(&kept, "v0", last: 14)
        let object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(kept.snapshot)) as? [String: Any])
        #expect(Set(object.keys) == ["timeline", "decisions", "served"])
        let decision = try #require((object["decisions"] as? [[String: Any]])?.first)
        #expect(Set(decision.keys) == ["breakNumber", "ads", "layout", "skippedAds", "breakStartURLs", "breakEndURLs"])
        let served = try #require((object["served"] as? [[String: Any]])?.first)
        #expect(Set(served.keys) == ["rendition", "mediaSequence", "end"])
    }

    @Test(
        "A timeline's entries and a layout's slots are written as columns; a record written with one object per entry and per slot still reads the same"
    )
    func columns() throws {
        var kept = Machine(timeline: LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6)))
        var seconds = 0.0
        for end in 10...16 {
            Self.reload(&kept, last: end, at: seconds)
            seconds += 6
        }
        let snapshot = kept.snapshot
        #expect(snapshot.timeline.entries.contains { if case .breakSlot = $0.source { true } else { false } })
        #expect(snapshot.timeline.entries.contains { if case .content = $0.source { true } else { false } })
        let data = try JSONEncoder().encode(snapshot)
        var object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var timeline = try #require(object["timeline"] as? [String: Any])
        let entries = try #require(timeline["entries"] as? [String: Any], "entries as columns")
        #expect(
            Set(entries.keys) == [
                "content", "breakNumber", "slot", "anchor", "duration", "discontinuity", "programDateTime",
            ])
        var decisions = try #require(object["decisions"] as? [[String: Any]])
        var layout = try #require(decisions.first?["layout"] as? [String: Any])
        let slots = try #require(layout["slots"] as? [String: Any], "slots as columns")
        #expect(Set(slots.keys) == ["ad", "segment", "duration", "end", "discontinuity"])

        // The form before: an object per entry and per slot.
        func objects<T: Encodable>(_ items: [T]) throws -> [Any] {
            try items.map { try JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) }
        }
        // As the previous release wrote them: every entry with its date, a break slot's too (read
        // back, a slot's date is its break's, the same value).
        timeline["entries"] = try zip(objects(snapshot.timeline.entries), snapshot.timeline.entries).map {
            item, entry -> Any in
            guard var fields = item as? [String: Any] else { return item }
            if case .breakSlot = entry.source {
                #expect(fields["programDateTime"] == nil)
                fields["programDateTime"] = try #require(snapshot.timeline.programDateTime(of: entry))
            }
            return fields
        }
        object["timeline"] = timeline
        layout["slots"] = try objects(try #require(snapshot.decisions.first).layout.slots)
        decisions[0]["layout"] = layout
        object["decisions"] = decisions
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(Machine.Snapshot.self, from: old) == snapshot)
        #expect(try JSONDecoder().decode(Machine.Snapshot.self, from: data) == snapshot)

        // A content entry is anchored at its own segment (an entry keeps one of the two): a
        // record that says otherwise is refused in either form, not read as something else.
        let index = try #require(
            snapshot.timeline.entries.firstIndex { if case .content = $0.source { true } else { false } })
        var columns = entries
        var anchors = try #require(columns["anchor"] as? [Int])
        anchors[index] += 1
        columns["anchor"] = anchors
        timeline["entries"] = columns
        object["timeline"] = timeline
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Machine.Snapshot.self, from: try JSONSerialization.data(withJSONObject: object))
        }
        var perEntry = try objects(snapshot.timeline.entries)
        var entry = try #require(perEntry[index] as? [String: Any])
        entry["anchor"] = anchors[index]
        perEntry[index] = entry
        timeline["entries"] = perEntry
        object["timeline"] = timeline
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Machine.Snapshot.self, from: try JSONSerialization.data(withJSONObject: object))
        }
    }
}
