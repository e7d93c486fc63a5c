import CSeamSystem
import Foundation

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
    /// waits without holding a thread of the cooperative pool.
    func run(_ tool: String, _ arguments: [String]) async throws -> Result {
        let line = commandLine(tool, arguments)
        let timeout = timeoutSeconds
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try Self.runBlocking(line, timeoutSeconds: timeout) })
            }
        }
    }

    /// Why a run could not start: the call that failed and its `errno` (`EMFILE` when the
    /// process has no descriptor left for the pipes, `ENOENT` for a missing tool).
    struct LaunchFailure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var tool: String
        var description: String {
            "\(tool) cannot be launched: \(call) failed with \(String(cString: strerror(code)))"
                + (code == EMFILE || code == ENFILE
                    ? " (no file descriptor left: see server.maxConnections and the process's RLIMIT_NOFILE)" : "")
        }
    }

    /// Most of stdout kept (ffprobe's JSON is a few KiB; ffmpeg writes its output to files).
    static let standardOutputLimit = 16 << 20

    /// `posix_spawn`, not Foundation's `Process`: `Process` and `Pipe` trap when a descriptor
    /// cannot be had, ending the server (and so does swift-subprocess 1.0.2), and `Process.run()`
    /// lists the open descriptors into a buffer of its own, which descriptors opened meanwhile
    /// can overrun (a test process died so once, see `DescriptorFloodGate`). Here every failure
    /// is an error for the job: the pipes are close-on-exec; the child gets stdin from /dev/null,
    /// the pipes as stdout and stderr, no other descriptor of the server (`closefrom(3)`), an
    /// empty signal mask and SIGPIPE at its default. One `poll` loop drains both pipes and kills
    /// the child at the deadline.
    static func runBlocking(_ line: [String], timeoutSeconds: Double) throws -> Result {
        let tool = (line[0] as NSString).lastPathComponent
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        var code = cseam_pipe_cloexec(&output)
        guard code == 0 else { throw LaunchFailure(call: "pipe2", code: code, tool: tool) }
        code = cseam_pipe_cloexec(&errors)
        guard code == 0 else {
            close(output[0]); close(output[1])
            throw LaunchFailure(call: "pipe2", code: code, tool: tool)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = line.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = cseam_spawn(&pid, line[0], argv, environ, output[1], errors[1])
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(output[0]); close(errors[0])
            throw LaunchFailure(call: "posix_spawn", code: spawned, tool: tool)
        }

        var standardOutput = Data(), errorTail = Data()
        var killed = false
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeoutSeconds) * 1000))
        // Once killed, a child is given this long to close its pipes (a grandchild might hold them).
        var drainDeadline = deadline + .seconds(5)
        var descriptors = [
            pollfd(fd: output[0], events: Int16(POLLIN), revents: 0),
            pollfd(fd: errors[0], events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while descriptors.contains(where: { $0.fd >= 0 }) {
            let now = ContinuousClock.now
            if !killed, now >= deadline {
                kill(pid, SIGKILL)
                killed = true
                drainDeadline = now + .seconds(5)
            }
            if killed, now >= drainDeadline { break }
            let wait = (killed ? drainDeadline : deadline) - now
            let milliseconds = Int32(
                clamping: max(
                    0, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000 + 1))
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = read(descriptors[index].fd, &buffer, buffer.count)
                if count > 0 {
                    if index == 0 {
                        if standardOutput.count < standardOutputLimit {
                            standardOutput.append(contentsOf: buffer[..<count])
                        }
                    } else {
                        errorTail.append(contentsOf: buffer[..<count])
                        if errorTail.count > 16 << 10 { errorTail = errorTail.suffix(4096) }
                    }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                }
            }
        }
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
        // The pipes are closed: the child is ending, or is past its time and killed now.
        var status: Int32 = 0
        var reaped = false
        while true {
            let answer = waitpid(pid, &status, WNOHANG)
            if answer == pid { reaped = true }
            if reaped || (answer < 0 && errno != EINTR) { break }
            if !killed, ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(5_000)
        }
        // An exit code, or the signal that ended the child (as Foundation's terminationStatus).
        // -1: the status could not be read (not a success).
        let signal = status & 0x7f
        let exit = !reaped ? -1 : signal == 0 ? (status >> 8) & 0xff : signal
        return Result(
            status: exit, timedOut: killed, standardOutput: standardOutput,
            errorTail: String(decoding: errorTail.suffix(4096), as: UTF8.self))
    }

    /// The executable's path on `PATH`, or nil.
    static func which(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(
            separator: ":")
        return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
