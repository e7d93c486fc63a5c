import Foundation
import SeamTesting
import Testing
@testable import SeamServer

/// Two session starts want the same creative: the second joins the first one's fetch, but never
/// waits past its own ad budget for it (the first may have a later deadline).
@Suite(.timeLimit(.minutes(1))) struct CreativeLoaderDeadlineTests {
    @Test func aJoinedFetchIsWaitedForOnlyUntilTheJoinersDeadline() async throws {
        let upstream = ScriptedOrigin(
            .body("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n"))
        upstream.hold()
        // Deadlines are on the test's clock: the joiner's passes when the test moves it.
        let clock = TestClock()
        let loader = CreativeLoader(upstream: upstream, clock: clock.seamClock)
        let url = "http://ads.example/creative.m3u8"
        let first = Task { await loader.load(url, deadline: clock.now + .seconds(30)) }
        #expect(await liveEventually { upstream.calls == 1 })
        let joiner = Task { await loader.load(url, deadline: clock.now + .milliseconds(300)) }
        // Both wait on the clock (the first for its 30 s, the joiner for its 300 ms); 300 ms pass.
        #expect(await clock.waitForSleepers(2))
        clock.advance(.milliseconds(300))
        let joined = await joiner.value
        guard case .failure(let error) = joined else {
            Issue.record("the joiner got the creative while its fetch was still held")
            return
        }
        #expect(error.description.contains("ad budget"), "\(error)")
        #expect(upstream.calls == 1, "the joiner did not fetch again")
        upstream.release()
        guard case .success = await first.value else {
            Issue.record("the first start lost its creative")
            return
        }
    }
}
