import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds and runs the `seam` executable that `swift build` / `swift test` put next to the
/// test bundle, in `.build/<triple>/<configuration>/seam`.
enum SeamBinary {
    /// The executable, or why it could not be found.
    static let location: Result<URL, LocateError> = locate()

    struct LocateError: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            """
            could not find the `seam` executable next to the test bundle. \
            Build it first (`swift build --product seam`, which `swift test` normally does) \
            or set SEAM_BINARY to its path. Searched: \(searched.joined(separator: ", "))
            """
        }
    }

    static func url() throws -> URL {
        try location.get()
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }

    private static func locate() -> Result<URL, LocateError> {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["SEAM_BINARY"], !explicit.isEmpty {
            return isExecutableFile(explicit)
                ? .success(URL(fileURLWithPath: explicit))
                : .failure(LocateError(searched: ["SEAM_BINARY=\(explicit) (not an executable file)"]))
        }
        // Where the test code runs from: the xctest executable (Linux), the .xctest bundle
        // (macOS; its path is among the arguments of the xctest runner), or the bundle of
        // Swift Testing's own entry point.
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        starts.append(Bundle.main.bundleURL)
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for argument in CommandLine.arguments.dropFirst() where argument.hasSuffix(".xctest") {
            starts.append(URL(fileURLWithPath: argument).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            starts.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var searched: [String] = []
        for start in starts {
            var directory = start.standardizedFileURL
            // Up from the bundle's directory: the first level is normally the right one.
            for _ in 0..<5 {
                for candidate in [
                    directory.appendingPathComponent("seam"),
                    directory.appendingPathComponent("debug/seam"),
                    directory.appendingPathComponent("release/seam"),
                ] {
                    let path = candidate.path
                    if searched.contains(path) { continue }
                    searched.append(path)
                    if isExecutableFile(path) { return .success(candidate) }
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return .failure(LocateError(searched: searched))
    }
}

/// What a finished `seam` run left behind.
struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }

    /// `--json` output, parsed.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        guard let dictionary = object as? [String: Any] else {
            throw CLITestError("--json output is not a JSON object:\n\(stdout)")
        }
        return dictionary
    }

    /// The `findings` array of `--json` output.
    func findings() throws -> [[String: Any]] {
        guard let findings = try json()["findings"] as? [[String: Any]] else {
            throw CLITestError("--json output has no findings array:\n\(stdout)")
        }
        return findings
    }
}

struct CLITestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A started `seam` (or other) process whose output goes to files, so that nothing blocks on a full pipe.
final class RunningProcess: @unchecked Sendable {
    let process = Process()
    private let outURL: URL
    private let errURL: URL
    private let exited = DispatchSemaphore(value: 0)

    init(_ executable: URL, _ arguments: [String], directory: URL) throws {
        outURL = directory.appendingPathComponent("stdout-\(UUID().uuidString).txt")
        errURL = directory.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        // The child writes to its own copies from `run()` on; this process's copies are
        // closed at once (a `Process` keeps them for as long as it lives, and a suite that
        // starts a hundred processes would otherwise hold two descriptors for each).
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    deinit {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }

    /// Waits for the process to exit, killing it after `timeout` seconds.
    func finish(timeout: Double = 60) async throws -> RunResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                _ = exited.wait(timeout: .now() + 5)
                throw CLITestError(
                    "\(process.executableURL?.lastPathComponent ?? "process") \(process.arguments ?? []) did not finish within \(Int(timeout)) s"
                )
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        _ = exited.wait(timeout: .now() + 5)
        let out = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return RunResult(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// Stops the process if it still runs (SIGTERM, then SIGKILL).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if exited.wait(timeout: .now() + 3) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 3)
        }
    }
}

/// A temporary directory with helpers to write playlists into it.
final class Workspace: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("seam-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `relativePath` atomically (write + rename), so a concurrent reader
    /// sees the old file or the new one, never half of it.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
        return file
    }

    func path(_ relativePath: String) -> String {
        url.appendingPathComponent(relativePath).path
    }

    /// Starts `seam <arguments>` in this directory.
    func start(_ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(try SeamBinary.url(), arguments, directory: url)
    }

    /// Runs `seam <arguments>` to the end.
    func seam(_ arguments: String...) async throws -> RunResult {
        try await start(arguments).finish()
    }
}

// MARK: Loopback sockets

enum Loopback {
    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
    static func freePort() throws -> Int {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw CLITestError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw CLITestError("bind() failed: errno \(errno)") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw CLITestError("getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    static func answers(port: Int) -> Bool {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}

/// `python3 -m http.server` serving a directory on loopback, for the tests that fetch over HTTP.
final class StaticHTTPServer: @unchecked Sendable {
    let port: Int
    private let server: RunningProcess

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the server and waits (up to `timeout` seconds) until its port answers.
    convenience init(serving directory: URL, timeout: Double = 20) async throws {
        try await self.init(
            python: ["-m", "http.server", "--bind", "127.0.0.1", "--directory", directory.path], timeout: timeout)
    }

    /// Starts `python3 <arguments> <port>`: `http.server` or a script of the test's that takes the
    /// port last and serves on 127.0.0.1.
    init(python arguments: [String], timeout: Double = 20) async throws {
        var lastError: Error = CLITestError("python3 \(arguments.joined(separator: " ")) did not start")
        // A port found free can be taken before python binds it: try a few.
        for _ in 0..<3 {
            let port = try Loopback.freePort()
            let logs = FileManager.default.temporaryDirectory
            let process = try RunningProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3"] + arguments + [String(port)],
                directory: logs)
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline && process.process.isRunning && !Loopback.answers(port: port) {
                try await Task.sleep(for: .milliseconds(100))
            }
            if process.process.isRunning && Loopback.answers(port: port) {
                self.port = port
                self.server = process
                return
            }
            process.stop()
            let result = try? await process.finish(timeout: 5)
            lastError = CLITestError(
                "python3 \(arguments.first ?? "") on port \(port) did not answer: \(result?.description ?? "")")
        }
        throw lastError
    }

    func stop() {
        server.stop()
    }

    deinit {
        server.stop()
    }
}
