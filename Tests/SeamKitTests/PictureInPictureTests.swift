import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SeamDemo
import SeamKit
import SeamTesting
import Testing

/// A picture-in-picture session from SeamKit against a real Seam: the main's ads without a new
/// ad request, its own playhead, and no beacon counted twice though both windows play every ad.
@Suite struct PictureInPictureTests {
    @Test("A pip session shares the main's decisions and the ad server sees no duplicate beacon")
    func pipSharesDecisionsAndBeacons() async throws {
        try await SeamStack.run { stack in
            let client = SeamClient(
                configuration: SeamKitConfiguration(seamBaseURL: try #require(URL(string: stack.seamBaseURL))),
                urlSession: URLSession(configuration: .ephemeral))
            let content = try #require(URL(string: stack.demo.contentURL))
            let main = try await client.startSession(
                contentURL: content, options: SessionOptions(trackingMode: .client)
            ).resolved
            let adRequests = await stack.demo.beaconLog.snapshot().adRequests.count

            let pip = try await client.startPictureInPicture(of: main).resolved
            #expect(pip.sessionID != main.sessionID)
            #expect(
                await stack.demo.beaconLog.snapshot().adRequests.count == adRequests,
                "the pip asked the ad server again")
            let mainTracking = try await main.handle.tracking()
            let pipTracking = try await pip.handle.tracking()
            #expect(pipTracking.pipOf == main.sessionID)
            #expect(mainTracking.pipOf == nil)
            #expect(pipTracking.cuePoints == mainTracking.cuePoints)
            #expect(pipTracking.avails.map(\.availId) == mainTracking.avails.map(\.availId))
            #expect(pipTracking.avails.map { $0.ads.map(\.adId) } == mainTracking.avails.map { $0.ads.map(\.adId) })
            #expect(pip.beaconLedger === main.beaconLedger)

            // Both windows play the whole title, the pip 20 s behind: every ad twice on screen.
            let mainPlayhead = ManualPlayhead(duration: .finite(111), playing: true)
            let pipPlayhead = ManualPlayhead(duration: .finite(111), playing: true)
            let configuration = SeamPlayback.Configuration(sampleInterval: nil)
            let mainPlayback = SeamPlayback(session: main, playhead: mainPlayhead, configuration: configuration)
            let pipPlayback = SeamPlayback(session: pip, playhead: pipPlayhead, configuration: configuration)
            await mainPlayback.start()
            await pipPlayback.start()
            var mainStarts = 0
            var pipStarts = 0
            let counter = Task {
                for await event in mainPlayback.events { if case .adStarted = event { mainStarts += 1 } }
                return mainStarts
            }
            let pipCounter = Task {
                for await event in pipPlayback.events { if case .adStarted = event { pipStarts += 1 } }
                return pipStarts
            }
            for step in 0...262 {
                let time = Double(step) * 0.5
                mainPlayhead.currentTime = min(time, 111)
                pipPlayhead.currentTime = min(max(time - 20, 0), 111)
                await mainPlayback.sample()
                await pipPlayback.sample()
            }
            await mainPlayback.stop()
            await pipPlayback.stop()
            #expect(await counter.value == 4)
            #expect(await pipCounter.value == 4)
            let snapshot = await stack.demo.beaconLog.snapshot()
            for ad in ["ad1", "ad2", "ad3", "ad4"] {
                for event in ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
                    #expect(snapshot.counts["/track/\(ad)/\(event)"] == 1, "\(ad) \(event)")
                }
            }
            #expect(snapshot.counts.values.allSatisfy { $0 == 1 }, "\(snapshot.counts.filter { $0.value > 1 })")
        }
    }
}
