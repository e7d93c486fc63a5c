import Foundation
import CoreMetrics
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Stitching

/// Turns progressive (MP4) creatives into HLS fitted to a title's ladder, on this machine, with
/// ffmpeg, and keeps the results on disk.
///
/// A creative conditioned for a ladder lives in `directory/<name>/` (`master.m3u8`, `v<i>/`,
/// `a<j>/`), named by the creative's identity and the ladder's fingerprint: every title with the
/// same ladder shares it. A job downloads the MP4 through the safe upstream client (the ad media
/// limits: size, time, no private addresses), probes it, encodes each rendition
/// (`FFmpegConditioningCommand`, run by `ConditioningProcess`: low priority, killed after
/// `jobTimeoutSeconds`), writes the multivariant playlist, then moves the whole directory into
/// place in one rename, so a half-made creative is never served. Jobs are scheduled by
/// `ConditioningQueueStateMachine`; the disk cache is capped at `maxBytes`, least recently used
/// first out.
final class CreativeConditioner: Sendable {
    struct Settings: Sendable {
        var directory: String
        var maxBytes: Int = 2 << 30
        var concurrency: Int = 1
        var queueLimit: Int = 100
        var niceness: Int = 10
        var idlePriority: Bool = true
        /// Threads of each ffmpeg run (0: ffmpeg's choice, every core).
        var threads: Int = 0
        var jobTimeoutSeconds: Double = 300
        var maxInputSeconds: Double = 120
        var maxInputBytes: Int = 200 << 20
        var memoryLimitBytes: Int = 2 << 30
        var retryAfterSeconds: Double = 600
    }

    /// What a caller gets.
    enum Outcome: Sendable, Equatable {
        /// On disk: the directory holding `master.m3u8`.
        case conditioned(directory: String)
        /// Not (yet): `TRANSCODE_IN_PROGRESS` for this break.
        case inProgress
        /// Failed recently (not retried before `retryAfterSeconds`), with the reason.
        case failed(String)
    }

    /// One job: what to fetch and what to make of it.
    struct Job: Sendable {
        var mediaURL: String
        var ladder: ConditioningLadder
    }

    let settings: Settings
    private let upstream: any UpstreamFetching
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let state: NIOLockedValueBox<State>
    private let metrics: ConditioningMetrics

    private struct State {
        var machine: ConditioningQueueStateMachine
        var jobs: [String: Job] = [:]
        var waiters: [Int: CheckedContinuation<ConditioningQueueStateMachine.Answer, Never>] = [:]
        var nextWaiter = 0

        /// A job the machine did not schedule (failed recently, or refused) is not kept.
        mutating func forgetJobUnlessScheduled(_ name: String, _ status: ConditioningQueueStateMachine.JobStatus) {
            switch status {
            case .queued, .running: break
            case .idle, .failed: jobs[name] = nil
            }
        }
    }

    init(
        settings: Settings, upstream: any UpstreamFetching, logger: Logger,
        metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.settings = settings
        metrics = ConditioningMetrics(factory: metricsFactory)
        self.upstream = upstream
        self.logger = logger
        self.now = now
        state = NIOLockedValueBox(
            State(
                machine: ConditioningQueueStateMachine(
                    concurrency: settings.concurrency, queueLimit: settings.queueLimit,
                    retryAfter: settings.retryAfterSeconds)))
        // At start-up: what a process of this host left mid-job goes at once.
        removeStaleWork(startingUp: true)
    }

    /// The cache name of a creative conditioned for a ladder: `c<hash of identity>-<fingerprint>`.
    static func name(creative identity: String, ladder: ConditioningLadder) -> String {
        "c" + ConditioningLadder.hash(identity) + "-" + ladder.fingerprint
    }

    /// The directory of a finished conditioning, marked as just used; nil when not on disk.
    func cached(_ name: String) -> String? {
        let path = settings.directory + "/" + name
        guard FileManager.default.fileExists(atPath: path + "/master.m3u8") else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: now()], ofItemAtPath: path)
        return path
    }

    /// `mediaURL` conditioned for `ladder`: from disk, or from a job started (or joined) now and
    /// waited for until `deadline`.
    func condition(
        _ mediaURL: String, creative identity: String, ladder: ConditioningLadder,
        until deadline: ContinuousClock.Instant
    ) async -> Outcome {
        let name = Self.name(creative: identity, ladder: ladder)
        if let directory = cached(name) {
            metrics.lookup(hit: true)
            return .conditioned(directory: directory)
        }
        metrics.lookup(hit: false)
        let waiter = state.withLockedValue { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let answer = await withCheckedContinuation { continuation in
            let actions = state.withLockedValue { state -> [ConditioningQueueStateMachine.Action] in
                state.waiters[waiter] = continuation
                if state.jobs[name] == nil { state.jobs[name] = Job(mediaURL: mediaURL, ladder: ladder) }
                let actions = state.machine.request(name, waiter: waiter, now: now())
                state.forgetJobUnlessScheduled(name, state.machine.status(name, now: now()))
                return actions
            }
            perform(actions)
            Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                let late = self.state.withLockedValue { $0.machine.timedOut(waiter, for: name) }
                self.perform(late)
            }
        }
        switch answer {
        case .conditioned:
            return cached(name).map { .conditioned(directory: $0) }
                ?? .failed("the conditioned creative is gone from the cache")
        case .failed(let reason): return .failed(reason)
        case .stillRunning, .queueFull: return .inProgress
        }
    }

    /// Where a creative stands for a ladder (the prefetch route's answer).
    enum Status: Sendable, Equatable {
        /// On disk: the directory holding `master.m3u8`.
        case conditioned(directory: String)
        /// Waiting for a worker, `position` jobs ahead of it.
        case queued(position: Int)
        case running
        /// Failed; not retried before `retryAt`.
        case failed(String, retryAt: Date)
        /// Not started: the queue is full (`conditioning.queueLimit`); ask again later.
        case refused
    }

    /// Starts conditioning `mediaURL` for `ladder` unless it is on disk, running, queued or failed
    /// recently, and says where it stands. Waits for nothing (the prefetch route).
    func prefetch(_ mediaURL: String, creative identity: String, ladder: ConditioningLadder) -> Status {
        let name = Self.name(creative: identity, ladder: ladder)
        if let directory = cached(name) { return .conditioned(directory: directory) }
        let (actions, status) = state.withLockedValue {
            state -> ([ConditioningQueueStateMachine.Action], ConditioningQueueStateMachine.JobStatus) in
            if state.jobs[name] == nil { state.jobs[name] = Job(mediaURL: mediaURL, ladder: ladder) }
            let actions = state.machine.request(name, waiter: nil, now: now())
            let status = state.machine.status(name, now: now())
            state.forgetJobUnlessScheduled(name, status)
            return (actions, status)
        }
        perform(actions)
        switch status {
        case .queued(let position): return .queued(position: position)
        case .running: return .running
        case .failed(let reason, let until): return .failed(reason, retryAt: until)
        case .idle: return cached(name).map { .conditioned(directory: $0) } ?? .refused
        }
    }

    /// Jobs running and queued (metrics).
    var load: (running: Int, queued: Int) { state.withLockedValue { ($0.machine.active, $0.machine.queued) } }

    private func perform(_ actions: [ConditioningQueueStateMachine.Action]) {
        let (running, queued) = load
        metrics.load(running: running, queued: queued)
        for action in actions {
            switch action {
            case .start(let name):
                guard let job = state.withLockedValue({ $0.jobs[name] }) else { continue }
                Task { await self.run(job, name: name) }
            case .answer(let waiters, let answer):
                let continuations = state.withLockedValue { state in
                    waiters.compactMap { state.waiters.removeValue(forKey: $0) }
                }
                for continuation in continuations { continuation.resume(returning: answer) }
            case .none:
                break
            }
        }
    }

    private func run(_ job: Job, name: String) async {
        let started = ContinuousClock.now
        let outcome: ConditioningQueueStateMachine.Outcome
        removeStaleWork()
        do {
            try await make(job, name: name)
            outcome = .conditioned
            logger.info(
                "creative conditioned",
                metadata: [
                    "creative": "\(job.mediaURL)", "name": "\(name)",
                    "seconds": "\((ContinuousClock.now - started).components.seconds)",
                ])
            evict(keeping: name)
            metrics.job(ContinuousClock.now - started, conditioned: true)
        } catch {
            metrics.job(ContinuousClock.now - started, conditioned: false)
            outcome = .failed("\(error)")
            var metadata: Logger.Metadata = ["creative": "\(job.mediaURL)", "name": "\(name)", "error": "\(error)"]
            if let diagnostics = (error as? Failure)?.diagnostics { metadata["stderr"] = "\(diagnostics)" }
            logger.warning("creative conditioning failed", metadata: metadata)
        }
        let actions = state.withLockedValue { state -> [ConditioningQueueStateMachine.Action] in
            state.jobs[name] = nil
            return state.machine.finished(name, outcome, now: now())
        }
        perform(actions)
    }

    /// Why a job failed, as the log and the skip detail say it; `diagnostics` (ffmpeg's or
    /// ffprobe's stderr, its last 4 KiB, and the command line) goes to the log only.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var diagnostics: String?

        init(description: String, diagnostics: String? = nil) {
            self.description = description
            self.diagnostics = diagnostics
        }
    }

    /// Downloads, probes and encodes into a work directory, then renames it into place.
    private func make(_ job: Job, name: String) async throws {
        let files = FileManager.default
        try files.createDirectory(atPath: settings.directory, withIntermediateDirectories: true)
        let work =
            settings.directory + "/.work-" + name + WorkOwner.current.tag
            + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        try files.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? files.removeItem(atPath: work) }

        let response: UpstreamResponse
        do {
            response = try await upstream.fetch(
                UpstreamRequest(
                    url: job.mediaURL, purpose: .conditioning,
                    timeout: .seconds(Int64(settings.jobTimeoutSeconds)),
                    sizeLimit: settings.maxInputBytes))
        } catch {
            throw Failure(description: "the creative could not be downloaded: \(error)")
        }
        // Only an MP4 reaches ffprobe and ffmpeg, and they read it as nothing else (MediaContainer).
        guard MediaContainer.sniff(response.body.readableBytesView) == .mp4 else {
            throw Failure(
                description:
                    "the creative is not an MP4 file (no ftyp box at its start); only MP4 creatives are conditioned",
                diagnostics: "first bytes: \(Array(response.body.readableBytesView.prefix(16)))")
        }
        let input = work + "/input.mp4"
        guard files.createFile(atPath: input, contents: Data(response.body.readableBytesView)) else {
            throw Failure(
                description: "the creative could not be written to conditioning.directory",
                diagnostics: "work directory \(work)")
        }
        let process = ConditioningProcess(
            niceness: settings.niceness, idlePriority: settings.idlePriority,
            timeoutSeconds: settings.jobTimeoutSeconds,
            memoryLimitBytes: settings.memoryLimitBytes, cpuLimitSeconds: Int(settings.jobTimeoutSeconds) * 2)
        let probe = try await probe(input, with: process)
        guard probe.hasVideo else { throw Failure(description: "the creative has no video stream") }
        guard probe.seconds > 0, probe.seconds <= settings.maxInputSeconds else {
            throw Failure(
                description:
                    "the creative lasts \(probe.seconds) s; at most \(settings.maxInputSeconds) s are conditioned")
        }
        var commands: [(String, FFmpegConditioningCommand)] = []
        for (index, variant) in job.ladder.variants.enumerated() {
            let directory = work + "/v\(index)"
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            commands.append(
                (
                    "v\(index)",
                    .video(
                        input: input, variant: variant, ladder: job.ladder, directory: directory,
                        inputHasAudio: probe.hasAudio, inputSeconds: probe.seconds,
                        maxInputSeconds: settings.maxInputSeconds, threads: settings.threads)
                ))
        }
        for (index, rendition) in job.ladder.audio.enumerated() {
            let directory = work + "/a\(index)"
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            commands.append(
                (
                    "a\(index)",
                    .audio(
                        input: input, rendition: rendition, ladder: job.ladder, directory: directory,
                        inputHasAudio: probe.hasAudio, inputSeconds: probe.seconds,
                        maxInputSeconds: settings.maxInputSeconds, threads: settings.threads)
                ))
        }
        for (label, command) in commands {
            let result = try await process.run("ffmpeg", command.arguments)
            let diagnostics = "ffmpeg \(command.arguments.joined(separator: " "))\n\(result.errorTail)"
            if result.timedOut {
                throw Failure(
                    description: "ffmpeg took more than \(settings.jobTimeoutSeconds) s on \(label)",
                    diagnostics: diagnostics)
            }
            // ffmpeg's own words name local paths: they go to the log only.
            guard result.status == 0 else {
                throw Failure(
                    description: "ffmpeg exited with \(result.status) on \(label) (the log has its error output)",
                    diagnostics: diagnostics)
            }
        }
        try? files.removeItem(atPath: input)
        guard files.createFile(atPath: work + "/master.m3u8", contents: Data(job.ladder.multivariantText.utf8)) else {
            throw Failure(description: "the multivariant playlist could not be written")
        }
        let final = settings.directory + "/" + name
        try? files.removeItem(atPath: final)
        try files.moveItem(atPath: work, toPath: final)
    }

    /// What ffprobe says of the downloaded creative.
    struct Probe: Sendable, Equatable {
        var hasVideo: Bool
        var hasAudio: Bool
        var seconds: Double
    }

    private func probe(_ input: String, with process: ConditioningProcess) async throws -> Probe {
        let result = try await process.run(
            "ffprobe",
            [
                "-v", "error", "-protocol_whitelist", "file", "-f", MediaContainer.mp4.demuxer,
                "-print_format", "json", "-show_streams", "-show_format", input,
            ])
        guard result.status == 0, !result.timedOut else {
            throw Failure(
                description: "ffprobe cannot read the creative as an MP4 (the log has its error output)",
                diagnostics: result.errorTail)
        }
        return try Self.probe(parsing: result.standardOutput)
    }

    /// Reads ffprobe's JSON (`-show_streams -show_format`).
    static func probe(parsing json: Data) throws -> Probe {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw Failure(description: "ffprobe's answer is not JSON")
        }
        let streams = (root["streams"] as? [[String: Any]]) ?? []
        let types = streams.compactMap { $0["codec_type"] as? String }
        let duration = ((root["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init) ?? 0
        return Probe(
            hasVideo: types.contains("video"), hasAudio: types.contains("audio"),
            seconds: duration.isFinite ? duration : 0)
    }

    /// Removes the least recently used conditioned creatives until the directory fits `maxBytes`
    /// (never `keeping`, just made).
    func evict(keeping: String? = nil) {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: settings.directory) else { return }
        var entries: [(name: String, used: Date, bytes: Int)] = []
        for name in names where !name.hasPrefix(".") {
            let path = settings.directory + "/" + name
            let used = (try? files.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            entries.append((name, used, Self.bytes(under: path)))
        }
        var total = entries.reduce(0) { $0 + $1.bytes }
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > settings.maxBytes && entry.name != keeping
        {
            try? files.removeItem(atPath: settings.directory + "/" + entry.name)
            total -= entry.bytes
        }
        metrics.onDisk(total)
    }

    /// Removes work directories and probe files left by jobs that did not end (a stop or a crash
    /// mid-job): at once those a process of this host left (`WorkOwner`), and any older than twice
    /// `jobTimeoutSeconds` (a job another replica runs in a shared directory is younger). Run at
    /// start-up and before each job.
    func removeStaleWork(owner: WorkOwner = .current, startingUp: Bool = false) {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: settings.directory) else { return }
        let cutoff = now().addingTimeInterval(-2 * settings.jobTimeoutSeconds)
        for name in names where name.hasPrefix(".work-") || name.hasPrefix(".probe-") {
            let path = settings.directory + "/" + name
            // This process's own work is abandoned only before it has started any (its pid was an
            // earlier process's, as a container's first process always is).
            if let tagged = WorkOwner.of(name), tagged.host == owner.host,
                tagged.pid == owner.pid ? startingUp : !WorkOwner.isAlive(tagged.pid)
            {
                try? files.removeItem(atPath: path)
                continue
            }
            guard let modified = try? files.attributesOfItem(atPath: path)[.modificationDate] as? Date,
                modified < cutoff
            else { continue }
            try? files.removeItem(atPath: path)
        }
    }

    /// Bytes on disk under `path` (files only).
    static func bytes(under path: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total = 0
        while let file = walker.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + file)
            total += (attributes?[.size] as? Int) ?? 0
        }
        return total
    }
}
