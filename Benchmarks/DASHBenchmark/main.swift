// Parse + serialize throughput of the DASH module, for scripts/bench-dash.sh.
// Usage: DASHBenchmark <mpd> [--seconds S]
// Prints one JSON line: {"file":..., "bytes":..., "us_per_mpd":..., "mb_per_s":...}
import Foundation
import DASH

let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: DASHBenchmark <mpd> [--seconds S]\n".utf8))
    exit(2)
}
var seconds = 2.0
if let index = arguments.firstIndex(of: "--seconds"), index + 1 < arguments.count,
    let value = Double(arguments[index + 1])
{
    seconds = value
}
let text = String(decoding: data, as: UTF8.self)

/// One parse of the origin's text, the typed reading a stitch needs (every period, adaptation
/// set, representation and its template with its timeline: what Python's mpegdash builds as
/// objects), and one serialization: what the proxy does per origin MPD.
@inline(never)
func parseAndSerialize(_ text: String) -> Int {
    guard let mpd = try? MPD(parsing: text) else { return 0 }
    var entries = 0
    for period in mpd.periods {
        for set in period.adaptationSets {
            for representation in set.representations {
                entries &+=
                    (representation.segmentTemplate?.timeline?.count ?? 0) &+ (representation.bandwidth ?? 0) & 1
            }
        }
    }
    return mpd.serialized().utf8.count &+ entries & 1
}

// Sanity: the benchmark must measure real work.
precondition(parseAndSerialize(text) > data.count / 2, "the MPD did not parse")

// `--iterations N`: run exactly N times and exit, for instruction-counting profilers.
if let index = arguments.firstIndex(of: "--iterations"), index + 1 < arguments.count,
    let count = Int(arguments[index + 1])
{
    var total = 0
    for _ in 0..<count { total &+= parseAndSerialize(text) }
    print("{\"iterations\":\(count),\"checksum\":\(total)}")
    exit(0)
}

let clock = ContinuousClock()
// Calibrate a batch that takes about 50 ms, then keep the fastest of many batches
// (the minimum is the least disturbed by other work on a shared machine).
var batch = 1
while true {
    let start = clock.now
    var sink = 0
    for _ in 0..<batch { sink &+= parseAndSerialize(text) }
    if clock.now - start > .milliseconds(50) || batch > 1 << 24 { break }
    batch *= 2
    if sink == 42 { print("") }
}
var best = Double.infinity
let deadline = clock.now + .milliseconds(Int64(seconds * 1000))
var sink = 0
while clock.now < deadline {
    let start = clock.now
    for _ in 0..<batch { sink &+= parseAndSerialize(text) }
    let elapsed = clock.now - start
    let perPlaylist =
        (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(batch)
    best = min(best, perPlaylist)
}
let microseconds = best * 1e6
let megabytesPerSecond = Double(data.count) / best / 1e6
print(
    String(
        format: "{\"file\":\"%@\",\"bytes\":%d,\"us_per_mpd\":%.3f,\"mb_per_s\":%.1f,\"checksum\":%d}",
        (arguments[1] as NSString).lastPathComponent, data.count, microseconds, megabytesPerSecond, sink & 0xFF))
