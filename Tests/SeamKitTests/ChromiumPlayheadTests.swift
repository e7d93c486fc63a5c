import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SeamDemo
import SeamKit
import SeamTesting
import Testing

/// SeamKit with a real player: Chromium plays a stitched session in its own `<video>`, and the
/// element's `currentTime` is SeamKit's playhead, sample by sample, as an app's player observer
/// would feed it. Each ad-started event must come while that ad's frames are on screen: the demo
/// ads are solid colours, and the harness reads the colour of each frame it samples.
@Suite(.heavyLong) struct ChromiumPlayheadTests {
    /// The frame colours of the demo title (top-left corner, as Chromium renders them).
    enum Picture: String, CaseIterable {
        case ad1, ad2, ad3, ad4, content

        var rgb: (Double, Double, Double) {
            switch self {
            case .ad1: return (178, 34, 34)
            case .ad2: return (31, 78, 158)
            case .ad3: return (30, 123, 52)
            case .ad4: return (122, 46, 142)
            case .content: return (192, 189, 149)
            }
        }

        /// The picture whose colour is nearest, when near enough to tell.
        static func of(_ rgb: [Double]) -> Picture? {
            guard rgb.count == 3 else { return nil }
            let scored = allCases.map { picture -> (Picture, Double) in
                let (r, g, b) = picture.rgb
                return (
                    picture,
                    ((rgb[0] - r) * (rgb[0] - r) + (rgb[1] - g) * (rgb[1] - g) + (rgb[2] - b) * (rgb[2] - b))
                        .squareRoot()
                )
            }
            guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 < 60 else { return nil }
            return best.0
        }
    }

    struct Sample: Sendable {
        var wall: Double
        var currentTime: Double
        var picture: Picture?
    }

    /// What SeamKit said, with the sample it said it on.
    final class Heard: SeamKitDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [(event: AdEvent, sample: Int)] = []
        var sampleIndex = 0

        func adEventStream(_ stream: AdEventStream, didEmit event: AdEvent) {
            lock.withLock { stored.append((event, sampleIndex)) }
        }

        var events: [(event: AdEvent, sample: Int)] { lock.withLock { stored } }
    }

    @Test("Chromium's <video> time as SeamKit's playhead: every ad starts while its frames are on screen")
    func adEventsFollowTheFramesOnScreen() async throws {
        guard Self.chromiumAvailable() else { return }
        // A minute of Chromium at 4x: one long browser run at a time in the test process.
        try await ChromiumGate.withChromium { try await self.playWithChromium() }
    }

    func playWithChromium() async throws {
        try await SeamStack.run { stack in
            let client = SeamClient(
                configuration: SeamKitConfiguration(seamBaseURL: try #require(URL(string: stack.seamBaseURL))),
                urlSession: URLSession(configuration: .ephemeral))
            let content = try #require(URL(string: stack.demo.contentURL))
            let session = try await client.startSession(
                contentURL: content, options: SessionOptions(trackingMode: .client)
            ).resolved
            let playhead = ManualPlayhead(duration: .finite(111), playing: false)
            // Chromium is polled about 4 times a second at 4x: a step of about 1.2 s is playback.
            let playback = SeamPlayback(
                session: session, playhead: playhead,
                configuration: .init(sampleInterval: nil, maxStep: 4))
            let heard = Heard()
            playback.stream.delegate = heard
            await playback.start()

            var samples: [Sample] = []
            var other: [String] = []
            let lines = try await Self.launch([
                "scripts/players/chromium_play.py", session.playbackURL.absoluteString, "--rate", "4",
                "--gap-jump", "0.5", "--samples", "--json", "--timeout", "150",
            ])
            for await line in lines {
                guard line.hasPrefix("SAMPLE "),
                    let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(7).utf8))
                        as? [String: Any],
                    let time = object["currentTime"] as? Double
                else {
                    other.append(line)
                    continue
                }
                let rgb = (object["rgb"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
                samples.append(Sample(wall: object["t"] as? Double ?? 0, currentTime: time, picture: Picture.of(rgb)))
                heard.sampleIndex = samples.count - 1
                playhead.currentTime = time
                playhead.isPlaying = (object["paused"] as? Bool) == false
                await playback.sample()
            }
            await playback.stop()
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(other.joined(separator: "\n").utf8)) as? [String: Any],
                "no summary from the harness: \(other.suffix(20))")
            #expect(summary["ended"] as? Bool == true, "\(other.suffix(20))")

            let started = heard.events.compactMap { item -> (AdInfo, Int)? in
                if case .adStarted(let ad) = item.event { return (ad, item.sample) }
                return nil
            }
            #expect(started.map(\.0.id) == ["ad1", "ad2", "ad3", "ad4"])
            for (ad, index) in started {
                let picture = try #require(Picture(rawValue: ad.id))
                // SeamKit said "started" on a sample inside the ad's time range...
                let at = samples[index].currentTime
                #expect(
                    at >= ad.start - 0.05 && at < ad.start + ad.duration,
                    "\(ad.id) started at \(at), its range \(ad.start)...")
                // ...and the ad's frames were on screen then: the first frame read at or after it
                // (a frame sampled exactly at the splice may still be the last one before it).
                let shown = samples[index...].first { $0.picture != nil && $0.currentTime >= ad.start + 0.2 }
                #expect(
                    shown?.picture == picture,
                    "\(ad.id): frame at \(shown?.currentTime ?? -1) is \(String(describing: shown?.picture))")
                // The harness reads a frame per poll (about 1.2 s of media at 4x, 2.7 s seen under
                // stress-suite with a core busy): how soon depends on the machine, that it is read
                // while this ad still plays does not.
                #expect(
                    (shown?.currentTime ?? .infinity) < ad.start + ad.duration,
                    "\(ad.id): no frame read before its end (\(ad.start + ad.duration))")
                // Every frame read well inside the ad is the ad; none of it shows elsewhere.
                let inside = samples.filter {
                    $0.currentTime > ad.start + 0.5 && $0.currentTime < ad.start + ad.duration - 0.5
                }
                // At least one (so the check below is not empty): how many depends on how often a
                // loaded machine lets the harness poll (about 8 at 4x when idle, 2 seen with a core busy).
                #expect(!inside.isEmpty, "\(ad.id): no frame read inside the ad")
                #expect(
                    inside.allSatisfy { $0.picture == picture },
                    "\(ad.id): \(inside.map { "\($0.currentTime) \(String(describing: $0.picture))" })")
            }
            // Between the breaks SeamKit reported, the content is on screen.
            let breaks = heard.events.compactMap { item -> BreakInfo? in
                if case .breakStarted(let info) = item.event { return info }
                return nil
            }
            let contentSamples = samples.filter { sample in
                sample.currentTime > 1
                    && breaks.allSatisfy {
                        sample.currentTime < $0.start - 0.5 || sample.currentTime > $0.start + $0.duration + 0.5
                    }
            }
            #expect(contentSamples.count >= 10)
            let misplaced = contentSamples.filter { $0.picture != Picture.content }.map(\.currentTime)
            #expect(misplaced.isEmpty, "not content at \(misplaced)")
            // The client beacons SeamKit fired reached the ad server once each.
            await playback.stream.flushBeacons()
            let snapshot = await stack.demo.beaconLog.snapshot()
            for ad in ["ad1", "ad2", "ad3", "ad4"] { #expect(snapshot.counts["/track/\(ad)/impression"] == 1, "\(ad)") }
        }
    }

    static func chromiumAvailable() -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/chromium")
        }
        if found { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("chromium is not installed, and CI=true requires every player")
        } else {
            print("skipped: Chromium playhead test (chromium is not installed; .ci/run installs it)")
        }
        return false
    }

    /// Starts `python3 arguments...` and streams its standard output line by line (read on a
    /// thread of its own: the harness blocks between polls).
    static func launch(_ arguments: [String]) async throws -> AsyncStream<String> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try await DescriptorFloodGate.launchFromTask { try process.run() }
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var buffer = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            if !buffer.isEmpty { continuation.yield(String(decoding: buffer, as: UTF8.self)) }
            process.waitUntilExit()
            continuation.finish()
        }
        return lines
    }
}
