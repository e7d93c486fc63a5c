import Foundation
import Stitching
import Testing

@testable import SeamServer

/// What a live channel's sessions share instead of each holding a copy (issue 26: a live session
/// in a few KiB): the timeline's configuration, and the request when viewers sent the same one.
@Suite struct LiveSessionSharingTests {
    typealias Memory = InMemorySessionStoreTests

    @Test("A channel's sessions start from one timeline: they share its configuration, not a copy each")
    func sessionsShareTheTimelinesConfiguration() throws {
        let channel = try LiveRecordSavingTests.channel()
        let sessions = (0..<3).map { _ in LiveRecordSavingTests.live(on: channel) }
        let timelines = sessions.map { $0.snapshot().session.timeline }
        #expect(timelines[0].$configuration.isShared(with: timelines[1].$configuration))
        #expect(timelines[1].$configuration.isShared(with: timelines[2].$configuration))
        // Another configuration (a live pre-roll asked for): a timeline of its own.
        let preroll = LiveSession(
            id: Memory.ids.issue(), channel: channel, inputs: Memory.inputs, trackingMode: .server,
            defaultBreakSeconds: 30, prerollSeconds: 10)
        let other = preroll.snapshot().session.timeline
        #expect(other.configuration.prerollSeconds == 10)
        #expect(!other.$configuration.isShared(with: timelines[0].$configuration))
        // Written and read as the value itself, as before.
        let data = try JSONEncoder().encode(timelines[0])
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["configuration"] as? [String: Any])?["targetDuration"] as? Int == 6)
        #expect(try JSONDecoder().decode(LiveTimeline.self, from: data) == timelines[0])
    }

    @Test(
        "Viewers who sent the same request share one box of it, each keeping its own address; a different request, user agent or base URL gets its own"
    )
    func equalRequestsShareOneBox() {
        let pool = SessionInputs.Pool()
        func inputs(
            _ ip: String, url: String = "https://origin.test/live.m3u8", agent: String? = "Player/1"
        )
            -> SessionInputs
        {
            SessionInputs(
                request: SessionRequest(url: url), deviceIP: ip, userAgent: agent, baseURL: "http://seam.test"
            )
            .sharing(pool)
        }
        let a = inputs("203.0.113.7")
        let b = inputs("198.51.100.23")
        #expect(a.sharesStorage(with: b))
        #expect(a.deviceIP == "203.0.113.7" && b.deviceIP == "198.51.100.23")
        #expect(a != b)
        let otherURL = inputs("203.0.113.7", url: "https://origin.test/other.m3u8")
        let otherAgent = inputs("203.0.113.7", agent: nil)
        #expect(!otherURL.sharesStorage(with: a) && !otherAgent.sharesStorage(with: a))
        #expect(pool.count == 3)
        // A change to one viewer's request is its own (copy on write), the others keep theirs.
        var changed = b
        changed.request.url = "https://origin.test/changed.m3u8"
        #expect(!changed.sharesStorage(with: a))
        #expect(a.request.url == "https://origin.test/live.m3u8")
        // The pool keeps the last few distinct requests only.
        for index in 0..<SessionInputs.Pool.capacity { _ = inputs("192.0.2.1", url: "https://origin.test/\(index)") }
        #expect(pool.count == SessionInputs.Pool.capacity)
        #expect(!inputs("203.0.113.8").sharesStorage(with: a))
    }
}
