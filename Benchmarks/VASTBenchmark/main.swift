// Parse throughput of the VAST module, for BENCHMARKS.md ("VAST: reading an ad response").
// Usage: VASTBenchmark <vast.xml> [--seconds S] | [--iterations N]
// Prints one JSON line: {"file":..., "bytes":..., "us_per_response":...}, or with --iterations
// runs exactly N parses (for valgrind --tool=callgrind) and prints a checksum.
import Foundation
import VAST

let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: VASTBenchmark <vast.xml> [--seconds S] [--iterations N]\n".utf8))
    exit(2)
}
let bytes = [UInt8](data)

/// One read of an ad server's answer into the document a decision uses: what Seam does per ad
/// request.
@inline(never)
func parse(_ bytes: [UInt8]) -> Int {
    guard let document = try? VASTParser().parse(bytes) else { return 0 }
    return document.ads.reduce(0) { $0 &+ $1.creatives.count }
}

precondition(parse(bytes) > 0, "the VAST response did not parse into an ad with a creative")

func value(after flag: String) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

if let count = value(after: "--iterations").flatMap(Int.init) {
    var total = 0
    for _ in 0..<count { total &+= parse(bytes) }
    print("{\"iterations\":\(count),\"checksum\":\(total)}")
    exit(0)
}

let seconds = value(after: "--seconds").flatMap(Double.init) ?? 2
let clock = ContinuousClock()
// Batches of about 50 ms; the fastest batch is the least disturbed by other work on the machine.
var batch = 1
while true {
    let start = clock.now
    var sink = 0
    for _ in 0..<batch { sink &+= parse(bytes) }
    if clock.now - start > .milliseconds(50) || batch > 1 << 24 { break }
    batch *= 2
}
var best = Duration.seconds(1_000)
let end = clock.now + .seconds(seconds)
while clock.now < end {
    let start = clock.now
    var sink = 0
    for _ in 0..<batch { sink &+= parse(bytes) }
    best = min(best, clock.now - start)
    precondition(sink != -1)
}
let microseconds = Double(best.components.seconds) * 1e6 + Double(best.components.attoseconds) / 1e12
print(
    "{\"file\":\"\((arguments[1] as NSString).lastPathComponent)\",\"bytes\":\(bytes.count),"
        + "\"us_per_response\":\(String(format: "%.2f", microseconds / Double(batch)))}")
