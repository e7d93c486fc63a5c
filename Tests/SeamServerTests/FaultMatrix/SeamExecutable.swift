import Foundation
import SeamTesting
import NIOConcurrencyHelpers

/// The `seam` executable that `swift build` puts next to the test bundle (or `$SEAM_BINARY`),
/// run as a child process: for measurements that must see Seam's process alone, such as its CPU
/// time, which other tests running in this process would blur.
final class SeamExecutable: Sendable {
    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the seam executable was not found (build it with `swift build`, or set SEAM_BINARY); searched \(searched.joined(separator: ", "))"
        }
    }

    static func locate() throws -> URL {
        if let explicit = ProcessInfo.processInfo.environment["SEAM_BINARY"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        var searched: [String] = []
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<3 {
                let candidate = directory.appendingPathComponent("seam")
                searched.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw NotFound(searched: searched)
    }

    let process: Process
    let port: Int
    private let output: NIOLockedValueBox<String>
    private let exit: Exit
    /// Ended when the output pipe reached its end: every line the process wrote is in `log`.
    private let drained: Exit

    /// Everything the process wrote so far (its log).
    var log: String { output.withLockedValue { $0 } }

    private init(process: Process, port: Int, output: NIOLockedValueBox<String>, exit: Exit, drained: Exit) {
        self.process = process
        self.port = port
        self.output = output
        self.exit = exit
        self.drained = drained
    }

    /// Resumes whoever waits once the process has ended.
    final class Exit: Sendable {
        private let state = NIOLockedValueBox<(ended: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func ended() {
            let waiters = state.withLockedValue { state in
                state.ended = true
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.resume() }
        }

        var isEnded: Bool { state.withLockedValue { $0.ended } }

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { state -> Bool in
                    if state.ended { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Starts `seam serve --port 0` with `settings` (`key=value`) and waits for it to listen.
    /// `environment` is added to the test's own (without its `SEAM_*`).
    static func serve(
        _ settings: [String], stateDirectory: String, environment: [String: String] = [:]
    ) async throws -> SeamExecutable {
        let process = Process()
        process.executableURL = try locate()
        process.arguments =
            ["serve", "--port", "0", "--log-level", "info", "--set", "sessions.stateDirectory=\(stateDirectory)"]
            + settings.flatMap { ["--set", $0] }
        // No SEAM_* from the test's environment.
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SEAM_") }
            .merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = NIOLockedValueBox("")
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let drained = Exit()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
                drained.ended()
                return
            }
            let text = output.withLockedValue { log in
                log += String(decoding: data, as: UTF8.self)
                return log
            }
            if let range = text.range(of: "listening on 127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) {
                    continuation.yield(port)
                    continuation.finish()
                }
            }
        }
        let exit = Exit()
        process.terminationHandler = { _ in exit.ended() }
        try await DescriptorFloodGate.launchFromTask { try process.run() }
        // Give up after 20 s (a first start on a loaded machine is slow, but not that slow).
        let timeout = Task {
            try await Task.sleep(for: .seconds(20))
            continuation.finish()
        }
        var port = 0
        for await value in ports { port = value }
        timeout.cancel()
        let started = SeamExecutable(process: process, port: port, output: output, exit: exit, drained: drained)
        guard port > 0 else {
            await started.stop()
            throw NotFound(searched: ["seam serve did not report its port: \(output.withLockedValue { $0 })"])
        }
        return started
    }

    /// SIGTERM (graceful shutdown, bounded by `server.shutdownTimeoutSeconds`), and waits for the end.
    /// Then waits for its output to be read to the end: the last lines (written at exit, when a
    /// pipe's buffer is flushed) arrive after the process ended, and a loaded machine reads them
    /// later still.
    func stop() async {
        if process.isRunning { process.terminate() }
        await exit.wait()
        // A hang guard only: a pipe some other process still holds open would never end.
        for _ in 0..<200 where !drained.isEnded { try? await Task.sleep(for: .milliseconds(50)) }
    }
}
