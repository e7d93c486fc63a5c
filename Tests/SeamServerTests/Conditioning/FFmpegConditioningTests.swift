import Foundation
import HLS
import SeamTesting
import Stitching
import Testing
@testable import SeamServer

/// The conditioning command lines run by the real ffmpeg on a made-up MP4 creative, and ffprobe
/// reading back what came out: each rendition in its content counterpart's codec, profile, level,
/// size, frame rate, sample rate and channels, segments no longer than the content's target
/// duration, a key frame at each segment start. Skipped (and said why) without ffmpeg; a failure
/// under CI=true.
@Suite(.heavy) struct FFmpegConditioningTests {
    /// A creative as ad servers send them: 320x240 (4:3) at 30 fps, and (optionally) 44.1 kHz mono.
    static func makeCreative(in directory: URL, seconds: Int = 8, audio: Bool = true) async throws -> URL {
        let output = directory.appendingPathComponent("creative.mp4")
        var arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=\(seconds)",
        ]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(seconds)"] }
        arguments += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "300"]
        if audio { arguments += ["-c:a", "aac", "-ac", "1"] }
        arguments.append(output.path)
        // At the lowest priority: the other suites running beside this one keep their timing.
        let run = try await PlayerTools.runAsync("nice", ["-n", "19", "ffmpeg"] + arguments, timeout: 60)
        try #require(run.status == 0, "ffmpeg could not make the test creative")
        return output
    }

    static func ladder(
        _ text: String, fmp4: Bool, probes: [RenditionKey: ConditioningLadder.ProbedStream]
    ) throws -> ConditioningLadder {
        let multivariant = try MultivariantPlaylist(parsing: text)
        let renditions = ContentSet.wanted(in: multivariant).map { wanted in
            var media = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n"
            if fmp4 { media += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
            media += "#EXTINF:4,\ns0.\(fmp4 ? "m4s" : "ts")\n#EXT-X-ENDLIST\n"
            return ContentSet.Rendition(
                key: wanted.key, variant: wanted.variant, rendition: wanted.rendition,
                playlist: try! MediaPlaylist(parsing: media), sourceURL: wanted.uri)
        }
        let content = try #require(ContentSet(multivariant: multivariant, renditions: renditions))
        return try ConditioningLadder.of(content, probes: probes).get()
    }

    /// ffprobe's view of a stream of a conditioned playlist.
    static func probe(_ playlist: String) async throws -> [String: Any] {
        let run = try await PlayerTools.runAsync(
            "ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", playlist], timeout: 60)
        try #require(run.status == 0, "ffprobe could not read \(playlist)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }

    static func streams(_ probe: [String: Any], type: String) -> [[String: Any]] {
        ((probe["streams"] as? [[String: Any]]) ?? []).filter { $0["codec_type"] as? String == type }
    }

    static func run(_ command: FFmpegConditioningCommand) async throws {
        let run = try await PlayerTools.runAsync("nice", ["-n", "19", "ffmpeg"] + command.arguments, timeout: 120)
        try #require(run.status == 0, "ffmpeg failed: \(command.arguments.joined(separator: " "))")
    }

    @Test(
        "A muxed MPEG-TS variant (the demo's 360p), on one thread: H.264 Main 3.0, 640x360 padded from 4:3, 25 fps, AAC 48 kHz stereo, 4 s segments each starting on a key frame"
    )
    func muxedTS() async throws {
        guard PlayerTools.require("ffmpeg", for: "conditioning with ffmpeg"),
            PlayerTools.require("ffprobe", for: "conditioning with ffmpeg")
        else { return }
        // ffmpeg is heavy work: one at a time with the Chromium runs (ChromiumGate) on 2 cores.
        try await ChromiumGate.withChromium { try await muxedTSRun() }
    }

    func muxedTSRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-condition-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let creative = try await Self.makeCreative(in: directory)
        let ladder = try Self.ladder(
            """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=466400,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=25.000
            360p/index.m3u8

            """, fmp4: false, probes: [RenditionKey(.variant, 0): .init(sampleRate: 48_000, channels: 2)])
        let output = directory.appendingPathComponent("v0").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // One thread (conditioning.threads): for the filters and the decoder before the input, for the encoder after it.
        let command = FFmpegConditioningCommand.video(
            input: creative.path, variant: ladder.variants[0], ladder: ladder, directory: output,
            inputHasAudio: true, inputSeconds: 8, maxInputSeconds: 120, threads: 1)
        #expect(command.arguments.contains("-protocol_whitelist"))
        let input = try #require(command.arguments.firstIndex(of: "-i"))
        #expect(
            Array(command.arguments[(input - 2)..<input]) == ["-f", "mp4"],
            "the creative is read as an MP4 and nothing else")
        #expect(command.arguments[..<input].joined(separator: " ").contains("-filter_threads 1 -threads 1"))
        #expect(command.arguments[input...].joined(separator: " ").contains("-threads 1"))
        try await Self.run(command)

        let media = try MediaPlaylist(parsing: try String(contentsOfFile: command.playlistPath, encoding: .utf8))
        #expect(media.targetDuration <= 4)
        #expect(media.segments.map(\.duration).reduce(0, +) > 7.9)
        #expect(media.segments.allSatisfy { $0.duration <= 4.05 }, "\(media.segments.map(\.duration))")
        #expect(media.segments.first?.map == nil)

        let probe = try await Self.probe(command.playlistPath)
        let video = try #require(Self.streams(probe, type: "video").first)
        #expect(video["codec_name"] as? String == "h264")
        #expect(video["profile"] as? String == "Main")
        #expect(video["level"] as? Int == 30)
        #expect(video["width"] as? Int == 640)
        #expect(video["height"] as? Int == 360)
        #expect(video["r_frame_rate"] as? String == "25/1")
        let audio = try #require(Self.streams(probe, type: "audio").first)
        #expect(audio["codec_name"] as? String == "aac")
        #expect(audio["sample_rate"] as? String == "48000")
        #expect(audio["channels"] as? Int == 2)

        // Each segment starts on a key frame: the first video packet of every segment file is one.
        for segment in media.segments {
            let path = directory.appendingPathComponent("v0").appendingPathComponent(segment.uri).path
            let run = try await PlayerTools.runAsync(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags",
                    "-read_intervals", "%+#1", "-of", "csv=p=0", path,
                ], timeout: 30)
            #expect(run.output.hasPrefix("K"), "\(segment.uri) does not start on a key frame: \(run.output.prefix(20))")
        }
    }

    @Test(
        "Demuxed fMP4 (H.264 High 3.1 video; AAC 5.1 audio rendition) from a creative without audio: init.mp4 maps, silence of the content's shape"
    )
    func demuxedFragmentedMP4() async throws {
        guard PlayerTools.require("ffmpeg", for: "conditioning with ffmpeg"),
            PlayerTools.require("ffprobe", for: "conditioning with ffmpeg")
        else { return }
        try await ChromiumGate.withChromium { try await demuxedFragmentedMP4Run() }
    }

    func demuxedFragmentedMP4Run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-condition-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let creative = try await Self.makeCreative(in: directory, seconds: 6, audio: false)
        let ladder = try Self.ladder(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Surround",LANGUAGE="en",DEFAULT=YES,CHANNELS="6",SAMPLE-RATE=48000,URI="a/51.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30,AUDIO="aud"
            720p/index.m3u8

            """, fmp4: true, probes: [:])
        let videoDirectory = directory.appendingPathComponent("v0").path,
            audioDirectory = directory.appendingPathComponent("a0").path
        for path in [videoDirectory, audioDirectory] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        let videoCommand = FFmpegConditioningCommand.video(
            input: creative.path, variant: ladder.variants[0], ladder: ladder,
            directory: videoDirectory, inputHasAudio: false, inputSeconds: 6, maxInputSeconds: 120)
        let audioCommand = FFmpegConditioningCommand.audio(
            input: creative.path, rendition: ladder.audio[0], ladder: ladder,
            directory: audioDirectory, inputHasAudio: false, inputSeconds: 6, maxInputSeconds: 120)
        try await Self.run(videoCommand)
        try await Self.run(audioCommand)

        for path in [videoCommand.playlistPath, audioCommand.playlistPath] {
            let media = try MediaPlaylist(parsing: try String(contentsOfFile: path, encoding: .utf8))
            #expect(media.segments.first?.map?.uri == "init.mp4", "\(path) has no EXT-X-MAP")
            #expect(media.segments.allSatisfy { $0.duration <= 4.05 })
        }
        let video = try #require(Self.streams(try await Self.probe(videoCommand.playlistPath), type: "video").first)
        #expect(video["profile"] as? String == "High")
        #expect(video["level"] as? Int == 31)
        #expect((video["width"] as? Int, video["height"] as? Int) == (1280, 720))
        #expect(video["r_frame_rate"] as? String == "30/1")
        let probe = try await Self.probe(audioCommand.playlistPath)
        #expect(Self.streams(probe, type: "video").isEmpty)
        let audio = try #require(Self.streams(probe, type: "audio").first)
        #expect(audio["codec_name"] as? String == "aac")
        #expect(audio["channels"] as? Int == 6)
        #expect(audio["sample_rate"] as? String == "48000")
        let seconds = Double((probe["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(seconds - 6) < 0.2, "the silence is as long as the creative: \(seconds) s")

        // The conditioned creative's multivariant playlist declares what the content declares.
        let written = try MultivariantPlaylist(parsing: ladder.multivariantText)
        #expect(written.variants.first?.codecs == ["avc1.64001f", "mp4a.40.2"])
        #expect(written.variants.first?.audioGroup == "aud")
        #expect(written.renditions.first?.channels == "6")
        #expect(written.renditions.first?.uri == "a0/index.m3u8")
    }
}
