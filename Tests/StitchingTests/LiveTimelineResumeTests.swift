import Foundation
import HLS
import Testing
@testable import Stitching

/// A timeline written down (as a session record keeps it) and taken up again by another replica:
/// given the origin's newest window, it lists what the replica that kept going would list — the
/// same media sequence and discontinuity numbers, the same segments — whether the window still
/// holds everything since the record or has moved past some of it.
@Suite struct LiveTimelineResumeTests {
    static let channel = LiveChannelFixture(breaks: [.init(start: 13, planned: 30, returnAt: 18)], windowSize: 6)

    /// The timeline as a record carries it: encoded and decoded, then resumed.
    static func writtenAndTakenUp(_ timeline: LiveTimeline) throws -> LiveTimeline {
        try JSONDecoder().decode(LiveTimeline.self, from: JSONEncoder().encode(timeline)).resumed()
    }

    static func same(_ one: MediaPlaylist, _ other: MediaPlaylist) -> Bool {
        one.mediaSequence == other.mediaSequence && one.discontinuitySequence == other.discontinuitySequence
            && one.segments.map(\.uri) == other.segments.map(\.uri)
            && one.segments.map(\.discontinuity) == other.segments.map(\.discontinuity)
    }

    @Test(
        "Written when the break ended, taken up windows later: the same playlists (origin discontinuities every 10 segments included)",
        arguments: [21, 23, 25, 26, 27, 31, 35, 44, 61])
    func afterTheBreak(takenUpAt last: Int) throws {
        var kept = LiveSessionDriver(channel: Self.channel)
        for end in 10...20 { kept.advance(last: end) }
        #expect(kept.timeline.changes == 2, "decided and ended: two changes a record is written for")
        let record = kept.timeline
        for end in 21...last { kept.advance(last: end) }
        #expect(kept.timeline.changes == 2, "content only since: nothing to write")

        var taken = LiveSessionDriver(channel: Self.channel)
        taken.timeline = try Self.writtenAndTakenUp(record)
        taken.advance(last: last)
        for rendition in ["v0", "v1"] {
            let expected = kept.render(rendition, last: last), actual = taken.render(rendition, last: last)
            #expect(
                Self.same(expected, actual),
                "\(rendition) at \(last): \(expected.mediaSequence)/\(expected.discontinuitySequence) vs \(actual.mediaSequence)/\(actual.discontinuitySequence)"
            )
        }
        // And from there on, reload after reload.
        for end in (last + 1)...(last + 4) {
            kept.advance(last: end)
            taken.advance(last: end)
            #expect(Self.same(kept.render("v0", last: end), taken.render("v0", last: end)))
        }
    }

    @Test(
        "Written when the break was decided, taken up while the window still holds the rest: the same ads and numbering through the return",
        arguments: [14, 15, 16, 17, 18])
    func duringTheBreak(takenUpAt last: Int) throws {
        var kept = LiveSessionDriver(channel: Self.channel)
        for end in 10...13 { kept.advance(last: end) }
        #expect(kept.timeline.changes == 1)
        let record = kept.timeline
        for end in 14...last { kept.advance(last: end) }

        var taken = LiveSessionDriver(channel: Self.channel)
        taken.timeline = try Self.writtenAndTakenUp(record)
        taken.advance(last: last)
        for end in last...22 {
            if end > last { kept.advance(last: end); taken.advance(last: end) }
            for rendition in ["v0", "v1"] {
                #expect(
                    Self.same(kept.render(rendition, last: end), taken.render(rendition, last: end)),
                    "\(rendition) at \(end)")
            }
        }
    }

    @Test(
        "A timeline not taken up from a record treats a window past its end as a gap in the origin: a discontinuity, numbering on"
    )
    func aGapIsAGapWithoutARecord() {
        var driver = LiveSessionDriver(channel: LiveChannelFixture(windowSize: 6))
        for end in 5...8 { driver.advance(last: end) }
        let before = driver.render("v0", last: 8)
        driver.advance(last: 20)
        let after = driver.render("v0", last: 20)
        #expect(after.segments.first?.discontinuity == true)
        #expect(after.mediaSequence == before.mediaSequence + before.segments.count)
    }
}
