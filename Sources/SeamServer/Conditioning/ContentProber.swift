import Foundation
import NIOConcurrencyHelpers
import Stitching

/// Measures what a title's playlists leave unsaid (an audio sample rate, a frame rate, a
/// resolution): one segment of each variant and audio rendition is fetched from the origin through
/// the safe upstream client (with its initialization section for fMP4) and read by ffprobe, on a
/// local file only. Results are kept per rendition URL, so a title is probed once per replica.
struct ContentProber: Sendable {
    let upstream: any UpstreamFetching
    let process: ConditioningProcess
    let workDirectory: String
    private let known = NIOLockedValueBox<[String: ConditioningLadder.ProbedStream]>([:])

    init(upstream: any UpstreamFetching, process: ConditioningProcess, workDirectory: String) {
        self.upstream = upstream
        self.process = process
        self.workDirectory = workDirectory
    }

    /// A probe of each variant and audio rendition of `content` (those that could be read).
    func probe(_ content: ContentSet, deadline: ContinuousClock.Instant) async -> [RenditionKey: ConditioningLadder.ProbedStream] {
        await withTaskGroup(of: (RenditionKey, ConditioningLadder.ProbedStream?).self) { group in
            for rendition in content.renditions where rendition.kind == .variant || rendition.kind == .audio {
                group.addTask { (rendition.key, await probe(rendition, deadline: deadline)) }
            }
            var probes: [RenditionKey: ConditioningLadder.ProbedStream] = [:]
            for await (key, probe) in group { if let probe { probes[key] = probe } }
            return probes
        }
    }

    private func probe(_ rendition: ContentSet.Rendition, deadline: ContinuousClock.Instant) async -> ConditioningLadder.ProbedStream? {
        if let cached = known.withLockedValue({ $0[rendition.sourceURL] }) { return cached }
        // A live window's oldest segments leave the origin first: probe its newest.
        guard let segment = rendition.playlist.endList ? rendition.playlist.segments.first : rendition.playlist.segments.last else { return nil }
        var urls = [segment.uri]
        if let map = segment.map { urls.insert(map.uri, at: 0) }
        var bytes = Data()
        for url in urls {
            guard let response = try? await upstream.fetch(UpstreamRequest(url: url, purpose: .conditioning, deadline: deadline,
                                                                           sizeLimit: 32 << 20)) else { return nil }
            bytes.append(contentsOf: response.body.readableBytesView)
        }
        try? FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let file = workDirectory + "/.probe-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard FileManager.default.createFile(atPath: file, contents: bytes) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard let result = try? await process.run("ffprobe", ["-v", "error", "-protocol_whitelist", "file", "-print_format", "json",
                                                              "-show_streams", file]),
              result.status == 0, let probe = Self.parse(result.standardOutput) else { return nil }
        known.withLockedValue { known in
            if known.count > 1000 { known.removeAll() }
            known[rendition.sourceURL] = probe
        }
        return probe
    }

    /// The first video and audio stream of ffprobe's `-show_streams` JSON.
    static func parse(_ json: Data) -> ConditioningLadder.ProbedStream? {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
              let streams = root["streams"] as? [[String: Any]] else { return nil }
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
