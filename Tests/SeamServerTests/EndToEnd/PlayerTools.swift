import Foundation
import NIOConcurrencyHelpers
import Testing
import SeamTesting

/// Runs the real players under `scripts/players/`. Where a player is missing the test says it
/// is skipped and why; with CI=true (CI sets it) a missing player is a failure.
enum PlayerTools {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Run {
        var status: Int32
        var output: String
        var json: [String: Any] {
            // The JSON summary is the last JSON object printed.
            guard let start = output.range(of: "{", options: []) else { return [:] }
            return (try? JSONSerialization.jsonObject(with: Data(output[start.lowerBound...].utf8))) as? [String: Any]
                ?? [:]
        }
    }

    static func available(_ tool: String) -> Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// False (and a recorded skip or failure) when `tool` is missing.
    static func require(_ tool: String, for purpose: String) -> Bool {
        if available(tool) { return true }
        let message = "skipped \(purpose): \(tool) is not installed (.ci/run installs it)"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("CI=true but \(message)")
        } else {
            print(message)
        }
        return false
    }

    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 240) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.currentDirectoryURL = repositoryRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try DescriptorFloodGate.launch { try process.run() }
        // Read until the player exits (reading concurrently, so a large summary cannot fill the
        // pipe and block it); a timer stops a player that hangs.
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// The `seam` executable built next to the running tests (so `--scratch-path` builds find
    /// their own), or `SEAM_BINARY`; nil when neither is there.
    static func seamExecutable() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["SEAM_BINARY"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            starts.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                for candidate in ["seam", "debug/seam"] {
                    let path = directory.appendingPathComponent(candidate).path
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                        FileManager.default.isExecutableFile(atPath: path)
                    {
                        return path
                    }
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// A long Chromium run through `ChromiumGate` (SeamTesting, shared with SeamKit's Chromium
    /// test): `realTime` for a live watch at 1x, which may share the machine with one run that
    /// uses a core. VOD runs at `--rate 8` take seconds and do not take it.
    static func withChromium<Value: Sendable>(
        realTime: Bool = false, _ body: () async throws -> Value
    ) async throws -> Value {
        try await ChromiumGate.withChromium(realTime: realTime, body)
    }

    /// Runs a blocking subprocess off the cooperative pool.
    /// Runs a command that ends at once (`seam` refusing a command, decoding cues), with `input`
    /// on its standard input; its exit status and what it wrote to standard output and standard
    /// error, apart. Standard error is read on its own thread, so neither pipe can fill and stall.
    static func runSeparated(
        _ executable: String, _ arguments: [String], input: String? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let (output, errors, standardInput) = (Pipe(), Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : standardInput
        try process.run()
        if let input {
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            try standardInput.fileHandleForWriting.close()
        }
        let said = NIOLockedValueBox(Data())
        let read = DispatchSemaphore(value: 0)
        Thread {
            said.withLockedValue { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
            read.signal()
        }.start()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        read.wait()
        return (
            process.terminationStatus, String(decoding: printed, as: UTF8.self),
            String(decoding: said.withLockedValue { $0 }, as: UTF8.self)
        )
    }

    static func runAsync(_ executable: String, _ arguments: [String], timeout: TimeInterval = 240) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(executable, arguments, timeout: timeout) })
            }
        }
    }
}
