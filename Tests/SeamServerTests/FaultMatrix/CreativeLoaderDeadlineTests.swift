import Foundation
import Testing
@testable import SeamServer

/// Two session starts want the same creative: the second joins the first one's fetch, but never
/// waits past its own ad budget for it (the first may have a later deadline).
@Suite(.timeLimit(.minutes(1))) struct CreativeLoaderDeadlineTests {
    @Test func aJoinedFetchIsWaitedForOnlyUntilTheJoinersDeadline() async throws {
        let upstream = ScriptedOrigin(.body("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n"))
        upstream.hold()
        let loader = CreativeLoader(upstream: upstream)
        let url = "http://ads.example/creative.m3u8"
        let first = Task { await loader.load(url, deadline: .now + .seconds(30)) }
        #expect(await liveEventually { upstream.calls == 1 })
        let started = ContinuousClock.now
        let joined = await loader.load(url, deadline: .now + .milliseconds(300))
        let waited = ContinuousClock.now - started
        guard case .failure(let error) = joined else {
            Issue.record("the joiner got the creative while its fetch was still held")
            return
        }
        #expect(error.description.contains("ad budget"), "\(error)")
        #expect(waited < .seconds(3), "the joiner waited \(waited)")
        #expect(upstream.calls == 1, "the joiner did not fetch again")
        upstream.release()
        guard case .success = await first.value else {
            Issue.record("the first start lost its creative")
            return
        }
    }
}
