import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing
import SeamTesting
@testable import SeamServer

/// Content that would cost one session too much (too many renditions, too many segments, too many
/// bytes) is refused with `502 ORIGIN_INVALID_PLAYLIST` naming the cap and its setting, quickly and
/// without holding the content in memory (docs/configuration.md#budgets).
///
/// Heavy tier: the heap is measured process-wide, and reading glibc's statistics takes every
/// arena's lock, which every other test's allocations then wait for.
@Suite(.heavyAlone) struct SessionCostLimitTests {
    static func start(_ stack: SeamStack, _ url: String) async throws -> SeamStack.Answer {
        try await stack.request("/v1/sessions", method: .POST, json: ["url": url])
    }

    /// The heap grown above `baseline` at its highest while `work` ran, sampled every 20 ms (each
    /// sample walks every malloc arena under its lock: sampled every 2 ms, it slowed the whole
    /// test process for seconds).
    static func peakHeapGrowth<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> (T, Int) {
        let baseline = try #require(HeapUsage.bytesInUse())
        let done = NIOLockedValueBox(false)
        let sampler = Task {
            var peak = baseline
            while !done.withLockedValue({ $0 }) {
                peak = max(peak, HeapUsage.bytesInUse() ?? 0)
                try? await Task.sleep(for: .milliseconds(20))
            }
            return peak
        }
        let value: T
        do {
            value = try await work()
        } catch {
            done.withLockedValue { $0 = true }
            _ = await sampler.value
            throw error
        }
        done.withLockedValue { $0 = true }
        return (value, await sampler.value - baseline)
    }

    /// A 440-byte multivariant playlist of 10 variants whose media playlists list 100,000 segments
    /// each (~157 MB of session before the caps): refused at the first 20,001 segments of a playlist,
    /// within a second or two, with the heap growing by a small part of that; the failed start's
    /// place in the store is given back (with `sessions.maxSessions` = 1 the next start gets it).
    @Test func tenVariantsOfAHundredThousandSegmentsAreRefusedQuicklyAndCheaply() async throws {
        let huge = FaultServer.Route(body: ByteBuffer(string: FaultMedia.vod(segments: 100_000)))
        var routes: [String: FaultServer.Route] = [
            "/huge/master.m3u8": .text(FaultMedia.multivariant(variants: 10)),
            "/small/index.m3u8": .text(FaultMedia.vod(segments: 10)),
        ]
        for index in 0..<10 { routes["/huge/v\(index).m3u8"] = huge }
        let server = FaultServer(routes)
        try await server.run { base in
            try await SeamStack.run({
                $0.ads.adTagURL = ""
                $0.sessions.maxSessions = 1
            }) { stack in
                let started = ContinuousClock.now
                let (answer, growth) = try await Self.peakHeapGrowth {
                    try await Self.start(stack, base + "/huge/master.m3u8")
                }
                let elapsed = ContinuousClock.now - started
                #expect(answer.status == 502)
                #expect(answer.errorCode == "ORIGIN_INVALID_PLAYLIST")
                #expect(answer.body.contains("sessions.maxSegmentsPerPlaylist"), "\(answer.body)")
                #expect(elapsed < .seconds(15), "refused after \(elapsed)")  // a hang guard
                // Process-wide, while other suites run: uncapped, the same start grew it by ~347 MiB.
                #expect(growth < 96 << 20, "the heap grew by \(growth >> 20) MiB")

                let next = try await Self.start(stack, base + "/small/index.m3u8")
                #expect(next.status == 201, "the failed start kept its place: \(next.body)")
            }
        }
    }

    /// Segments are counted as the parser makes them, from URI lines, `#EXTINF` or not: a body of
    /// a million bare URI lines is refused like a million tagged segments.
    @Test func bareURILinesCountAsSegments() async throws {
        let bare =
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n" + String(repeating: "a\n", count: 1_000_000)
        let server = FaultServer(["/bare.m3u8": .text(bare)])
        try await server.run { base in
            try await SeamStack.run({ $0.ads.adTagURL = "" }) { stack in
                let answer = try await Self.start(stack, base + "/bare.m3u8")
                #expect(answer.status == 502, "\(answer.body)")
                #expect(answer.body.contains("sessions.maxSegmentsPerPlaylist"), "\(answer.body)")
            }
        }
    }

    /// A multivariant playlist listing more renditions than `sessions.maxRenditions`: refused
    /// before any of its media playlists is fetched.
    @Test func tooManyRenditionsAreRefusedBeforeAnyMediaPlaylistIsFetched() async throws {
        let server = FaultServer([
            "/many/master.m3u8": .text(FaultMedia.multivariant(variants: 200)),
            "/many/": .text(FaultMedia.vod(segments: 10)),
        ])
        try await server.run { base in
            try await SeamStack.run({ $0.ads.adTagURL = "" }) { stack in
                let answer = try await Self.start(stack, base + "/many/master.m3u8")
                #expect(answer.status == 502)
                #expect(answer.errorCode == "ORIGIN_INVALID_PLAYLIST")
                #expect(answer.body.contains("sessions.maxRenditions"), "\(answer.body)")
                #expect(answer.body.contains("200 renditions"), "\(answer.body)")
                #expect(server.requests("/many/v") == 0)
            }
        }
    }

    /// Four renditions of 140 KB each against a 300,000-byte `sessions.maxContentBytes`, and one
    /// playlist over `upstream.maxPlaylistBytes`: each refused naming its setting.
    @Test func playlistsOverTheByteCapsAreRefusedNamingTheSetting() async throws {
        let medium = FaultServer.Route(body: ByteBuffer(string: FaultMedia.vod(segments: 5_000)))
        var routes: [String: FaultServer.Route] = [
            "/wide/master.m3u8": .text(FaultMedia.multivariant(variants: 4)),
            "/single/index.m3u8": medium,
        ]
        for index in 0..<4 { routes["/wide/v\(index).m3u8"] = medium }
        let server = FaultServer(routes)
        try await server.run { base in
            try await SeamStack.run({
                $0.ads.adTagURL = ""
                $0.sessions.maxContentBytes = 300_000
            }) { stack in
                let wide = try await Self.start(stack, base + "/wide/master.m3u8")
                #expect(wide.status == 502)
                #expect(wide.errorCode == "ORIGIN_INVALID_PLAYLIST")
                #expect(wide.body.contains("sessions.maxContentBytes"), "\(wide.body)")
            }
            try await SeamStack.run({
                $0.ads.adTagURL = ""
                $0.upstream.maxPlaylistBytes = 100_000
            }) { stack in
                let single = try await Self.start(stack, base + "/single/index.m3u8")
                #expect(single.status == 502)
                #expect(single.errorCode == "ORIGIN_INVALID_PLAYLIST")
                #expect(single.body.contains("upstream.maxPlaylistBytes"), "\(single.body)")
            }
        }
    }
}
