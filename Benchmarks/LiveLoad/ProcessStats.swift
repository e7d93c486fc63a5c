import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What /proc says about the server under test, and what getrusage says about this generator.
enum ProcessStats {
    /// VmRSS of `pid` in KiB, or nil when unreadable.
    static func rssKiB(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// VmRSS of several processes together (replicas), or nil when none is given or one is unreadable.
    static func rssKiB(pids: [Int32]) -> Int? {
        guard !pids.isEmpty else { return nil }
        var total = 0
        for pid in pids { guard let rss = rssKiB(pid: pid) else { return nil }; total += rss }
        return total
    }

    /// CPU seconds of several processes together (replicas), or nil when none is given or one is unreadable.
    static func cpuSeconds(pids: [Int32]) -> Double? {
        guard !pids.isEmpty else { return nil }
        var total = 0.0
        for pid in pids { guard let cpu = cpuSeconds(pid: pid) else { return nil }; total += cpu }
        return total
    }

    /// User + system CPU seconds of `pid` and of its live child processes (nginx's workers).
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let own = ticks(pid) else { return nil }
        var total = own
        for child in children(of: pid) { total += ticks(child) ?? 0 }
        return Double(total) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func ticks(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after "comm)": state is field 3, utime 14, stime 15 (1-based over the whole line).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    private static func children(of pid: Int32) -> [Int32] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [] }
        var result: [Int32] = []
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8) else { continue }
            result += text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return result
    }

    /// This process's user + system CPU seconds so far.
    static func selfCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Busy and total CPU seconds of the whole machine so far (/proc/stat "cpu" line; busy is
    /// everything but idle and iowait).
    static func machineCPUSeconds() -> (busy: Double, total: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 5 else { return nil }
        let total = values.prefix(8).reduce(0, +)
        let busy = total - values[3] - values[4]
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (busy / tick, total / tick)
    }

    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func wallClock() -> Double { Date().timeIntervalSince1970 }
}
