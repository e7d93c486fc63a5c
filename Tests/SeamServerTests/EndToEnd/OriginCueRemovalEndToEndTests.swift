import Foundation
import HLS
import SeamTesting
import Testing

@testable import SeamServer

/// `sessions.removeOriginCues` on a live channel over loopback: a 30 s break cued at segment 10
/// (`CUE-OUT`, `CUE-OUT-CONT` through 14, `CUE-IN` at 15, and an SCTE-35 date range written ahead
/// on segment 9) filled with the demo's pre-roll pod (25 s, no slate).
@Suite struct OriginCueRemovalEndToEndTests {
    func run(
        remove: Bool, threshold: Double = 0, _ body: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        let origin = ScriptedLiveOrigin()
        origin.update {
            $0.windowSize = 8
            $0.last = 16
            $0.cueOuts[10] = 30
            for k in 11...14 { $0.tags[k] = ["#EXT-X-CUE-OUT-CONT:ElapsedTime=\((k - 10) * 6),Duration=30"] }
            $0.tags[15] = ["#EXT-X-CUE-IN"]
            $0.dateRangesAhead[9] = (id: "splice-1", start: 10, planned: 30)
        }
        try await SeamStack.runLive(
            origin: origin,
            {
                $0.sessions.removeOriginCues = remove
                $0.ads.personalizationThreshold = threshold
            }
        ) { stack, channel in
            let session = try await stack.createSession(url: channel)
            let master = try #require(session["manifestUrl"] as? String)
            let variant = try #require(
                try MultivariantPlaylist(parsing: try await stack.request(master).body).variants.first)
            let answer = try await stack.request(URIReference.resolve(variant.uri, against: master))
            #expect(answer.status == 200)
            #expect(PlaylistValidator.validate(answer.body).diagnostics.filter { $0.severity == .error }.isEmpty)
            try await body(answer.body)
        }
    }

    @Test("On: the filled break's cue tags and its SCTE-35 date range are gone, the ads are there")
    func removed() async throws {
        try await run(remove: true) { playlist in
            #expect(playlist.contains("/ad/0/1/"), "\(playlist)")
            #expect(!playlist.contains("#EXT-X-CUE"), "\(playlist)")
            #expect(!playlist.contains("SCTE35-OUT"), "\(playlist)")
        }
    }

    @Test("Off: they stay (the default)")
    func kept() async throws {
        try await run(remove: false) { playlist in
            #expect(playlist.contains("/ad/0/1/"))
            #expect(playlist.contains("#EXT-X-CUE-IN"), "\(playlist)")
            #expect(playlist.contains("SCTE35-OUT"), "\(playlist)")
        }
    }

    @Test("On, but the break plays content (under the personalization threshold): its signals stay")
    func unfilledKeepsItsSignals() async throws {
        try await run(remove: true, threshold: 0.95) { playlist in
            #expect(!playlist.contains("/ad/"))
            #expect(playlist.contains("#EXT-X-CUE-OUT:30"), "\(playlist)")
            #expect(playlist.contains("#EXT-X-CUE-IN"), "\(playlist)")
            #expect(playlist.contains("SCTE35-OUT"), "\(playlist)")
        }
    }
}
