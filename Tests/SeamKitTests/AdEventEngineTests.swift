import Foundation
import SeamKit
import Testing

@Suite struct AdEventEngineTests {
    typealias F = AdEventFixtures

    @Test func playingStraightThroughReportsEveryBreakAndAdInOrderWithEachBeaconOnce() {
        var engine = AdEventEngine()
        var actions = engine.updateTracking(F.demo())
        actions += F.play(&engine, from: 0, to: 110)
        let expected =
            ["cuePoints [0.0, 30.0, -1.0]", "breakStarted 0 ads=2"] + F.played("p1") + F.played("p2") + [
                "breakEnded 0",
                "breakStarted 1 ads=1",
            ] + F.played("m1") + [
                "breakEnded 1",
                "breakStarted 2 ads=1",
            ] + F.played("o1") + ["breakEnded 2"]
        #expect(F.describe(actions) == expected)
        let fired = F.fired(actions)
        let allBeacons =
            ["p1", "p2", "m1", "o1"].flatMap { ad in F.events.map { F.beacon(ad, $0) } }
            + ["0", "1", "2"].flatMap { [F.beacon("break\($0)", "breakStart"), F.beacon("break\($0)", "breakEnd")] }
        #expect(fired.sorted() == allBeacons.sorted())
        #expect(Set(fired).count == fired.count)
    }

    @Test func eachQuartileBeaconFiresWhenThePlayheadReachesIt() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 50, to: 58.5)
        // m1 plays 55–70: its first quartile is at 58.75.
        #expect(F.fired(engine.playhead(time: 58.7, playing: true)).isEmpty)
        #expect(F.fired(engine.playhead(time: 58.8, playing: true)) == [F.beacon("m1", "firstQuartile")])
        #expect(F.fired(F.play(&engine, from: 59.3, to: 62.3)).isEmpty)
        #expect(F.fired(engine.playhead(time: 62.6, playing: true)) == [F.beacon("m1", "midpoint")])
    }

    @Test func adProgressFollowsThePlayheadInsideTheAd() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = engine.playhead(time: 54, playing: true)
        #expect(F.describe(engine.playhead(time: 55.5, playing: true), progress: true).last == "adProgress m1 0.5")
        #expect(F.describe(engine.playhead(time: 56.5, playing: true), progress: true) == ["adProgress m1 1.5"])
        // Paused: no progress.
        #expect(F.describe(engine.playhead(time: 56.6, playing: false), progress: true).isEmpty)
        #expect(engine.currentAd?.id == "m1")
        #expect(engine.currentBreak?.id == "1")
    }

    @Test func seekingOverABreakReportsNothingOfIt() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 30, to: 40)
        let actions = engine.playhead(time: 80, playing: true) + F.play(&engine, from: 80.5, to: 95)
        #expect(F.describe(actions).isEmpty)
        #expect(F.fired(actions).isEmpty)
    }

    @Test func seekingOutOfAnAdEndsItIncompleteAndFiresNoSkippedQuartile() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 0, to: 3)
        let actions = engine.playhead(time: 40, playing: true)
        #expect(F.describe(actions) == ["adEnded p1 incomplete", "breakEnded 0"])
        #expect(F.fired(actions).isEmpty)
    }

    @Test func seekingIntoTheMiddleOfAnAdPlaysItWithoutTrackingIt() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 30, to: 40)
        let actions = engine.seek(to: 62) + F.play(&engine, from: 62.5, to: 75)
        #expect(
            F.describe(actions) == ["breakStarted 1 ads=1", "adStarted m1", "adEnded m1 incomplete", "breakEnded 1"])
        #expect(F.fired(actions).isEmpty)
    }

    @Test func seekingToTheStartOfABreakPlaysItFully() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 30, to: 40)
        let actions = engine.seek(to: 55) + F.play(&engine, from: 55.5, to: 71)
        #expect(F.describe(actions) == ["breakStarted 1 ads=1"] + F.played("m1") + ["breakEnded 1"])
        #expect(F.fired(actions).count == 8)
    }

    @Test func aSeekInsideTheAdPlayingKeepsItAndRepeatsNothing() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 54, to: 64)
        let back = engine.playhead(time: 57, playing: true) + F.play(&engine, from: 57.5, to: 64)
        #expect(F.describe(back).isEmpty)
        #expect(F.fired(back).isEmpty)
        let rest = F.play(&engine, from: 64.5, to: 71)
        #expect(F.describe(rest) == ["thirdQuartile m1", "complete m1", "adEnded m1", "breakEnded 1"])
    }

    @Test func replayingAWatchedBreakReportsItAgainButFiresNoBeaconTwice() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        let first = F.play(&engine, from: 0, to: 30)
        let second = engine.seek(to: 0) + F.play(&engine, from: 0.5, to: 30)
        let pass = ["breakStarted 0 ads=2"] + F.played("p1") + F.played("p2") + ["breakEnded 0"]
        #expect(F.describe(first) == pass)
        #expect(F.describe(second) == pass)
        #expect(F.fired(first).count == 14)
        #expect(F.fired(second).isEmpty)
    }

    @Test func serverTrackingListsNoBeaconsSoNoneFire() {
        var engine = AdEventEngine()
        var actions = engine.updateTracking(F.demo(client: false))
        actions += F.play(&engine, from: 0, to: 110)
        #expect(F.fired(actions).isEmpty)
        #expect(F.describe(actions).filter { $0.hasPrefix("complete") }.count == 4)
    }

    @Test func aSkippedAvailReportsItsReasonOnceWhenReached() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo(skippedMidroll: true))
        #expect(F.describe(F.play(&engine, from: 30, to: 50)).isEmpty)
        #expect(F.describe(F.play(&engine, from: 50.5, to: 60)) == ["breakSkipped 1 NO_FILL"])
        #expect(F.describe(engine.seek(to: 50) + F.play(&engine, from: 50.5, to: 60)).isEmpty)
        #expect(F.describe(engine.seek(to: 55)).isEmpty)
    }

    @Test func aSkippedAvailReachedBySeekingOntoItIsReported() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo(skippedMidroll: true))
        _ = F.play(&engine, from: 30, to: 35)
        #expect(F.describe(engine.seek(to: 55)) == ["breakSkipped 1 NO_FILL"])
    }

    @Test func openMeasurementVerificationsArriveWithAdStarted() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        let started = engine.playhead(time: 0, playing: true).compactMap { action -> AdInfo? in
            if case .emit(.adStarted(let ad)) = action { return ad }
            return nil
        }
        #expect(started.map(\.verifications) == [["<Verification vendor=\"p1\"/>"]])
        #expect(started.map(\.title) == ["Ad p1"])
        #expect(started.map(\.skippable) == [false])
    }

    /// Seek detection: a move is playback unless it jumps more than `maxStep` forward or
    /// `backwardTolerance` back.
    @Test(arguments: [
        (from: 40.0, to: 57.0, step: 17.0, tracked: false),  // 17 s forward: a seek into m1
        (from: 54.0, to: 57.0, step: 1.0, tracked: true),  // playback across m1's start
        (from: 54.0, to: 57.0, step: 1.9, tracked: true),  // within maxStep 2
        (from: 50.0, to: 57.0, step: 3.5, tracked: false),  // 3.5 s steps: seeks, landing past the entry window
    ])
    func seekDetection(from: Double, to: Double, step: Double, tracked: Bool) {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = engine.playhead(time: from, playing: true)
        var actions: [AdEventEngine.Action] = []
        var time = from + step
        while time < to { actions += engine.playhead(time: time, playing: true); time += step }
        actions += engine.playhead(time: to, playing: true)
        #expect(F.describe(actions).contains("impression m1") == tracked)
    }

    @Test func cuePointsAreReportedWhenTheyChange() {
        var engine = AdEventEngine()
        #expect(F.describe(engine.updateTracking(F.demo())) == ["cuePoints [0.0, 30.0, -1.0]"])
        #expect(F.describe(engine.updateTracking(F.demo())).isEmpty)
        var changed = F.demo()
        changed.cuePoints = [0, -1]
        #expect(F.describe(engine.updateTracking(changed)) == ["cuePoints [0.0, -1.0]"])
    }

    // MARK: Live

    /// A live session's tracking JSON: breaks on the session's timeline, dated.
    static func live(breaks: [(id: String, start: Double, date: String)]) -> TrackingDocument {
        let avails = breaks.map { item in
            var avail = F.avail(
                item.id, position: "live", cue: item.start,
                ads: [
                    F.ad("l\(item.id)a", start: item.start, duration: 10),
                    F.ad("l\(item.id)b", start: item.start + 10, duration: 20),
                ])
            avail.programDateTime = item.date
            return avail
        }
        return TrackingDocument(
            sessionId: "live", trackingMode: .client, durationSeconds: 600, avails: avails,
            cuePoints: avails.map(\.cuePoint))
    }

    static let breakDate = 1_795_548_120.0  // 2026-11-24T19:22:00Z

    @Test func liveBreaksAreFoundByProgramDateTime() throws {
        var engine = AdEventEngine()
        var actions = engine.updateTracking(
            Self.live(breaks: [(id: "7", start: 120, date: "2026-11-24T19:22:00.000Z")]))
        // The player's own clock (8 s into its window) says nothing; the date places the break.
        actions += F.play(&engine, from: 8, to: 50, date: Self.breakDate - 10)
        #expect(
            F.describe(actions) == ["cuePoints [120.0]", "breakStarted 7 ads=2"] + F.played("l7a") + F.played("l7b") + [
                "breakEnded 7"
            ])
        #expect(F.fired(actions).count == 14)
    }

    @Test func anAdEndingOnAFractionalDateCompletesBeforeItEnds() {
        // Dates with milliseconds: the ad's end and its `complete` are the same instant, though
        // computed apart in seconds since 1970, where the last bit is 0.0000002 s.
        var engine = AdEventEngine()
        var document = Self.live(breaks: [(id: "1", start: 24, date: "2026-11-24T19:22:00.143Z")])
        document.avails[0].ads = [F.ad("l1a", start: 24, duration: 20)]
        document.avails[0].durationSeconds = 20
        var actions = engine.updateTracking(document)
        actions += F.play(&engine, from: 21, to: 50, step: 0.25, date: Self.breakDate + 0.143 - 3)
        #expect(
            F.describe(actions) == ["cuePoints [24.0]", "breakStarted 1 ads=1"] + F.played("l1a") + ["breakEnded 1"])
    }

    @Test func aDateJumpAtTheSpliceIsPlaybackNotASeek() {
        // A 20 s ad fills a 24 s break: the content after it is dated 4 s later than the ad's
        // end, while the player's time runs on without a gap. The ad completes; nothing is skipped.
        var engine = AdEventEngine()
        var document = Self.live(breaks: [(id: "1", start: 24, date: "2026-11-24T19:22:00.143Z")])
        document.avails[0].ads = [F.ad("l1a", start: 24, duration: 20)]
        document.avails[0].durationSeconds = 20
        var actions = engine.updateTracking(document)
        let breakDate = Self.breakDate + 0.143
        var time = 21.0
        while time <= 50 {
            let date = time < 44 ? breakDate + (time - 24) : breakDate + 24 + (time - 44)
            actions += engine.playhead(time: time, playing: true, date: date)
            time += 0.25
        }
        #expect(
            F.describe(actions) == ["cuePoints [24.0]", "breakStarted 1 ads=1"] + F.played("l1a") + ["breakEnded 1"])
    }

    @Test func liveBreaksWithoutDatesAreFoundOnTheSessionTimeline() {
        var engine = AdEventEngine()
        var document = Self.live(breaks: [(id: "3", start: 120, date: "")])
        document.avails[0].programDateTime = nil
        _ = engine.updateTracking(document)
        let actions = F.play(&engine, from: 110, to: 155)
        #expect(F.describe(actions) == ["breakStarted 3 ads=2"] + F.played("l3a") + F.played("l3b") + ["breakEnded 3"])
    }

    @Test func aLiveBreakListedLateIsJoinedWhereThePlayheadIs() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(Self.live(breaks: []))
        _ = F.play(&engine, from: 110, to: 120.5)
        // The next fetch lists the break the playhead entered half a second ago: joined from its start.
        var actions = engine.updateTracking(Self.live(breaks: [(id: "4", start: 120, date: "2026-11-24T19:22:00Z")]))
        actions += F.play(&engine, from: 121, to: 151)
        #expect(
            F.describe(actions) == ["cuePoints [120.0]", "breakStarted 4 ads=2"] + F.played("l4a") + F.played("l4b") + [
                "breakEnded 4"
            ])
    }

    @Test func aBreakListedSecondsAfterPlaybackReachedItCountsFromItsStart() {
        // The first tracking JSON has no break (its decision was pending); the next one, read
        // 3 s into the break, dates it: the engine moves to the date clock without calling it a
        // seek, and the ad, played into without a seek, reports and fires everything from its start.
        var engine = AdEventEngine()
        _ = engine.updateTracking(Self.live(breaks: []))
        let dateAt = { (time: Double) in Self.breakDate + (time - 120) }
        var time = 110.0
        while time <= 123 {
            _ = engine.playhead(time: time, playing: true, date: dateAt(time))
            time += 0.5
        }
        var actions = engine.updateTracking(Self.live(breaks: [(id: "4", start: 120, date: "2026-11-24T19:22:00Z")]))
        while time <= 151 {
            actions += engine.playhead(time: time, playing: true, date: dateAt(time))
            time += 0.5
        }
        #expect(
            F.describe(actions) == ["cuePoints [120.0]", "breakStarted 4 ads=2"] + F.played("l4a") + F.played("l4b") + [
                "breakEnded 4"
            ])
        #expect(F.fired(actions).contains(F.beacon("l4a", "impression")))
    }

    @Test func closingInsideAnAdEndsItAndItsBreakUncompleted() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 50, to: 60)
        let actions = engine.close()
        #expect(F.describe(actions) == ["adEnded m1 incomplete", "breakEnded 1"])
        #expect(F.fired(actions).isEmpty)
        #expect(engine.close().isEmpty)
    }

    @Test func aSeekIntoTheMiddleOfAnAdStillFiresNothingItSkipped() {
        var engine = AdEventEngine()
        _ = engine.updateTracking(F.demo())
        _ = F.play(&engine, from: 40, to: 45)
        let actions = engine.seek(to: 58) + F.play(&engine, from: 58.5, to: 71)
        #expect(F.fired(actions).filter { $0.contains("/m1/") }.isEmpty)
        #expect(F.describe(actions).contains("adEnded m1 incomplete"))
    }

    @Test func aRefreshThatChangesTheAdPlayingDoesNotRestartIt() {
        var engine = AdEventEngine()
        var document = Self.live(breaks: [(id: "5", start: 120, date: "2026-11-24T19:22:00Z")])
        _ = engine.updateTracking(document)
        _ = F.play(&engine, from: 118, to: 135)
        // The origin returned to content early: the second ad is listed shorter.
        document.avails[0].ads[1] = F.ad("l5b", start: 130, duration: 12)
        document.avails[0].durationSeconds = 22
        document.avails[0].endedEarly = true
        #expect(F.describe(engine.updateTracking(document)).isEmpty)
        #expect(F.describe(F.play(&engine, from: 135.5, to: 138)) == ["midpoint l5b"])
        #expect(engine.currentAd?.id == "l5b")
    }

    @Test func eachLiveBreakIsReportedAsTheWindowMoves() {
        var engine = AdEventEngine()
        let first = (id: "1", start: 60.0, date: "2026-11-24T19:21:00Z")
        let second = (id: "2", start: 120.0, date: "2026-11-24T19:22:00Z")
        var actions = engine.updateTracking(Self.live(breaks: [first]))
        actions += F.play(&engine, from: 0, to: 100, date: Self.breakDate - 120)
        actions += engine.updateTracking(Self.live(breaks: [first, second]))
        actions += F.play(&engine, from: 100.5, to: 160, date: Self.breakDate - 19.5)
        // The first break leaves the window; nothing is reported again.
        actions += engine.updateTracking(Self.live(breaks: [second]))
        actions += F.play(&engine, from: 160.5, to: 170, date: Self.breakDate + 40.5)
        let started = F.describe(actions).filter {
            $0.hasPrefix("breakStarted") || $0.hasPrefix("breakEnded") || $0.hasPrefix("cuePoints")
        }
        #expect(
            started == [
                "cuePoints [60.0]", "breakStarted 1 ads=2", "breakEnded 1", "cuePoints [60.0, 120.0]",
                "breakStarted 2 ads=2", "breakEnded 2", "cuePoints [120.0]",
            ])
        #expect(F.fired(actions).count == 28)
    }
}
