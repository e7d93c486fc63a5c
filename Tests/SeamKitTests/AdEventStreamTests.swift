import Foundation
import SeamKit
import Testing

/// Counts what would have been sent, as an ad server would.
final class CountingBeacons: BeaconFiring, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [String] = []
    var urls: [String] { lock.withLock { received } }

    func fire(_ urls: [URL]) async {
        lock.withLock { received += urls.map(\.absoluteString) }
    }
}

final class RecordingDelegate: SeamKitDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [AdEvent] = []
    var events: [AdEvent] { lock.withLock { received } }

    func adEventStream(_ stream: AdEventStream, didEmit event: AdEvent) {
        lock.withLock { received.append(event) }
    }
}

@Suite struct AdEventStreamTests {
    typealias F = AdEventFixtures

    @Test func theStreamAndTheDelegateHearTheSameEventsAndEachBeaconReachesTheServerOnce() async {
        let beacons = CountingBeacons()
        let delegate = RecordingDelegate()
        let stream = AdEventStream(beacons: beacons)
        stream.delegate = delegate
        let playhead = ManualPlayhead(duration: .finite(110), playing: true)
        stream.updateTracking(F.demo())
        stream.sample(playhead)
        while playhead.isPlaying {
            playhead.advance(by: 0.5)
            stream.sample(playhead)
        }
        // Rewatch the pre-roll: events again, no beacon again.
        stream.seek(to: 0)
        for time in stride(from: 0.5, through: 30, by: 0.5) { stream.playhead(time: time, playing: true) }
        stream.finish()
        var streamed: [AdEvent] = []
        for await event in stream.events { streamed.append(event) }
        await stream.flushBeacons()

        #expect(streamed == delegate.events)
        let starts = streamed.compactMap { event -> String? in
            if case .adStarted(let ad) = event { return ad.id }
            return nil
        }
        #expect(starts == ["p1", "p2", "m1", "o1", "p1", "p2"])
        #expect(beacons.urls.count == 30)
        #expect(Set(beacons.urls).count == 30)
    }

    @Test func withoutABeaconFirerNothingIsSentButEventsFlow() async {
        let stream = AdEventStream(beacons: nil)
        stream.updateTracking(F.demo())
        for time in stride(from: 0.0, through: 12, by: 0.5) { stream.playhead(time: time, playing: true) }
        stream.finish()
        var count = 0
        for await event in stream.events {
            if case .tracking = event { count += 1 }
        }
        await stream.flushBeacons()
        #expect(count == 8)
    }
}
