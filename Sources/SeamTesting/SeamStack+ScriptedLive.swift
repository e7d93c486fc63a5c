import SeamDemo
import SeamServer

extension SeamStack {
    /// Seam and the demo servers, with `origin` served over loopback and the demo's pre-roll pod
    /// (ad1 10 s + ad2 15 s, its beacons in the demo's log) as the ad tag; `body` gets the stack
    /// and the channel's multivariant URL.
    package static func runLive(
        origin: ScriptedLiveOrigin, _ adjust: (inout SeamConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (SeamStack, _ channel: String) async throws -> Void
    ) async throws {
        try await runLive(origin: origin, configure: { configuration, _ in adjust(&configuration) }, body)
    }

    /// Like `runLive(origin:_:_:)`, for settings that name the demo servers (e.g. `ads.bumpers.*`).
    package static func runLive(
        origin: ScriptedLiveOrigin, configure: (inout SeamConfiguration, DemoServers) -> Void,
        _ body: @escaping @Sendable (SeamStack, _ channel: String) async throws -> Void
    ) async throws {
        try await run(adTag: { $0.adServer.baseURL + "/vast?pos=pre" }, configure: configure) { stack in
            try await origin.run { base in try await body(stack, base + "/master.m3u8") }
        }
    }
}

extension ScriptedLiveOrigin {
    /// A window of segments 9–14 whose segment 10 cues a 30 s break: a session created on it
    /// decides the break whole (the demo's pod fills 25 s of it) before its first playlist.
    package static func thirtySecondBreak() -> ScriptedLiveOrigin {
        let origin = ScriptedLiveOrigin()
        origin.update {
            $0.last = 14
            $0.cueOuts[10] = 30
        }
        return origin
    }
}
