import HLS
import Testing
@testable import Stitching

/// The live pre-roll (`live.prerollMaxSeconds`) on a session's timeline: a break opened one
/// segment before the first window's newest, listed as the origin publishes, then the channel.
@Suite struct LivePrerollTests {
    let channel = LiveChannelFixture(breaks: [])
    /// ad0 10 s + ad1 15 s, in 5 s segments.
    let ads: [[Double]] = [[5, 5], [5, 5, 5]]

    func timeline(preroll: Double? = 30) -> LiveTimeline {
        LiveTimeline(configuration: .init(defaultBreakSeconds: 30, targetDuration: 6, prerollSeconds: preroll))
    }

    func render(_ timeline: LiveTimeline, last: Int) -> MediaPlaylist {
        LiveWindowRenderer.render(
            timeline, window: channel.window("v0", last: last), targetDuration: 6,
            media: { _ in
                LiveBreakMedia(
                    ads: ["ad0", "ad1"].enumerated().map { LiveChannelFixture.ad($0.element, "v0", ads[$0.offset]) },
                    slate: nil)
            })
    }

    @Test func theSessionStartsWithThePrerollThenPlaysTheChannel() throws {
        var timeline = timeline()
        // The first window is 11–16: the pre-roll opens at 15, nothing is placed before the decision.
        guard case .needsDecision(let pending) = timeline.advance(with: channel.window("v0", last: 16)) else {
            Issue.record("no pre-roll opened")
            return
        }
        #expect(pending.isPreroll && pending.startSequence == 15 && pending.duration == 30)
        #expect(InterstitialBreakID(liveBreak: pending).text.hasPrefix("pre-"))
        // Asked again before the decision: the same break, no second one.
        #expect(timeline.advance(with: channel.window("v0", last: 16)) == .needsDecision(pending))
        timeline.resolve(
            breakNumber: pending.number, layout: LiveBreakLayout.make(breakDuration: 30, ads: ads, slate: nil))
        #expect(timeline.advance(with: channel.window("v0", last: 16)) == .upToDate)

        // The first playlist: the pre-roll's first 15 s (slots starting in the 12 s published,
        // one ad segment ahead), numbered from the origin's 15, no content before it.
        let first = render(timeline, last: 16)
        #expect(first.mediaSequence == 15)
        #expect(
            first.segments.map(\.uri) == [
                "https://ads.example/ad0/v0/0.ts", "https://ads.example/ad0/v0/1.ts", "https://ads.example/ad1/v0/0.ts",
            ])
        #expect(first.segments.first?.discontinuity == false)

        // As the origin publishes, the rest of the ads, then the channel with a discontinuity:
        // the 25 s of ads cover content 15–19, so content resumes at 20.
        for last in 17...20 { _ = timeline.advance(with: channel.window("v0", last: last)) }
        let later = render(timeline, last: 20)
        let uris = later.segments.map(\.uri)
        #expect(uris.filter { $0.hasPrefix("https://ads.example/") }.count == 5, "\(uris)")
        let resumed = try #require(later.segments.firstIndex { !$0.uri.hasPrefix("https://ads.example/") })
        #expect(later.segments[resumed].uri.hasSuffix("20.ts"), "\(uris)")
        #expect(later.segments[resumed].discontinuity)
        #expect(timeline.breaks.first?.phase == .ended)
        // No second pre-roll, ever.
        #expect(timeline.breaks.filter(\.isPreroll).count == 1)
    }

    @Test func anUnfilledPrerollPlaysTheChannelFromTheSameSegment() {
        var timeline = timeline()
        guard case .needsDecision(let pending) = timeline.advance(with: channel.window("v0", last: 16)) else {
            Issue.record("no pre-roll opened")
            return
        }
        timeline.resolve(
            breakNumber: pending.number, layout: LiveBreakLayout.make(breakDuration: 0, ads: [], slate: nil))
        _ = timeline.advance(with: channel.window("v0", last: 16))
        let playlist = render(timeline, last: 16)
        #expect(playlist.mediaSequence == 15)
        #expect(playlist.segments.map(\.uri).allSatisfy { !$0.hasPrefix("https://ads.example/") })
        #expect(playlist.segments.count == 2)
    }

    @Test func withoutAPrerollTheSessionStartsWithTheWholeWindow() {
        var timeline = timeline(preroll: nil)
        #expect(timeline.advance(with: channel.window("v0", last: 16)) == .upToDate)
        #expect(render(timeline, last: 16).mediaSequence == 11)
        #expect(timeline.breaks.isEmpty)
    }

    @Test func thePrerollsDateRangeSaysPreAndOnce() throws {
        var timeline = timeline()
        guard case .needsDecision(let pending) = timeline.advance(with: channel.window("v0", last: 16)) else {
            Issue.record("no pre-roll opened")
            return
        }
        timeline.resolve(
            breakNumber: pending.number, layout: LiveBreakLayout.make(breakDuration: 30, ads: ads, slate: nil))
        _ = timeline.advance(with: channel.window("v0", last: 16))
        let breaks = InterstitialRenderer.liveBreaks(of: timeline) { _ in true }
        #expect(breaks.map(\.isPreroll) == [true])
        let urls = SessionURLs(baseURL: "https://seam.example", sessionID: "S1")
        let primary = InterstitialRenderer.live(
            window: channel.window("v0", last: 16), breaks: breaks, targetDuration: 6, urls: urls,
            policy: InterstitialPolicy())
        let range = try #require(primary.segments.flatMap(\.dateRanges).first)
        #expect(range.cue == ["PRE", "ONCE"])
        #expect(range.attributes.string("X-RESUME-OFFSET") == nil, "the player resumes at the live point")
        let tracking = TrackingBuilder.live(sessionID: "S1", mode: .server, timeline: timeline) { _ in
            TrackingBuilder.LiveDecision<PlannedAd>(
                layout: LiveBreakLayout.make(breakDuration: 30, ads: ads, slate: nil), ads: [nil, nil],
                skipReason: nil, detail: nil, skippedAds: [], breakStartURLs: [], breakEndURLs: [])
        }
        #expect(tracking.avails.map(\.position) == ["preroll"])
    }
}
