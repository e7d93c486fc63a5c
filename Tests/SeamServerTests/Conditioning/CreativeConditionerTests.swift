import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import HLS
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Stitching
import SeamTesting
import Testing
@testable import SeamServer

/// The conditioner end to end on this machine: an MP4 "downloaded" from a fake ad CDN, probed and
/// encoded by the real ffmpeg into the disk cache; joined, cached, failed and evicted.
@Suite struct CreativeConditionerTests {
    /// Serves one file's bytes for one URL and counts the fetches; anything else answers 404.
    final class FileUpstream: UpstreamFetching {
        let url: String
        let path: String
        let fetches = NIOLockedValueBox(0)
        init(url: String, path: String) {
            self.url = url
            self.path = path
        }

        func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
            fetches.withLockedValue { $0 += 1 }
            guard request.url == url, let data = FileManager.default.contents(atPath: path) else {
                throw .status(url: request.url, code: 404)
            }
            return UpstreamResponse(status: 200, body: ByteBuffer(bytes: data), finalURL: request.url)
        }
    }

    static let demoLadderText = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=466400,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=25.000
        360p/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=906400,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=960x540,FRAME-RATE=25.000
        540p/index.m3u8

        """

    static func ladder() throws -> ConditioningLadder {
        let probe = ConditioningLadder.ProbedStream(sampleRate: 48_000, channels: 2)
        return try FFmpegConditioningTests.ladder(
            demoLadderText, fmp4: false,
            probes: [RenditionKey(.variant, 0): probe, RenditionKey(.variant, 1): probe])
    }

    @Test(
        "Conditioned once for two askers, then served from disk; the playlists are the ladder's; a failure is told at once and not retried; eviction keeps the newest",
        .heavy)
    func conditionCacheFailEvict() async throws {
        guard PlayerTools.require("ffmpeg", for: "conditioning with ffmpeg"),
            PlayerTools.require("ffprobe", for: "conditioning with ffmpeg")
        else { return }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // ffmpeg is heavy work: one at a time with the Chromium runs (ChromiumGate) on 2 cores.
        try await ChromiumGate.withChromium { try await conditionCacheFailEvict(in: root) }
    }

    func conditionCacheFailEvict(in root: URL) async throws {
        let creative = try await FFmpegConditioningTests.makeCreative(in: root, seconds: 6)
        let upstream = FileUpstream(url: "https://ads.example/spot.mp4", path: creative.path)
        var settings = CreativeConditioner.Settings(directory: root.appendingPathComponent("cache").path)
        settings.concurrency = 1
        settings.niceness = 19
        let conditioner = CreativeConditioner(settings: settings, upstream: upstream, logger: quietLogger)
        let ladder = try Self.ladder()
        let deadline = ContinuousClock.now.advanced(by: .seconds(120))

        async let first = conditioner.condition(upstream.url, creative: "ad-id:spot", ladder: ladder, until: deadline)
        async let second = conditioner.condition(upstream.url, creative: "ad-id:spot", ladder: ladder, until: deadline)
        let (a, b) = await (first, second)
        guard case .conditioned(let directory) = a else { Issue.record("not conditioned: \(a)"); return }
        #expect(b == a)
        #expect(upstream.fetches.withLockedValue { $0 } == 1, "downloaded once for both")
        let master = try MultivariantPlaylist(
            parsing: try String(contentsOfFile: directory + "/master.m3u8", encoding: .utf8))
        #expect(master.variants.map(\.uri) == ["v0/index.m3u8", "v1/index.m3u8"])
        #expect(master.variants.map(\.codecs) == [["avc1.4d401e", "mp4a.40.2"], ["avc1.4d401f", "mp4a.40.2"]])
        for index in 0..<2 {
            let media = try MediaPlaylist(
                parsing: try String(contentsOfFile: directory + "/v\(index)/index.m3u8", encoding: .utf8))
            #expect(media.segments.count >= 2)
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/input.mp4"), "the download is not kept")

        // From disk: no new download, at once even with a deadline already passed.
        #expect(await conditioner.condition(upstream.url, creative: "ad-id:spot", ladder: ladder, until: .now) == a)
        #expect(upstream.fetches.withLockedValue { $0 } == 1)

        // A creative that cannot be fetched: failed, said why; asked again, told at once without a fetch.
        let missing = await conditioner.condition(
            "https://ads.example/gone.mp4", creative: "ad-id:gone", ladder: ladder, until: deadline)
        guard case .failed(let reason) = missing else { Issue.record("not failed: \(missing)"); return }
        #expect(reason.contains("could not be downloaded"))
        let fetchesBefore = upstream.fetches.withLockedValue { $0 }
        #expect(
            await conditioner.condition(
                "https://ads.example/gone.mp4", creative: "ad-id:gone", ladder: ladder, until: deadline) == missing)
        #expect(upstream.fetches.withLockedValue { $0 } == fetchesBefore)

        // A deadline shorter than the job: in progress; the job finishes for the next asker.
        let quick = await conditioner.condition(
            upstream.url, creative: "ad-id:other", ladder: ladder, until: .now.advanced(by: .milliseconds(50)))
        #expect(quick == .inProgress)
        let later = await conditioner.condition(upstream.url, creative: "ad-id:other", ladder: ladder, until: deadline)
        guard case .conditioned(let otherDirectory) = later else {
            Issue.record("not conditioned later: \(later)"); return
        }

        // A cap below the two: the least recently used goes.
        var tight = settings
        tight.maxBytes = CreativeConditioner.bytes(under: otherDirectory) + 1
        let evicting = CreativeConditioner(settings: tight, upstream: upstream, logger: quietLogger)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: directory)
        evicting.evict()
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(FileManager.default.fileExists(atPath: otherDirectory))
    }

    /// Keeps every message logged through it, with its metadata.
    struct RecordingLogHandler: LogHandler {
        let records: NIOLockedValueBox<[(message: String, metadata: Logger.Metadata)]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(
            level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
            function: String, line: UInt
        ) {
            records.withLockedValue { $0.append(("\(message)", self.metadata.merging(metadata ?? [:]) { $1 })) }
        }
    }

    @Test(
        "A creative ffprobe cannot read: the job fails saying so without its words, and the warning logged carries ffprobe's stderr",
        .heavy)
    func failureLogsStderr() async throws {
        guard PlayerTools.require("ffprobe", for: "conditioning with ffmpeg") else { return }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioner-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // An MP4's first box, then nothing an MP4 demuxer can use.
        let broken = root.appendingPathComponent("broken.mp4")
        try Data([0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("not an MP4 after all".utf8)).write(
            to: broken)
        let upstream = FileUpstream(url: "https://ads.example/broken.mp4", path: broken.path)
        let records = NIOLockedValueBox<[(message: String, metadata: Logger.Metadata)]>([])
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        let cache = root.appendingPathComponent("cache").path
        let conditioner = CreativeConditioner(settings: .init(directory: cache), upstream: upstream, logger: logger)
        let outcome = await conditioner.condition(
            upstream.url, creative: "ad-id:broken", ladder: try Self.ladder(), until: .now.advanced(by: .seconds(60)))
        guard case .failed(let reason) = outcome else { Issue.record("not failed: \(outcome)"); return }
        #expect(reason.contains("ffprobe cannot read the creative as an MP4"), "\(reason)")
        // What a caller is told names no local path and echoes no tool output.
        #expect(
            !reason.contains(cache) && !reason.contains("input.mp4") && !reason.contains("Invalid data"), "\(reason)")
        let warning = records.withLockedValue { $0 }.first { $0.message == "creative conditioning failed" }
        #expect(warning?.metadata["name"] != nil)
        let stderr = warning?.metadata["stderr"].map { "\($0)" } ?? ""
        #expect(!stderr.isEmpty, "the log keeps ffprobe's stderr")
    }

    /// The access time of `path`, in seconds.
    static func accessTime(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_atim.tv_sec)
    }

    /// Sets the access and modification times of `path` to 2001 (so a read moves the access time
    /// forward even with `relatime`).
    static func age(_ path: String) {
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test(
        "A creative whose bytes are an HLS playlist naming a local file: refused as not an MP4 before any tool runs; the local file is not read"
    )
    func aPlaylistPosingAsAnMP4ReadsNoLocalFile() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioner-canary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // The canary: a local "segment" the playlist points at.
        let canary = root.appendingPathComponent("canary.ts").path
        try Data(repeating: 0x47, count: 188 * 4).write(to: URL(fileURLWithPath: canary))
        // Whether this file system records reads at all (noatime): read it once ourselves.
        Self.age(canary)
        _ = FileManager.default.contents(atPath: canary)
        let recordsReads = Self.accessTime(canary) != 1_000_000_000
        Self.age(canary)

        let playlist =
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n\(canary)\n#EXTINF:10,\nfile:\(canary)\n#EXT-X-ENDLIST\n"
        let posing = root.appendingPathComponent("spot.mp4")
        try Data(playlist.utf8).write(to: posing)
        let upstream = FileUpstream(url: "https://ads.example/spot.mp4", path: posing.path)
        let cache = root.appendingPathComponent("cache").path
        let conditioner = CreativeConditioner(
            settings: .init(directory: cache), upstream: upstream, logger: quietLogger)
        let outcome = await conditioner.condition(
            upstream.url, creative: "ad-id:posing", ladder: try Self.ladder(), until: .now.advanced(by: .seconds(60)))
        guard case .failed(let reason) = outcome else { Issue.record("not refused: \(outcome)"); return }
        #expect(reason.contains("not an MP4 file"), "\(reason)")
        #expect(!reason.contains(root.path), "\(reason)")
        if recordsReads {
            #expect(Self.accessTime(canary) == 1_000_000_000, "the canary was read")
        } else {
            print("the canary's access time is not checked: this file system does not record reads (noatime)")
        }
        // Nothing was published.
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: cache))?.filter { !$0.hasPrefix(".") }.isEmpty ?? true
        )
    }

    @Test(
        "Containers by their first bytes: MP4 (ftyp), MPEG-TS (two sync bytes a packet apart); a playlist, text or a lone 0x47 is neither"
    )
    func containers() {
        let ftyp: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 16)
        #expect(MediaContainer.sniff(ftyp) == .mp4)
        #expect(MediaContainer.sniff([0, 0, 0, 1] + Array("ftyp".utf8) + [UInt8](repeating: 0, count: 16)) == .mp4)
        var ts = [UInt8](repeating: 0xFF, count: 376)
        ts[0] = 0x47
        ts[188] = 0x47
        #expect(MediaContainer.sniff(ts) == .mpegTS)
        ts[188] = 0
        #expect(MediaContainer.sniff(ts) == nil)
        #expect(MediaContainer.sniff(Array("#EXTM3U\n#EXTINF:10,\n/etc/passwd.ts\n".utf8)) == nil)
        #expect(MediaContainer.sniff(Array("<html>ftyp</html>".utf8)) == nil)
        #expect(MediaContainer.sniff([0, 0, 0, 4] + Array("ftyp".utf8)) == nil, "a box smaller than its header")
        #expect(MediaContainer.sniff(Array("moov".utf8)) == nil)
        #expect(MediaContainer.sniff([UInt8]()) == nil)
    }

    @Test(
        "The command line: prlimit, then chrt --idle 0 (idle priority), then nice, then the tool; parts off when asked")
    func commandLine() {
        guard ConditioningProcess.which("prlimit") != nil, ConditioningProcess.which("chrt") != nil,
            ConditioningProcess.which("nice") != nil
        else {
            print("skipped the command line check: prlimit, chrt or nice is not installed")
            return
        }
        let full = ConditioningProcess(
            niceness: 10, idlePriority: true, timeoutSeconds: 60, memoryLimitBytes: 1 << 30, cpuLimitSeconds: 0
        )
        .commandLine("ffmpeg", ["-version"])
        let names = full.map { ($0 as NSString).lastPathComponent }
        #expect(
            Array(names.prefix(9)) == ["prlimit", "--as=1073741824", "--", "chrt", "--idle", "0", "nice", "-n", "10"],
            "\(full)")
        #expect(Array(names.suffix(2)) == ["ffmpeg", "-version"])
        let plain = ConditioningProcess(
            niceness: 0, idlePriority: false, timeoutSeconds: 60, memoryLimitBytes: 0, cpuLimitSeconds: 0
        )
        .commandLine("ffprobe", ["-h"]).map { ($0 as NSString).lastPathComponent }
        #expect(plain == ["ffprobe", "-h"])
    }

    @Test(
        "Work left by a job that never ended is removed once older than twice the job time-out; a newer one (another replica's job) and finished creatives stay"
    )
    func staleWork() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioner-stale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = FileManager.default
        for name in [".work-old", ".work-new", ".probe-old", "c0123456789abcdef-fedcba9876543210"] {
            try files.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        for name in [".work-old", ".probe-old", "c0123456789abcdef-fedcba9876543210"] {
            try files.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -3600)],
                ofItemAtPath: root.appendingPathComponent(name).path)
        }
        var settings = CreativeConditioner.Settings(directory: root.path)
        settings.jobTimeoutSeconds = 300
        let conditioner = CreativeConditioner(settings: settings, upstream: FakeUpstream(), logger: quietLogger)
        conditioner.removeStaleWork()
        #expect(
            try files.contentsOfDirectory(atPath: root.path).sorted() == [
                ".work-new", "c0123456789abcdef-fedcba9876543210",
            ])
    }

    @Test(
        "At start-up, work a process of this host left mid-job (SIGTERM) goes at once, however young; a live process's, another host's, and this process's own once it runs jobs stay"
    )
    func abandonedWorkAtStartUp() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-conditioner-startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = FileManager.default
        let me = WorkOwner.current
        // A pid no process has now.
        var gone: Int32 = 4_000_000
        while WorkOwner.isAlive(gone) { gone -= 1 }
        let left = ".work-c1-ab" + WorkOwner(host: me.host, pid: gone).tag + "1f"
        let probe = ".probe-" + WorkOwner(host: me.host, pid: gone).tag + "zz"
        let mine = ".work-c2-ab" + me.tag + "2f"
        let live = ".work-c3-ab" + WorkOwner(host: me.host, pid: 1).tag + "3f"
        let elsewhere = ".work-c4-ab" + WorkOwner(host: "other-host", pid: gone).tag + "4f"
        for name in [left, probe, mine, live, elsewhere] {
            try files.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        var settings = CreativeConditioner.Settings(directory: root.path)
        settings.jobTimeoutSeconds = 300
        // Before each job: only the gone process's work.
        let conditioner = CreativeConditioner(settings: settings, upstream: FakeUpstream(), logger: quietLogger)
        // Made again after the start-up sweep: this process's own work now counts as running.
        try files.createDirectory(at: root.appendingPathComponent(mine), withIntermediateDirectories: true)
        try files.createDirectory(at: root.appendingPathComponent(left), withIntermediateDirectories: true)
        conditioner.removeStaleWork()
        #expect(try files.contentsOfDirectory(atPath: root.path).sorted() == [elsewhere, live, mine].sorted())
        // At start-up (a new conditioner, as after a restart whose process got the same pid): this
        // pid's work is an earlier process's, and goes too.
        _ = CreativeConditioner(settings: settings, upstream: FakeUpstream(), logger: quietLogger)
        #expect(try files.contentsOfDirectory(atPath: root.path).sorted() == [elsewhere, live].sorted())
        #expect(WorkOwner.of(left) == WorkOwner(host: me.host, pid: gone))
        #expect(WorkOwner.of(".work-legacy-1f") == nil)
    }

    /// In a process of its own (an exit test): the test lowers its descriptor limit and fills the
    /// table. Foundation's `Process` traps there, ending the process (a server with it); this
    /// launcher fails the run with EMFILE, and launches again once descriptors are free.
    @Test(
        "With no file descriptor left, a launch fails with EMFILE and the process lives on; with some free again, it launches"
    )
    func launchWithoutDescriptors() async {
        await #expect(processExitsWith: .exitCode(0)) {
            var current = rlimit()
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &current) == 0 else { exit(10) }
            var limit = rlimit(rlim_cur: 256, rlim_max: current.rlim_max)
            guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { exit(11) }
            var held: [Int32] = []
            while true {
                let descriptor = open("/dev/null", O_RDONLY)
                if descriptor < 0 { break }
                held.append(descriptor)
            }
            guard errno == EMFILE, held.count > 16 else { exit(12) }
            do {
                _ = try ConditioningProcess.runBlocking(["/bin/true"], timeoutSeconds: 5)
                exit(13)
            } catch let failure as ConditioningProcess.LaunchFailure {
                guard failure.code == EMFILE, failure.description.contains("no file descriptor left") else { exit(14) }
            } catch {
                exit(15)
            }
            for descriptor in held.suffix(16) { close(descriptor) }
            guard
                let run = try? ConditioningProcess.runBlocking(
                    ["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], timeoutSeconds: 5),
                run.status == 3, String(decoding: run.standardOutput, as: UTF8.self) == "out\n",
                run.errorTail == "err\n"
            else { exit(16) }
            exit(0)
        }
    }

    @Test("A run past its time limit is killed and says so; the child gets none of the parent's descriptors")
    func timeLimitAndDescriptors() throws {
        let slow = try ConditioningProcess.runBlocking(
            ["/bin/sh", "-c", "echo started; exec sleep 30"], timeoutSeconds: 0.5)
        #expect(slow.timedOut)
        #expect(slow.status == SIGKILL)
        #expect(String(decoding: slow.standardOutput, as: UTF8.self) == "started\n")
        // Killed, not waited for: timedOut and SIGKILL above say so (the sleep ending on its own
        // would exit 0); no stopwatch, which a loaded machine defeats.
        // A descriptor of the parent's without close-on-exec: not in the child.
        let inherited = open("/dev/null", O_RDONLY)
        defer { close(inherited) }
        let listing = try ConditioningProcess.runBlocking(["/bin/ls", "/proc/self/fd"], timeoutSeconds: 10)
        let descriptors = String(decoding: listing.standardOutput, as: UTF8.self).split(separator: "\n").compactMap {
            Int32($0)
        }
        #expect(listing.status == 0)
        #expect(!descriptors.contains(inherited), "\(descriptors)")
        #expect(descriptors.allSatisfy { $0 <= 3 }, "stdin, stdout, stderr and ls's own listing only: \(descriptors)")
        // A missing tool: an error, not a trap.
        #expect(throws: ConditioningProcess.LaunchFailure.self) {
            try ConditioningProcess.runBlocking(["/nonexistent/ffmpeg"], timeoutSeconds: 1)
        }
    }

    @Test(
        "Downloads for conditioning have their own limits: conditioning.maxInputBytes and jobTimeoutSeconds, not the playlist's 4 MiB"
    )
    func downloadLimits() throws {
        var configuration = SeamConfiguration()
        configuration.conditioning.maxInputBytes = 50 << 20
        configuration.conditioning.jobTimeoutSeconds = 90
        let policy = try UpstreamPolicy(configuration: configuration)
        #expect(policy.sizeLimit(for: .conditioning) == 50 << 20)
        #expect(policy.sizeLimit(for: .adMedia) == configuration.upstream.maxPlaylistBytes)
        #expect(policy.timeout(for: .conditioning) == .seconds(90))
    }

    @Test("ffprobe's JSON: video, audio and duration")
    func probeParsing() throws {
        let json = #"{"streams":[{"codec_type":"video"},{"codec_type":"audio"}],"format":{"duration":"15.040000"}}"#
        #expect(
            try CreativeConditioner.probe(parsing: Data(json.utf8))
                == .init(hasVideo: true, hasAudio: true, seconds: 15.04))
        let silent = #"{"streams":[{"codec_type":"video"}],"format":{}}"#
        #expect(
            try CreativeConditioner.probe(parsing: Data(silent.utf8))
                == .init(hasVideo: true, hasAudio: false, seconds: 0))
        #expect(throws: CreativeConditioner.Failure.self) { try CreativeConditioner.probe(parsing: Data("nope".utf8)) }
    }
}

/// The conditioned files route answers only the names conditioning writes.
@Suite struct ConditionedCreativeFilesTests {
    @Test(
        "Names, renditions and files: what conditioning writes passes, anything else (traversal, work directories, other files) does not",
        arguments: [
            ("c0123456789abcdef-fedcba9876543210", true), ("c0123456789ABCDEF-fedcba9876543210", false),
            ("c0123456789abcdef-fedcba987654321", false), (".work-c0123456789abcdef-fedcba9876543210-1", false),
            ("..", false), ("", false), ("x0123456789abcdef-fedcba9876543210", false),
            ("c0123456789abcdef_fedcba9876543210", false),
        ])
    func names(name: String, accepted: Bool) {
        #expect(ConditionedCreativeFiles.isName(name) == accepted)
    }

    @Test(
        "Renditions and file names",
        arguments: [
            ("v0", "index.m3u8", "application/vnd.apple.mpegurl"), ("a12", "segment000.ts", "video/mp2t"),
            ("v3", "segment123456.m4s", "video/iso.segment"), ("v0", "init.mp4", "video/mp4"),
            ("v0", "input.mp4", nil), ("v0", "segment00.ts", nil), ("v0", "segment0000000.ts", nil),
            ("v0", "segment000.ts.part", nil),
            ("v0", "../master.m3u8", nil), ("v0", "segment000.mp4", nil), ("x0", "index.m3u8", "x"),
            ("v", "index.m3u8", "x"), ("v12345", "index.m3u8", "x"),
        ] as [(String, String, String?)])
    func files(rendition: String, file: String, type: String?) {
        if type == "x" {
            #expect(!ConditionedCreativeFiles.isRendition(rendition))
        } else {
            #expect(ConditionedCreativeFiles.isRendition(rendition))
            #expect(ConditionedCreativeFiles.contentType(file) == type)
        }
    }
}
