import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Whose a conditioning work directory (`.work-…`) or probe file (`.probe-…`) is: its name carries
/// `~<host>~<pid>~`, so a Seam starting up can remove at once what a process of its own host left
/// when it stopped mid-job (SIGTERM, a crash) — not only, much later, what has grown older than
/// twice the job time-out. A live process's work, or another host's in a shared directory, is left.
struct WorkOwner: Sendable, Equatable {
    var host: String
    var pid: Int32

    static let current = WorkOwner(host: currentHost(), pid: getpid())

    /// The tag in a work name.
    var tag: String { "~\(host)~\(pid)~" }

    /// The owner named in `entry`, if it carries a tag.
    static func of(_ entry: String) -> WorkOwner? {
        let parts = entry.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count >= 4, let pid = Int32(parts[2]), !parts[1].isEmpty else { return nil }
        return WorkOwner(host: String(parts[1]), pid: pid)
    }

    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    private static func currentHost() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "host" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Only what a file name and the tag's separators allow.
        let safe = name.unicodeScalars.filter {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == ".")
        }
        return safe.isEmpty ? "host" : String(String.UnicodeScalarView(safe))
    }
}
