import Foundation
import NIOConcurrencyHelpers
import Stitching

/// Measures what a title's playlists leave unsaid (an audio sample rate, a frame rate, a
/// resolution): one segment of each variant and audio rendition is fetched from the origin through
/// the safe upstream client (with its initialization section for fMP4) and read by ffprobe, on a
/// local file only. Results are kept per rendition URL, so a title is probed once per replica.
///
/// A probe is not bound to the session start that asked for it: on a cold title whose origin is
/// slow it may outlast the ad budget, and it goes on (within `timeLimit`) so that the jobs it makes
/// possible start and later sessions find the ladder. Sessions asking while it runs join it: a
/// burst of session starts on a new title downloads each probed segment once.
struct ContentProber: Sendable {
    let upstream: any UpstreamFetching
    let process: ConditioningProcess
    let workDirectory: String
    /// How long one rendition's segment download may take, whoever waits for it.
    let timeLimit: Duration
    private let probes = NIOLockedValueBox(Probes())

    private struct Probes {
        var known: [String: ConditioningLadder.ProbedStream] = [:]
        var running: [String: Task<ConditioningLadder.ProbedStream?, Never>] = [:]
    }

    init(
        upstream: any UpstreamFetching, process: ConditioningProcess, workDirectory: String,
        timeLimit: Duration = .seconds(30)
    ) {
        self.upstream = upstream
        self.process = process
        self.workDirectory = workDirectory
        self.timeLimit = timeLimit
    }

    /// A probe of each variant and audio rendition of `content` (those that could be read).
    func probe(_ content: ContentSet) async -> [RenditionKey: ConditioningLadder.ProbedStream] {
        await withTaskGroup(of: (RenditionKey, ConditioningLadder.ProbedStream?).self) { group in
            for rendition in content.renditions where rendition.kind == .variant || rendition.kind == .audio {
                group.addTask { (rendition.key, await probe(rendition)) }
            }
            var probes: [RenditionKey: ConditioningLadder.ProbedStream] = [:]
            for await (key, probe) in group { if let probe { probes[key] = probe } }
            return probes
        }
    }

    /// The rendition's probe: known, joined while it runs, or started now.
    private func probe(_ rendition: ContentSet.Rendition) async -> ConditioningLadder.ProbedStream? {
        let url = rendition.sourceURL
        let lookup = probes.withLockedValue { current -> Lookup in
            if let known = current.known[url] { return .known(known) }
            if let running = current.running[url] { return .running(running) }
            // The task records its result under the lock, so it cannot end before it is listed.
            let task = Task { () -> ConditioningLadder.ProbedStream? in
                let measured = await measure(rendition)
                probes.withLockedValue { probes in
                    probes.running[url] = nil
                    guard let measured else { return }
                    if probes.known.count > 1000 { probes.known.removeAll() }
                    probes.known[url] = measured
                }
                return measured
            }
            current.running[url] = task
            return .running(task)
        }
        switch lookup {
        case .known(let known): return known
        case .running(let task): return await task.value
        }
    }

    private enum Lookup {
        case known(ConditioningLadder.ProbedStream)
        case running(Task<ConditioningLadder.ProbedStream?, Never>)
    }

    /// Downloads one segment of `rendition` and reads it with ffprobe.
    private func measure(_ rendition: ContentSet.Rendition) async -> ConditioningLadder.ProbedStream? {
        // A live window's oldest segments leave the origin first: probe its newest.
        guard
            let segment = rendition.playlist.endList
                ? rendition.playlist.segments.first : rendition.playlist.segments.last
        else { return nil }
        var urls = [segment.uri]
        if let map = segment.map { urls.insert(map.uri, at: 0) }
        let deadline = ContinuousClock.now + timeLimit
        var bytes = Data()
        for url in urls {
            guard
                let response = try? await upstream.fetch(
                    UpstreamRequest(
                        url: url, purpose: .conditioning, deadline: deadline,
                        sizeLimit: 32 << 20))
            else { return nil }
            bytes.append(contentsOf: response.body.readableBytesView)
        }
        // Read only as what its first bytes say it is (MediaContainer): never as a playlist.
        guard let container = MediaContainer.sniff(bytes) else { return nil }
        try? FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let file =
            workDirectory + "/.probe-" + WorkOwner.current.tag + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard FileManager.default.createFile(atPath: file, contents: bytes) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard
            let result = try? await process.run(
                "ffprobe",
                [
                    "-v", "error", "-protocol_whitelist", "file", "-f", container.demuxer,
                    "-print_format", "json", "-show_streams", file,
                ]),
            result.status == 0
        else { return nil }
        return Self.parse(result.standardOutput)
    }

    /// The first video and audio stream of ffprobe's `-show_streams` JSON.
    static func parse(_ json: Data) -> ConditioningLadder.ProbedStream? {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let streams = root["streams"] as? [[String: Any]]
        else { return nil }
        var probe = ConditioningLadder.ProbedStream()
        if let video = streams.first(where: { $0["codec_type"] as? String == "video" }) {
            probe.width = video["width"] as? Int
            probe.height = video["height"] as? Int
            if let rate = video["r_frame_rate"] as? String ?? video["avg_frame_rate"] as? String {
                let parts = rate.split(separator: "/")
                if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d > 0, n > 0 {
                    probe.frameRate = (n / d * 1000).rounded() / 1000
                }
            }
        }
        if let audio = streams.first(where: { $0["codec_type"] as? String == "audio" }) {
            probe.sampleRate = (audio["sample_rate"] as? String).flatMap { Int($0) }
            probe.channels = audio["channels"] as? Int
        }
        return probe
    }
}
