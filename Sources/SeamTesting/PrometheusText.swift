import Foundation

/// A `/metrics` page read as Prometheus's text format: its samples, and which families carry a
/// `# HELP` line. Enough of the format for tests (no escapes inside label values, which Seam's
/// bounded label values never need).
package struct PrometheusText: Sendable {
    package struct Sample: Sendable, Equatable {
        package var name: String
        package var labels: [String: String]
        package var value: Double
    }

    package var samples: [Sample] = []
    /// Families with a `# HELP` line (and non-empty text).
    package var helped: Set<String> = []
    /// Families with a `# TYPE` line.
    package var typed: Set<String> = []

    package init(_ page: String) {
        for raw in page.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("# HELP ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                if parts.count == 2, !parts[1].isEmpty { helped.insert(String(parts[0])) }
                continue
            }
            if line.hasPrefix("# TYPE ") {
                if let name = line.dropFirst(7).split(separator: " ").first { typed.insert(String(name)) }
                continue
            }
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "),
                let value = Double(line[line.index(after: space)...])
            else { continue }
            let series = line[..<space]
            var labels: [String: String] = [:]
            let name: Substring
            if let open = series.firstIndex(of: "{"), let close = series.lastIndex(of: "}") {
                name = series[..<open]
                for pair in series[series.index(after: open)..<close].split(separator: ",") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    guard kv.count == 2 else { continue }
                    labels[String(kv[0])] = String(kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
                }
            } else {
                name = series
            }
            samples.append(Sample(name: String(name), labels: labels, value: value))
        }
    }

    /// The sum of `name`'s samples whose labels include `matching` (0 when none).
    package func sum(_ name: String, _ matching: [String: String] = [:]) -> Double {
        samples.filter { sample in
            sample.name == name && matching.allSatisfy { sample.labels[$0.key] == $0.value }
        }.reduce(0) { $0 + $1.value }
    }
}
