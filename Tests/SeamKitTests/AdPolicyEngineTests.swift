import Foundation
import SeamKit
import Testing

/// The ad playback policy as tables of playhead events on the demo title's stitched timeline:
/// pre-roll 0–25 (two ads), mid-roll 55–70 (content 30), post-roll 100–110.
@Suite struct AdPolicyEngineTests {
    typealias F = AdEventFixtures
    typealias Seek = AdPolicyEngine.Seek

    /// The demo, its mid-roll split in two ads (m1 55–62, m2 62–70), m2 skippable after 3 s.
    static func twoAdMidroll() -> TrackingDocument {
        var document = F.demo()
        var second = F.ad("m2", start: 62, duration: 8)
        second.skipOffsetSeconds = 3
        document.avails[1] = F.avail(
            "1", position: "midroll", cue: 30, ads: [F.ad("m1", start: 55, duration: 7), second])
        return document
    }

    static func engine(
        _ policy: AdPlaybackPolicy = AdPlaybackPolicy(), document: TrackingDocument = twoAdMidroll()
    ) -> AdPolicyEngine {
        var engine = AdPolicyEngine(policy: policy)
        engine.updateTracking(document)
        return engine
    }

    /// Samples from `from` to `to` every 0.5 s; the seeks the engine asked for, performed.
    static func play(_ engine: inout AdPolicyEngine, from: Double, to: Double) -> [Seek] {
        var seeks: [Seek] = []
        var time = from
        while time <= to + 1e-9 {
            if let seek = engine.sample(time: time) {
                seeks.append(seek)
                engine.didSeek(to: seek.to)
                time = seek.to
            }
            time += 0.5
        }
        return seeks
    }

    @Test func aSeekOverAnUnwatchedMidrollPlaysItsLastAdThenGoesWhereTheViewerSeeked() {
        var engine = Self.engine()
        _ = Self.play(&engine, from: 30, to: 40)
        #expect(engine.seek(from: 40, to: 80) == Seek(to: 62, reason: .playBreakBeforeSeek))
        #expect(Self.play(&engine, from: 62, to: 71) == [Seek(to: 80, reason: .resumeAfterBreak, afterPlayback: true)])
        #expect(engine.watchedBreakIDs == ["1"])
        // Seeking over it again costs nothing: it was watched.
        #expect(engine.seek(from: 80, to: 40) == Seek(to: 40, reason: .resumeAfterBreak))
        #expect(engine.seek(from: 40, to: 85) == Seek(to: 85, reason: .resumeAfterBreak))
    }

    @Test func aSeekFromInsideABreakFinishesItFirst() {
        // In m1 (55–62) of the two-ad mid-roll: a seek inside the break is allowed; one past it
        // plays the last ad (play-last) or the rest of the break (play-all), then lands.
        var last = Self.engine()
        #expect(last.seek(from: 57, to: 58) == Seek(to: 58, reason: .resumeAfterBreak))
        #expect(last.seek(from: 58, to: 90) == Seek(to: 62, reason: .playBreakBeforeSeek))
        #expect(Self.play(&last, from: 62, to: 71) == [Seek(to: 90, reason: .resumeAfterBreak, afterPlayback: true)])
        // Already in the last ad: it plays on from where it is, not from its start.
        var inLast = Self.engine()
        #expect(inLast.seek(from: 64, to: 90) == Seek(to: 64, reason: .playBreakBeforeSeek))
        var all = Self.engine(AdPlaybackPolicy(fastForward: .playAll))
        #expect(all.seek(from: 57, to: 104) == Seek(to: 57, reason: .playBreakBeforeSeek))
        #expect(Self.play(&all, from: 57, to: 71) == [Seek(to: 100, reason: .playBreakBeforeSeek, afterPlayback: true)])
        var skip = Self.engine(AdPlaybackPolicy(fastForward: .skipAll))
        #expect(skip.seek(from: 57, to: 90) == Seek(to: 90, reason: .resumeAfterBreak))
    }

    @Test func playAllPlaysEveryBreakJumpedOverInOrder() {
        var engine = Self.engine(AdPlaybackPolicy(fastForward: .playAll))
        _ = Self.play(&engine, from: 0, to: 30)
        #expect(engine.watchedBreakIDs == ["0"])
        // Over the mid-roll into the post-roll: both play, then playback goes on from the post-roll.
        #expect(engine.seek(from: 30, to: 104) == Seek(to: 55, reason: .playBreakBeforeSeek))
        #expect(
            Self.play(&engine, from: 55, to: 110) == [Seek(to: 100, reason: .playBreakBeforeSeek, afterPlayback: true)])
        #expect(engine.watchedBreakIDs == ["0", "1", "2"])
    }

    @Test func skipAllGoesWhereTheViewerSeekedAndOutOfABreakItLandsIn() {
        var engine = Self.engine(AdPlaybackPolicy(fastForward: .skipAll))
        #expect(engine.seek(from: 30, to: 80) == Seek(to: 80, reason: .resumeAfterBreak))
        #expect(engine.seek(from: 30, to: 60) == Seek(to: 70, reason: .skipBreakAtLanding))
        #expect(engine.watchedBreakIDs.isEmpty)
    }

    @Test func aPlayerScrubTheAppDidNotRouteIsJudgedLikeASeek() {
        var engine = Self.engine()
        #expect(engine.sample(time: 40) == nil)
        #expect(engine.sample(time: 80) == Seek(to: 62, reason: .playBreakBeforeSeek))
    }

    @Test func underOncePerSessionAWatchedBreakIsJumpedWhenPlaybackReachesItAgain() {
        var engine = Self.engine()
        #expect(Self.play(&engine, from: 50, to: 72).isEmpty)
        #expect(engine.watchedBreakIDs == ["1"])
        #expect(engine.seek(from: 72, to: 45) == Seek(to: 45, reason: .resumeAfterBreak))
        #expect(Self.play(&engine, from: 45, to: 60) == [Seek(to: 70, reason: .skipWatchedBreak)])
        // A seek landing inside it goes to its end too.
        #expect(engine.seek(from: 80, to: 58) == Seek(to: 70, reason: .skipBreakAtLanding))
    }

    @Test func underEveryTimeTheRewindRuleDecides() {
        var skipping = Self.engine(AdPlaybackPolicy(rewind: .skipAll, repeat: .everyTime))
        _ = Self.play(&skipping, from: 50, to: 72)
        _ = skipping.seek(from: 72, to: 45)
        #expect(Self.play(&skipping, from: 45, to: 60) == [Seek(to: 70, reason: .skipWatchedBreak)])

        var replaying = Self.engine(AdPlaybackPolicy(rewind: .playAll, repeat: .everyTime))
        _ = Self.play(&replaying, from: 50, to: 72)
        _ = replaying.seek(from: 72, to: 45)
        #expect(Self.play(&replaying, from: 45, to: 72).isEmpty)
    }

    @Test func backFromAnInterruptionTheAdResumesRestartsOrIsSkipped() {
        var resume = Self.engine(AdPlaybackPolicy(interrupt: .resumeAd))
        #expect(resume.interruptionEnded(at: 58) == nil)
        var restart = Self.engine(AdPlaybackPolicy(interrupt: .restartAd))
        #expect(restart.interruptionEnded(at: 58) == Seek(to: 55, reason: .interruption))
        var skip = Self.engine(AdPlaybackPolicy(interrupt: .skipAd))
        #expect(skip.interruptionEnded(at: 58) == Seek(to: 62, reason: .interruption))
        #expect(skip.interruptionEnded(at: 64) == Seek(to: 70, reason: .interruption))
        #expect(skip.watchedBreakIDs == ["1"])
        #expect(skip.interruptionEnded(at: 40) == nil)
    }

    @Test func aStartPastThePrerollPlaysItFirstUnlessThePolicySaysNot() {
        var playing = Self.engine(AdPlaybackPolicy(startPastPreroll: .playPreroll))
        #expect(playing.start(atContentTime: 40) == Seek(to: 0, reason: .prerollBeforeStart))
        // Content 40 s is stitched 80 s: after the 25 s pre-roll and the 15 s mid-roll.
        #expect(Self.play(&playing, from: 0, to: 26) == [Seek(to: 80, reason: .resumeAfterBreak, afterPlayback: true)])
        var skipping = Self.engine(AdPlaybackPolicy(startPastPreroll: .skipPreroll))
        #expect(skipping.start(atContentTime: 40) == Seek(to: 80, reason: .resumeAfterBreak))
        #expect(skipping.start(atContentTime: 0) == Seek(to: 0, reason: .resumeAfterBreak))
    }

    @Test func contentAndStreamTimesConvertAroundBreaks() {
        let engine = Self.engine()
        let table: [(stream: Double, content: Double)] = [
            (0, 0), (5, 0), (25, 0), (40, 15), (55, 30), (60, 30), (70, 30), (80, 40),
            (100, 60), (105, 60), (110, 60),
        ]
        for row in table { #expect(engine.contentTime(forStream: row.stream) == row.content, "stream \(row.stream)") }
        #expect(engine.streamTime(forContent: 15) == 40)
        #expect(engine.streamTime(forContent: 40) == 80)
        #expect(engine.streamTime(forContent: 30) == 70)
    }

    @Test func skipAdWorksOnlyOnASkippableAdPastItsOffset() {
        var engine = Self.engine()
        #expect(engine.skipAd(at: 58) == nil)  // m1 has no skip offset
        #expect(engine.skipAd(at: 63) == nil)  // m2, 1 s in: its offset is 3 s
        #expect(engine.skipAd(at: 65.5) == Seek(to: 70, reason: .adSkipped))
        #expect(engine.watchedBreakIDs == ["1"])
    }

    @Test func discardingABreakLeavesItAndCountsItWatched() {
        var engine = Self.engine()
        #expect(engine.discardBreak(at: 40) == nil)
        #expect(engine.discardBreak(at: 57) == Seek(to: 70, reason: .breakDiscarded))
        #expect(engine.watchedBreakIDs == ["1"])
        // Discarding a break a seek owed goes on to where the viewer seeked.
        var owed = Self.engine(AdPlaybackPolicy(fastForward: .playAll))
        _ = owed.seek(from: 30, to: 90)
        #expect(owed.discardBreak(at: 56) == Seek(to: 90, reason: .resumeAfterBreak))
    }

    @Test func theServerGetsThePartHLSInterstitialsCarries() {
        #expect(AdPlaybackPolicy().serverPolicy == SessionOptions.Policy(restrict: [.skip, .jump], repeat: .once))
        #expect(
            AdPlaybackPolicy(fastForward: .skipAll, repeat: .everyTime).serverPolicy
                == SessionOptions.Policy(restrict: [.skip], repeat: .everyTime))
        let options = SessionOptions(adPlaybackPolicy: AdPlaybackPolicy(fastForward: .skipAll))
        #expect(options.body(contentURL: URL(string: "http://origin.example/a.m3u8")!).policy?.repeat == .once)
        let explicit = SessionOptions(policy: .init(snap: [.out]))
        #expect(explicit.body(contentURL: URL(string: "http://origin.example/a.m3u8")!).policy == .init(snap: [.out]))
    }
}
