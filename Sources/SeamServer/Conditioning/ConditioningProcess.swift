import Foundation
import NIOConcurrencyHelpers

/// Runs ffmpeg or ffprobe for a conditioning job: at low priority (`nice`, and the `SCHED_IDLE`
/// scheduling policy through `chrt --idle` when `idlePriority`), with a wall-clock limit after
/// which the process is killed, with address-space and CPU-time limits (`prlimit`, util-linux,
/// when installed), stdin closed, and the tail of its stderr kept for the log.
///
/// Why `SCHED_IDLE`: `nice` alone lowers ffmpeg's share of the CPU, but a serving thread that
/// wakes up still waits for the running encoder thread's time slice; the playlist p99 doubled
/// under load with jobs at nice 10 (BENCHMARKS.md, "Conditioning"). An idle-policy task is
/// preempted as soon as a normal one wants the core.
struct ConditioningProcess: Sendable {
    /// How a run ended.
    struct Result: Sendable {
        var status: Int32
        var timedOut: Bool
        var standardOutput: Data
        /// The last 4 KiB of stderr.
        var errorTail: String
    }

    var niceness: Int
    /// Runs under `SCHED_IDLE` (`chrt --idle 0`, when installed): only on CPU serving leaves.
    var idlePriority: Bool = true
    var timeoutSeconds: Double
    /// Address-space limit, bytes (0: none).
    var memoryLimitBytes: Int
    /// CPU-time limit, seconds (0: none).
    var cpuLimitSeconds: Int

    /// The command line actually started: `prlimit ... -- chrt --idle 0 nice -n N tool args`
    /// (parts left out when their tool is missing, their limit is 0 or `idlePriority` is off).
    func commandLine(_ tool: String, _ arguments: [String]) -> [String] {
        var line: [String] = []
        if let prlimit = Self.which("prlimit"), memoryLimitBytes > 0 || cpuLimitSeconds > 0 {
            line.append(prlimit)
            if memoryLimitBytes > 0 { line.append("--as=\(memoryLimitBytes)") }
            if cpuLimitSeconds > 0 { line.append("--cpu=\(cpuLimitSeconds)") }
            line.append("--")
        }
        if idlePriority, let chrt = Self.which("chrt") { line += [chrt, "--idle", "0"] }
        if niceness > 0, let nice = Self.which("nice") { line += [nice, "-n", "\(min(19, niceness))"] }
        line.append(Self.which(tool) ?? tool)
        return line + arguments
    }

    /// Runs the command on a thread of its own (launching and waiting block): the caller's task
    /// waits without holding a thread of the cooperative pool. Pipes are read with plain blocking
    /// reads (no `readabilityHandler`, whose dispatch sources have crashed the process when the
    /// pipe closed under them).
    func run(_ tool: String, _ arguments: [String]) async throws -> Result {
        try Self.checkDescriptorHeadroom()
        let line = commandLine(tool, arguments)
        let timeout = timeoutSeconds
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try Self.runBlocking(line, timeoutSeconds: timeout) })
            }
        }
    }

    private static func runBlocking(_ line: [String], timeoutSeconds: Double) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: line[0])
        process.arguments = Array(line.dropFirst())
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let killed = NIOLockedValueBox(false)
        let pid = process.processIdentifier
        let killer = DispatchWorkItem {
            guard process.isRunning else { return }
            killed.withLockedValue { $0 = true }
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: killer)
        // stderr on another thread, so neither pipe fills while the other is read.
        let errorData = NIOLockedValueBox(Data())
        let errorsDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLockedValue { $0 = data.suffix(4096) }
            errorsDone.signal()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        errorsDone.wait()
        process.waitUntilExit()
        killer.cancel()
        return Result(status: process.terminationStatus, timedOut: killed.withLockedValue { $0 }, standardOutput: out,
                      errorTail: String(decoding: errorData.withLockedValue { $0 }, as: UTF8.self))
    }

    /// Why a launch was refused: too few free file descriptors.
    struct DescriptorShortage: Error, CustomStringConvertible {
        var open: Int
        var limit: Int
        var description: String {
            "only \(limit - open) of \(limit) file descriptors are free (RLIMIT_NOFILE): ffmpeg is not launched with fewer than \(ConditioningProcess.minimumFreeDescriptors)"
        }
    }

    /// Free descriptors a launch needs. Foundation's `Process` and `Pipe` trap (they end the whole
    /// server) when a descriptor cannot be had, and so does swift-subprocess 1.0.2 (both measured
    /// here with the table full); a launch is therefore refused, failing its job, unless this
    /// many are free. The check races with other threads opening descriptors, so the margin is
    /// wide; `server.maxConnections` below the process limit keeps floods from reaching it.
    static let minimumFreeDescriptors = 256

    /// Throws `DescriptorShortage` unless `minimumFree` descriptors are free (open ones counted
    /// in `/proc/self/fd`, against the soft `RLIMIT_NOFILE`); no check where those cannot be read.
    static func checkDescriptorHeadroom(minimumFree: Int = minimumFreeDescriptors) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
              let directory = opendir("/proc/self/fd") else { return }
        var open = 0
        while readdir(directory) != nil { open += 1 }
        closedir(directory)
        // "." and "..", and the descriptor the listing itself held.
        open = max(0, open - 3)
        let max = Int(clamping: limit.rlim_cur)
        guard max - open >= minimumFree else { throw DescriptorShortage(open: open, limit: max) }
    }

    /// The executable's path on `PATH`, or nil.
    static func which(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
