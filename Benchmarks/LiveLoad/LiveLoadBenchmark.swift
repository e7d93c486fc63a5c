import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Load generator for Seam's live sessions: N sessions, each reloading its media playlist every R
/// seconds on its own open-loop schedule, latency measured from the scheduled send time. Prints one
/// JSON object. See scripts/bench-live.sh and BENCHMARKS.md.
@main
struct LiveLoadBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "LiveLoadBenchmark",
        abstract: "Paced playlist-reload load test for Seam sessions (or one static URL).",
        discussion: """
        Phases: (a) create N sessions (POST {seam}/v1/sessions), (b) GET each manifestUrl once and \
        pick its first media playlist, (c) reload each session's media playlist every R seconds with \
        a random phase for D seconds, (d) print one JSON object. With --static-url, (a) and (b) are \
        skipped and N virtual sessions reload that one URL on the same schedule (the baseline).
        """
    )

    @Option(help: "Seam's base URL.")
    var seam = "http://127.0.0.1:8080"
    @Option(help: "Content URL sessions are created for.")
    var contentUrl = "http://127.0.0.1:8081/live/cueOutIn/master.m3u8"
    @Option(help: "Reload this URL instead of creating sessions (baseline mode).")
    var staticUrl: String?
    @Option(help: "Number of sessions (viewers).")
    var sessions = 1000
    @Option(help: "Seconds of measured reloads.")
    var duration = 60.0
    @Option(help: "Seconds of reloads before the measured window (sent, not recorded).")
    var warmup = 0.0
    @Option(help: "Seconds between two reloads of one session (the target duration).")
    var reloadSeconds = 6.0
    @Option(help: "Keep-alive connections to the server (requests wait for a free one; capped at --sessions).")
    var connections = 1000
    @Option(help: "Session creations (and first manifest GETs) in flight at once.")
    var createConcurrency = 16
    @Option(help: "Seconds to wait after creating the sessions before reading the server's RSS.")
    var settle = 2.0
    @Option(help: "Per-request timeout in seconds (a timeout counts as an error and reopens the connection).")
    var timeout = 10.0
    @Option(help: "Latency objective in ms; the per-second timeline counts answers slower than this.")
    var sloMs = 10.0
    @Option(name: .customLong("server-pid"), help: "Server process id: its VmRSS and CPU time are read at the phase boundaries; repeatable (replicas: summed).")
    var serverPids: [Int32] = []
    @Option(name: .customLong("metrics-url"), help: "Prometheus page to read counters from at the start and end of the reload phase (default {seam}/metrics; \"none\" to skip); repeatable (replicas: counters summed over the pages, and kept per page).")
    var metricsUrls: [String] = []
    @Option(name: .customLong("metric"), help: "Counter to read from the metrics page (summed over its labels); repeatable.")
    var metrics: [String] = ["seam_origin_playlist_fetches_total", "seam_origin_playlist_cache_hits_total",
                             "seam_origin_playlist_stale_served_total"]
    @Option(name: .customLong("metric-series"), help: "Counter also kept per label set (e.g. seam_store_queries_total by operation); repeatable.")
    var metricSeries: [String] = []
    @Option(help: "Shell command run at the start and end of the reload phase; its output is kept in the snapshot (e.g. PostgreSQL's own counters).")
    var snapshotCommand: String?
    @Flag(help: "Give each session a viewer address of its own (10.x.y.z) in X-Forwarded-For on every request, so a balancer with per-viewer affinity (deploy/nginx/seam.conf) spreads the sessions over its replicas.")
    var forwardedFor = false
    @Option(help: "Seed of the random phases.")
    var seed: UInt64 = 1
    @Option(help: "Write the JSON here as well as to stdout.")
    var output: String?
    @Flag(help: "Include the per-second timeline in the JSON.")
    var timeline = false
    @Option(help: "Accept-Encoding sent with every request (e.g. gzip, as players send it); none by default.")
    var acceptEncoding: String?

    mutating func validate() throws {
        guard sessions > 0 else { throw ValidationError("--sessions must be positive") }
        guard duration > 0, reloadSeconds > 0, timeout > 0 else { throw ValidationError("durations must be positive") }
        guard connections > 0, createConcurrency > 0 else { throw ValidationError("--connections and --create-concurrency must be positive") }
        if let staticUrl { guard HTTPURL(staticUrl) != nil else { throw ValidationError("--static-url must be http://host[:port]/path") } }
        guard HTTPURL(seam) != nil else { throw ValidationError("--seam must be http://host[:port]") }
    }

    func run() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let runner = Runner(options: self, loop: loop)
        let report: Report
        do { report = try await runner.run() } catch { try? await group.shutdownGracefully(); throw error }
        try? await group.shutdownGracefully()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(report)
        if let output { try data.write(to: URL(fileURLWithPath: output)) }
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

func log(_ message: String) {
    let line = "[LiveLoadBenchmark \(ISO8601DateFormatter().string(from: Date()).suffix(9).prefix(8))] \(message)\n"
    FileHandle.standardError.write(Data(line.utf8))
}

// MARK: - Report

struct Report: Codable {
    struct Options: Codable {
        var mode: String
        var seam: String?
        var contentUrl: String?
        var staticUrl: String?
        var sessions: Int
        var durationS: Double
        var warmupS: Double
        var reloadS: Double
        var connections: Int
        var createConcurrency: Int
        var timeoutS: Double
        var sloMs: Double
        var seed: UInt64
        var generatorThreads: Int
        var acceptEncoding: String?
    }

    struct ClosedPhase: Codable {
        var requested: Int
        var succeeded: Int
        var statuses: [String: Int]
        var failures: [String: Int]
        var seconds: Double
        var perSecond: Double
        var latency: LatencySummary
    }

    struct Reload: Codable {
        var sessions: Int
        var distinctTargets: Int
        var exampleTarget: String
        var scheduledPerSecond: Double
        var measuredSeconds: Double
        var sent: Int
        var ok: Int
        var errors: Int
        var okPerSecond: Double
        var statuses: [String: Int]
        var failures: [String: Int]
        var notAnsweredAtEnd: Int
        var bytesPerAnswer: Double
        /// Scheduled send time -> last byte: the number to report.
        var latency: LatencySummary
        /// Written -> last byte (closed-loop view, for comparison with wrk).
        var service: LatencySummary
        /// Scheduled -> handed to the pool: the generator's own timer lateness.
        var generatorTimerLag: LatencySummary
        /// Handed to the pool -> written: waiting for a free keep-alive connection.
        var connectionQueueWait: LatencySummary
        var overSlo: UInt64
        var secondsWithAnswerOverSlo: Int
        var worstSeconds: [SecondBucket]
        var timeline: [SecondBucket]?
    }

    struct Snapshot: Codable {
        var epoch: Double
        var serverRssKiB: Int?
        var serverCpuS: Double?
        var generatorCpuS: Double
        var loadavg: String
        var counters: [String: Double]?
        /// The --metric-series counters by series (`name{labels}`), summed over the pages.
        var series: [String: Double]?
        /// The --metric counters of each page, when there is more than one (one per replica).
        var pages: [String: [String: Double]]?
        /// What --snapshot-command printed.
        var external: String?
    }

    struct Usage: Codable {
        var serverCpuS: Double?
        var serverCoresBusy: Double?
        var serverCpuUsPerRequest: Double?
        var generatorCpuS: Double
        var generatorCoresBusy: Double
        var generatorCpuUsPerRequest: Double
    }

    struct Counter: Codable {
        var start: Double?
        var end: Double?
        var delta: Double?
        var perSecond: Double?
        var present: Bool
    }

    struct Pool: Codable {
        var authority: String
        var size: Int
        var connected: Int
        var reconnects: Int
        var connectFailures: Int
    }

    var options: Options
    var create: ClosedPhase?
    var firstManifest: ClosedPhase?
    var reload: Reload
    var snapshots: [String: Snapshot]
    var usageDuringReload: Usage
    var counters: [String: Counter]
    /// The --metric-series counters over the reload phase, by series.
    var series: [String: Counter]?
    var serverRssPerSessionBytes: [String: Double]
    var pools: [Pool]
    /// One row per second of the reload phase: where the machine's CPU went (cores busy).
    var cpuTimeline: [CPUSecond]?
    var notes: [String]
}

struct CPUSecond: Codable {
    var second: Int
    var machine: Double
    var server: Double?
    var generator: Double
    /// Everything else on the machine: what competes with the server and the generator.
    var others: Double
    var serverRssKiB: Int?
}

/// Samples, once a second, the machine's busy CPU, the server's and this process's, so latency
/// outliers can be laid next to what else the machine was doing at that moment.
func sampleCPU(seconds: Int, serverPids: [Int32]) async -> [CPUSecond] {
    var rows: [CPUSecond] = []
    func read() -> (machine: Double, server: Double?, generator: Double)? {
        guard let machine = ProcessStats.machineCPUSeconds() else { return nil }
        return (machine.busy, ProcessStats.cpuSeconds(pids: serverPids), ProcessStats.selfCPUSeconds())
    }
    guard var previous = read() else { return [] }
    var previousTime = ContinuousClock.now
    for second in 0..<seconds {
        try? await Task.sleep(until: previousTime.advanced(by: .seconds(1)), clock: .continuous)
        guard let now = read(), !Task.isCancelled else { break }
        let elapsed = ContinuousClock.now - previousTime
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        previousTime = ContinuousClock.now
        func r(_ x: Double) -> Double { (x * 100).rounded() / 100 }
        let machine = (now.machine - previous.machine) / wall
        var server: Double?
        if let a = previous.server, let b = now.server { server = (b - a) / wall }
        let generator = (now.generator - previous.generator) / wall
        rows.append(CPUSecond(second: second, machine: r(machine), server: server.map(r), generator: r(generator),
                              others: r(max(0, machine - (server ?? 0) - generator)),
                              serverRssKiB: ProcessStats.rssKiB(pids: serverPids)))
        previous = now
    }
    return rows
}

// MARK: - Runner

final class Runner: @unchecked Sendable {
    let options: LiveLoadBenchmark
    let loop: EventLoop
    private var pools: [String: ConnectionPool] = [:]   // by authority; touched on the loop only
    private var notes: [String] = []

    init(options: LiveLoadBenchmark, loop: EventLoop) {
        self.options = options
        self.loop = loop
    }

    private var connectionsPerPool: Int { min(options.connections, max(options.sessions, options.createConcurrency)) }

    /// The pool for `url`'s host, opened on first use.
    private func pool(for url: HTTPURL, size: Int? = nil) async throws -> ConnectionPool {
        let size = size ?? connectionsPerPool
        let timeout = TimeAmount.nanoseconds(Int64(options.timeout * 1e9))
        let (pool, isNew) = try await loop.submit { [self] in
            if let existing = pools[url.authority] { return (existing, false) }
            let created = ConnectionPool(
                loop: loop, url: url, size: size, timeout: timeout, acceptEncoding: options.acceptEncoding)
            pools[url.authority] = created
            return (created, true)
        }.get()
        if isNew {
            log("opening \(size) connections to \(url.authority)")
            try await loop.flatSubmit { pool.open() }.get()
            let connected = try await loop.submit { pool.opened }.get()
            if connected < size { notes.append("\(url.authority): only \(connected) of \(size) connections opened at first") }
        }
        return pool
    }

    private func snapshot(counterPages: [MetricsPage], external: Bool = false) async -> Report.Snapshot {
        var counters: [String: Double]?
        var series: [String: Double]?
        var pages: [String: [String: Double]]?
        for page in counterPages {
            // A page that cannot be read leaves the sums absent rather than short.
            guard let read = await readCounters(pool: page.pool, target: page.target) else { counters = nil; series = nil; break }
            counters = (counters ?? [:]).merging(read.counters, uniquingKeysWith: +)
            if !options.metricSeries.isEmpty { series = (series ?? [:]).merging(read.series, uniquingKeysWith: +) }
            if counterPages.count > 1 { pages = (pages ?? [:]).merging([page.name: read.counters]) { $1 } }
        }
        let pids = options.serverPids
        let epoch = ProcessStats.wallClock()
        return Report.Snapshot(
            epoch: epoch,
            serverRssKiB: ProcessStats.rssKiB(pids: pids),
            serverCpuS: ProcessStats.cpuSeconds(pids: pids),
            generatorCpuS: ProcessStats.selfCPUSeconds(),
            loadavg: ProcessStats.loadAverage(),
            counters: counters, series: series, pages: pages,
            external: external ? options.snapshotCommand.flatMap(runSnapshotCommand) : nil)
    }

    /// A Prometheus page to read counters from, on a one-connection pool of its own.
    struct MetricsPage {
        let name: String
        let pool: ConnectionPool
        let target: String
    }

    /// Reads the requested counters from a Prometheus text page; a counter absent from the page is
    /// absent from the answer (nil for the whole page when it cannot be fetched).
    private func readCounters(pool: ConnectionPool, target: String) async -> (counters: [String: Double], series: [String: Double])? {
        let outcome: LoadOutcome? = try? await loop.flatSubmit { [loop] in
            let promise = loop.makePromise(of: LoadOutcome.self)
            let now = NIODeadline.now()
            pool.submit(LoadRequest(method: .GET, target: target, keepBody: true, scheduled: now, enqueued: now) { _, outcome in
                promise.succeed(outcome)
            })
            return promise.futureResult
        }.get()
        guard case .response(200, let body?, _, _, _) = outcome else { return nil }
        var result: [String: Double] = [:]
        var series: [String: Double] = [:]
        for line in String(buffer: body).split(separator: "\n") where !line.hasPrefix("#") {
            for name in options.metrics where line.hasPrefix(name) {
                let rest = line.dropFirst(name.count)
                guard rest.first == " " || rest.first == "{" else { continue }
                if let value = line.split(separator: " ").last.flatMap({ Double($0) }) {
                    result[name, default: 0] += value
                }
            }
            for name in options.metricSeries where line.hasPrefix(name) {
                let rest = line.dropFirst(name.count)
                guard rest.first == " " || rest.first == "{",
                      let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
                series[String(line[..<space]), default: 0] += value
            }
        }
        return (result, series)
    }

    /// Runs --snapshot-command with /bin/sh and returns its standard output (nil when it fails).
    private func runSnapshotCommand(_ command: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `count` requests with at most `concurrency` in flight; latency from submission.
    private func closedLoop(count: Int, concurrency: Int,
                            make: @escaping @Sendable (Int) -> (ConnectionPool, HTTPMethod, String, ByteBuffer?, String?)?,
                            done: @escaping @Sendable (Int, LoadOutcome) -> Void) async throws -> Report.ClosedPhase {
        final class State: @unchecked Sendable {
            var next = 0, finished = 0, succeeded = 0
            var histogram = Histogram()
            var statuses: [String: Int] = [:], failures: [String: Int] = [:]
        }
        let state = State()
        let started = NIODeadline.now()
        try await loop.flatSubmit { [loop] in
            let promise = loop.makePromise(of: Void.self)
            func launch() {
                while state.next < count {
                    let index = state.next
                    state.next += 1
                    guard let (pool, method, target, body, viewer) = make(index) else {
                        state.finished += 1
                        state.failures["skipped (no URL)", default: 0] += 1
                        continue
                    }
                    let now = NIODeadline.now()
                    pool.submit(LoadRequest(method: method, target: target, body: body, forwardedFor: viewer, keepBody: true,
                                            scheduled: now, enqueued: now) { request, outcome in
                        state.finished += 1
                        switch outcome {
                        case .response(let status, _, _, _, let finished):
                            state.statuses[String(status), default: 0] += 1
                            if (200..<300).contains(status) {
                                state.succeeded += 1
                                state.histogram.record(nanoseconds: (finished - request.scheduled).nanoseconds)
                            }
                        case .failure(let kind):
                            state.failures[kind, default: 0] += 1
                        }
                        done(index, outcome)
                        if state.finished == count { promise.succeed(()) } else { launch() }
                    })
                    return
                }
                if state.finished == count { promise.succeed(()) }
            }
            for _ in 0..<min(concurrency, count) { launch() }
            return promise.futureResult
        }.get()
        let seconds = Double((NIODeadline.now() - started).nanoseconds) / 1e9
        return try await loop.submit {
            Report.ClosedPhase(requested: count, succeeded: state.succeeded, statuses: state.statuses,
                               failures: state.failures, seconds: (seconds * 1000).rounded() / 1000,
                               perSecond: (Double(state.succeeded) / seconds).rounded(),
                               latency: state.histogram.summary())
        }.get()
    }

    func run() async throws -> Report {
        let n = options.sessions
        let staticMode = options.staticUrl != nil
        let seamURL = HTTPURL(options.seam)!
        var snapshots: [String: Report.Snapshot] = [:]

        // Where counters come from: a one-connection pool of its own, so a scrape never queues
        // behind the load.
        var counterPages: [MetricsPage] = []
        let metricsSpecs = options.metricsUrls.isEmpty ? [staticMode ? "none" : options.seam.trimmingSuffix("/") + "/metrics"] : options.metricsUrls
        let metricsSpec = metricsSpecs.joined(separator: " and ")
        for spec in metricsSpecs where spec != "none" {
            guard let url = HTTPURL(spec) else { continue }
            let pool = ConnectionPool(loop: loop, url: url, size: 1, timeout: .seconds(10))
            try await loop.flatSubmit { pool.open() }.get()
            counterPages.append(MetricsPage(name: spec, pool: pool, target: url.target))
        }

        snapshots["beforeCreate"] = await snapshot(counterPages: [])

        var targets: [Pacer.Target] = []
        var createPhase: Report.ClosedPhase?
        var manifestPhase: Report.ClosedPhase?
        if let staticUrl = options.staticUrl {
            let url = HTTPURL(staticUrl)!
            let pool = try await pool(for: url)
            targets = Array(repeating: Pacer.Target(pool: pool, target: url.target), count: n)
        } else {
            // (a) sessions
            let seamPool = try await pool(for: seamURL)
            let bodyText = try String(decoding: JSONSerialization.data(withJSONObject: ["url": options.contentUrl]), as: UTF8.self)
            let body = ByteBuffer(string: bodyText)
            let createTarget = seamURL.target.trimmingSuffix("/") + "/v1/sessions"
            // Session i's viewer address, on each of its requests, when the generator plays distinct viewers.
            let viewers: [String]? = options.forwardedFor ? (0..<n).map { viewerAddress($0) } : nil
            final class Collected: @unchecked Sendable {
                var manifests: [HTTPURL?]
                var media: [HTTPURL?]
                var firstError: String?
                init(_ n: Int) { manifests = Array(repeating: nil, count: n); media = Array(repeating: nil, count: n) }
            }
            let collected = Collected(n)
            log("creating \(n) sessions for \(options.contentUrl), \(options.createConcurrency) at a time")
            createPhase = try await closedLoop(count: n, concurrency: options.createConcurrency, make: { index in
                (seamPool, .POST, createTarget, body, viewers?[index])
            }, done: { index, outcome in
                guard case .response(let status, let answer, _, _, _) = outcome else { return }
                let text = answer.map { String(buffer: $0) } ?? ""
                guard status == 201,
                      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                      let manifest = object["manifestUrl"] as? String, let url = HTTPURL(manifest) else {
                    if collected.firstError == nil { collected.firstError = "HTTP \(status): \(text.prefix(300))" }
                    return
                }
                collected.manifests[index] = url
            })
            log("created \(createPhase!.succeeded) of \(n) in \(createPhase!.seconds) s")
            if let error = collected.firstError { notes.append("first failed session creation: \(error)") }
            try await Task.sleep(nanoseconds: UInt64(options.settle * 1e9))
            snapshots["afterCreate"] = await snapshot(counterPages: [])

            // (b) each session's multivariant playlist, once; its first media playlist
            var manifestPools: [String: ConnectionPool] = [:]
            for url in collected.manifests.compactMap({ $0 }) where manifestPools[url.authority] == nil {
                manifestPools[url.authority] = try await pool(for: url)
            }
            let fixedPools = manifestPools
            log("reading \(collected.manifests.compactMap { $0 }.count) multivariant playlists")
            manifestPhase = try await closedLoop(count: n, concurrency: options.createConcurrency, make: { index in
                guard let url = collected.manifests[index], let pool = fixedPools[url.authority] else { return nil }
                return (pool, .GET, url.target, nil, viewers?[index])
            }, done: { index, outcome in
                guard case .response(200, let answer?, _, _, _) = outcome, let manifest = collected.manifests[index] else { return }
                let text = String(buffer: answer)
                guard let uri = firstMediaPlaylistURI(in: text) else {
                    if collected.firstError == nil { collected.firstError = "no media playlist in \(manifest): \(text.prefix(300))" }
                    return
                }
                collected.media[index] = uri.isEmpty ? manifest : manifest.resolve(uri)
            })
            let media = collected.media.compactMap { $0 }
            guard !media.isEmpty else {
                throw ValidationError("no session has a media playlist to reload: \(collected.firstError ?? notes.joined(separator: "; "))")
            }
            if media.count < n { notes.append("\(n - media.count) of \(n) sessions have no media playlist to reload; reloading \(media.count)") }
            for url in media where manifestPools[url.authority] == nil {
                manifestPools[url.authority] = try await pool(for: url)
            }
            targets = collected.media.indices.compactMap { index in
                collected.media[index].map { Pacer.Target(pool: manifestPools[$0.authority]!, target: $0.target, forwardedFor: viewers?[index]) }
            }
        }

        // (c) paced reloads
        let period = TimeAmount.nanoseconds(Int64(options.reloadSeconds * 1e9))
        let pacer = Pacer(loop: loop, targets: targets, period: period, sloMs: options.sloMs, seed: options.seed)
        let rate = Double(targets.count) / options.reloadSeconds
        log("reloading \(targets.count) playlists every \(options.reloadSeconds) s (\(Int(rate)) requests/s) for \(options.warmup) + \(options.duration) s")
        let warmupNanos = Int64(options.warmup * 1e9)
        let durationNanos = Int64(options.duration * 1e9)
        let done = try await loop.submit { pacer.run(warmup: .nanoseconds(warmupNanos), duration: .nanoseconds(durationNanos)) }.get()
        if options.warmup > 0 { try await Task.sleep(nanoseconds: UInt64(warmupNanos)) }
        snapshots["reloadStart"] = await snapshot(counterPages: counterPages, external: true)
        let serverPids = options.serverPids
        let cpuSampler = Task { await sampleCPU(seconds: Int(options.duration.rounded(.down)), serverPids: serverPids) }
        try await Task.sleep(nanoseconds: UInt64(durationNanos))
        let cpuTimeline = await cpuSampler.value
        snapshots["reloadEnd"] = await snapshot(counterPages: counterPages, external: true)
        // Drain: every request sent gets its answer or its timeout.
        let drainLimit = options.timeout + 5
        let drained = await withTaskGroup(of: Bool.self) { group -> Bool in
            group.addTask { (try? await done.get()) != nil }
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(drainLimit * 1e9)); return false }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        if !drained { notes.append("requests still unanswered \(drainLimit) s after the end") }

        // (d) report
        let (recorder, sent, poolRows, unanswered) = try await loop.submit { [self] in
            (pacer.recorder, pacer.sent,
             pools.values.map { Report.Pool(authority: $0.hostHeader, size: $0.size, connected: $0.opened,
                                            reconnects: $0.reconnects, connectFailures: $0.connectFailures) },
             pools.values.reduce(0) { $0 + $1.outstanding })
        }.get()
        let scrapePools = counterPages.map(\.pool)
        _ = try? await loop.flatSubmit { [self] in
            EventLoopFuture.andAllComplete(pools.values.map { $0.close() } + scrapePools.map { $0.close() }, on: loop)
        }.get()

        let start = snapshots["reloadStart"]!, end = snapshots["reloadEnd"]!
        let measured = end.epoch - start.epoch
        let ok = recorder.latency.count
        let errors = recorder.statuses.filter { !(200..<300).contains($0.key) }.reduce(0) { $0 + $1.value }
            + recorder.failures.values.reduce(0, +)
        let generatorCpu = end.generatorCpuS - start.generatorCpuS
        var serverCpu: Double?
        if let a = start.serverCpuS, let b = end.serverCpuS { serverCpu = b - a }
        let answered = max(1.0, Double(ok))
        func round(_ x: Double, _ places: Double = 1000) -> Double { (x * places).rounded() / places }

        var counters: [String: Report.Counter] = [:]
        func counter(_ a: Double?, _ b: Double?) -> Report.Counter {
            var counter = Report.Counter(start: a, end: b, present: a != nil && b != nil)
            if let a, let b { counter.delta = b - a; counter.perSecond = round((b - a) / measured) }
            return counter
        }
        for name in options.metrics where !counterPages.isEmpty {
            counters[name] = counter(start.counters?[name], end.counters?[name])
            if !counters[name]!.present { notes.append("counter \(name) is absent from \(metricsSpec)") }
        }
        if !counterPages.isEmpty && start.counters == nil { notes.append("could not read \(metricsSpec)") }
        var series: [String: Report.Counter]?
        if !options.metricSeries.isEmpty, let a = start.series, let b = end.series {
            // A series that first appears during the phase started from zero.
            series = Dictionary(uniqueKeysWithValues: Set(a.keys).union(b.keys).map { ($0, counter(a[$0] ?? 0, b[$0])) })
        }

        var perSession: [String: Double] = [:]
        if let before = snapshots["beforeCreate"]?.serverRssKiB {
            for key in ["afterCreate", "reloadStart", "reloadEnd"] {
                if let after = snapshots[key]?.serverRssKiB { perSession[key] = round(Double(after - before) * 1024 / Double(n), 10) }
            }
        }

        let worst = recorder.timeline.sorted { $0.maxMs > $1.maxMs }.prefix(5)
        let reload = Report.Reload(
            sessions: n, distinctTargets: Set(targets.map(\.target)).count, exampleTarget: targets.first.map(\.target) ?? "",
            scheduledPerSecond: round(rate, 10), measuredSeconds: round(measured), sent: sent, ok: Int(ok), errors: errors,
            okPerSecond: round(Double(ok) / options.duration, 10),
            statuses: Dictionary(uniqueKeysWithValues: recorder.statuses.map { (String($0.key), $0.value) }),
            failures: recorder.failures, notAnsweredAtEnd: unanswered,
            bytesPerAnswer: round(Double(recorder.bytes) / answered, 10),
            latency: recorder.latency.summary(), service: recorder.service.summary(),
            generatorTimerLag: recorder.timerLag.summary(), connectionQueueWait: recorder.queueWait.summary(),
            overSlo: recorder.latency.countAbove(micros: UInt64(options.sloMs * 1000)),
            secondsWithAnswerOverSlo: recorder.timeline.filter { $0.overSlo > 0 }.count,
            worstSeconds: Array(worst), timeline: options.timeline ? recorder.timeline : nil)

        return Report(
            options: .init(mode: staticMode ? "static" : "sessions", seam: staticMode ? nil : options.seam,
                           contentUrl: staticMode ? nil : options.contentUrl, staticUrl: options.staticUrl,
                           sessions: n, durationS: options.duration, warmupS: options.warmup, reloadS: options.reloadSeconds,
                           connections: connectionsPerPool, createConcurrency: options.createConcurrency,
                           timeoutS: options.timeout, sloMs: options.sloMs, seed: options.seed, generatorThreads: 1,
                           acceptEncoding: options.acceptEncoding),
            create: createPhase, firstManifest: manifestPhase, reload: reload, snapshots: snapshots,
            usageDuringReload: .init(
                serverCpuS: serverCpu.map { round($0, 100) }, serverCoresBusy: serverCpu.map { round($0 / measured) },
                serverCpuUsPerRequest: serverCpu.map { round($0 * 1e6 / answered, 10) },
                generatorCpuS: round(generatorCpu, 100), generatorCoresBusy: round(generatorCpu / measured),
                generatorCpuUsPerRequest: round(generatorCpu * 1e6 / answered, 10)),
            counters: counters, series: series, serverRssPerSessionBytes: perSession, pools: poolRows,
            cpuTimeline: options.timeline ? cpuTimeline : nil, notes: notes)
    }
}

/// Session `index`'s viewer address: 10.0.0.1, 10.0.0.2, … (distinct for up to 16 million sessions).
func viewerAddress(_ index: Int) -> String {
    let n = index + 1
    return "10.\((n >> 16) & 255).\((n >> 8) & 255).\(n & 255)"
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
