import Foundation
import NIOConcurrencyHelpers

/// Runs ffmpeg or ffprobe for a conditioning job: at low priority (`nice`), with a wall-clock
/// limit after which the process is killed, with address-space and CPU-time limits (`prlimit`,
/// util-linux, when installed), stdin closed, and the tail of its stderr kept for the log.
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
    var timeoutSeconds: Double
    /// Address-space limit, bytes (0: none).
    var memoryLimitBytes: Int
    /// CPU-time limit, seconds (0: none).
    var cpuLimitSeconds: Int

    /// The command line actually started: `prlimit ... -- nice -n N tool args` (parts left out
    /// when their tool is missing or their limit is 0).
    func commandLine(_ tool: String, _ arguments: [String]) -> [String] {
        var line: [String] = []
        if let prlimit = Self.which("prlimit"), memoryLimitBytes > 0 || cpuLimitSeconds > 0 {
            line.append(prlimit)
            if memoryLimitBytes > 0 { line.append("--as=\(memoryLimitBytes)") }
            if cpuLimitSeconds > 0 { line.append("--cpu=\(cpuLimitSeconds)") }
            line.append("--")
        }
        if niceness > 0, let nice = Self.which("nice") { line += [nice, "-n", "\(min(19, niceness))"] }
        line.append(Self.which(tool) ?? tool)
        return line + arguments
    }

    func run(_ tool: String, _ arguments: [String]) async throws -> Result {
        let line = commandLine(tool, arguments)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: line[0])
        process.arguments = Array(line.dropFirst())
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let collected = NIOLockedValueBox((out: Data(), err: Data()))
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            collected.withLockedValue { $0.out.append(chunk) }
        }
        errors.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            collected.withLockedValue { value in
                value.err.append(chunk)
                if value.err.count > 8192 { value.err = value.err.suffix(4096) }
            }
        }
        let killed = NIOLockedValueBox(false)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds) {
                guard process.isRunning else { return }
                killed.withLockedValue { $0 = true }
                kill(pid, SIGKILL)
            }
        }
        // What is still in the pipes once the process is gone.
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        let restOut = (try? output.fileHandleForReading.readToEnd()) ?? nil
        let restErr = (try? errors.fileHandleForReading.readToEnd()) ?? nil
        let (out, err) = collected.withLockedValue { value in
            (value.out + (restOut ?? Data()), value.err + (restErr ?? Data()))
        }
        return Result(status: status, timedOut: killed.withLockedValue { $0 }, standardOutput: out,
                      errorTail: String(decoding: err.suffix(4096), as: UTF8.self))
    }

    /// The executable's path on `PATH`, or nil.
    static func which(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
