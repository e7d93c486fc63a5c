import Foundation
import SeamKit
import Testing

@Suite struct PlayheadTests {
    @Test(arguments: [
        (seconds: 120.0, expected: PlayheadDuration.finite(120)),
        (seconds: 0.0, expected: .finite(0)),
        (seconds: .infinity, expected: .infinite),
        (seconds: .nan, expected: .infinite),
        (seconds: -1.0, expected: .infinite),
    ])
    func durationFromPlayerSeconds(seconds: Double, expected: PlayheadDuration) {
        #expect(PlayheadDuration(seconds: seconds) == expected)
        #expect(PlayheadDuration(seconds: seconds).isLive == (expected == .infinite))
    }

    @Test func aManualPlayheadStopsAtTheEndOfAFiniteTitle() {
        let playhead = ManualPlayhead(time: 108, duration: .finite(110), playing: true)
        playhead.advance(by: 1.5)
        #expect(playhead.currentTime == 109.5)
        #expect(playhead.isPlaying)
        playhead.advance(by: 1.5)
        #expect(playhead.currentTime == 110)
        #expect(!playhead.isPlaying)
    }

    @Test func aManualLivePlayheadMovesItsDateWithItsTime() {
        let playhead = ManualPlayhead(time: 8, duration: .infinite, playing: true, date: 1_000)
        playhead.advance(by: 2)
        #expect(playhead.currentTime == 10)
        #expect(playhead.currentDate == 1_002)
        playhead.volume = 3
        #expect(playhead.volume == 1)
    }

    @Test func aLivePlayheadFeedsBreaksByProgramDateTime() async {
        let breakDate = 1_795_548_120.0  // 2026-11-24T19:22:00Z
        var avail = AdEventFixtures.avail(
            "9", position: "live", cue: 120, ads: [AdEventFixtures.ad("x", start: 120, duration: 10)])
        avail.programDateTime = "2026-11-24T19:22:00Z"
        let document = TrackingDocument(
            sessionId: "l", trackingMode: .client, durationSeconds: 300, avails: [avail], cuePoints: [120])
        let stream = AdEventStream(beacons: nil)
        stream.updateTracking(document)
        // The player's own time (3 s into its window) is far from 120; its date is 2 s before the break.
        let playhead = ManualPlayhead(time: 3, duration: .infinite, playing: true, date: breakDate - 2)
        stream.sample(playhead)
        for _ in 0..<30 {
            playhead.advance(by: 0.5)
            stream.sample(playhead)
        }
        stream.finish()
        var names: [String] = []
        for await event in stream.events {
            switch event {
            case .breakStarted(let info): names.append("breakStarted \(info.id)")
            case .adEnded(let ad, let completed): names.append("adEnded \(ad.id) \(completed)")
            case .breakEnded(let info): names.append("breakEnded \(info.id)")
            default: continue
            }
        }
        #expect(names == ["breakStarted 9", "adEnded x true", "breakEnded 9"])
    }
}
