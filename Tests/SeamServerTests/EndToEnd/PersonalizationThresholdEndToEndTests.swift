import Foundation
import HLS
import SeamTesting
import Testing

@testable import SeamServer

/// `ads.personalizationThreshold` on loopback: a 30 s live break the demo's pre-roll pod (ad1
/// 10 s + ad2 15 s) fills to 25 s. Under a 0.9 threshold it plays the origin's content with its
/// own skip reason, counted; under 0.8 the ads play.
@Suite struct PersonalizationThresholdEndToEndTests {
    func run(
        threshold: Double, _ body: @escaping @Sendable (SeamStack, [String: Any]) async throws -> Void
    )
        async throws
    {
        try await SeamStack.runLive(
            origin: .thirtySecondBreak(),
            {
                $0.ads.personalizationThreshold = threshold
                $0.ads.trackingMode = "server"
            }
        ) { stack, channel in
            try await body(stack, try await stack.createSession(url: channel))
        }
    }

    static func media(_ stack: SeamStack, _ session: [String: Any]) async throws -> String {
        let master = try #require(session["manifestUrl"] as? String)
        let variant = try #require(
            try MultivariantPlaylist(parsing: try await stack.request(master).body).variants.first)
        return try await stack.request(URIReference.resolve(variant.uri, against: master)).body
    }

    @Test("Under the threshold: content with its cue, PERSONALIZATION_THRESHOLD, both ads below_threshold, no beacon")
    func underTheThreshold() async throws {
        try await run(threshold: 0.9) { stack, session in
            let playlist = try await Self.media(stack, session)
            #expect(!playlist.contains("/ad/"), "\(playlist)")
            #expect(playlist.contains("#EXT-X-CUE-OUT"), "the break plays the origin's content, cues included")
            let tracking = try await stack.request(try #require(session["trackingUrl"] as? String)).json
            let avail = try #require((tracking["avails"] as? [[String: Any]])?.first)
            #expect(avail["skipReason"] as? String == "PERSONALIZATION_THRESHOLD", "\(avail)")
            #expect((avail["skipDetail"] as? String)?.contains("25 s of the 30 s break") == true, "\(avail)")
            let skipped = avail["skippedAds"] as? [[String: Any]] ?? []
            #expect(skipped.compactMap { $0["adId"] as? String } == ["ad1", "ad2"], "\(skipped)")
            #expect(skipped.allSatisfy { $0["code"] as? String == "below_threshold" }, "\(skipped)")
            let metrics = PrometheusText(try await stack.request("/metrics").body)
            #expect(metrics.sum("seam_ads_skipped_total", ["kind": "live", "reason": "below_threshold"]) == 2)
            #expect(
                metrics.sum(
                    "seam_avails_total", ["kind": "live", "outcome": "empty", "reason": "PERSONALIZATION_THRESHOLD"])
                    == 1)
            #expect(try await stack.beacons().isEmpty)
        }
    }

    @Test("At or over the threshold the ads play")
    func overTheThreshold() async throws {
        try await run(threshold: 0.8) { stack, session in
            let playlist = try await Self.media(stack, session)
            #expect(playlist.contains("/ad/0/0/"), "\(playlist)")
            #expect(playlist.contains("/ad/0/1/"), "\(playlist)")
        }
    }

    @Test("A threshold outside 0...1 is refused at startup, naming the key and the form")
    func refusedOutOfRange() throws {
        for value in ["1.5", "-0.1"] {
            #expect {
                try ConfigurationLoader(environment: ["SEAM_ADS_PERSONALIZATION_THRESHOLD": value]).load(yaml: nil)
            } throws: { error in
                let message = "\(error)"
                return message.contains("ads.personalizationThreshold") && message.contains("from 0")
            }
        }
        let loaded = try ConfigurationLoader(environment: ["SEAM_ADS_PERSONALIZATION_THRESHOLD": "0.5"]).load(yaml: nil)
        #expect(loaded.ads.personalizationThreshold == 0.5)
    }
}
