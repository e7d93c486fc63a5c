#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seam's fuzz targets: each takes any bytes and must return without trapping, whatever they
/// hold. libFuzzer drives them through the executables in `Fuzz/` (built with
/// `-sanitize=fuzzer,address`, see `scripts/fuzz.sh`); the tests replay every seed and every
/// input that once crashed (`Tests/SeamFuzzingTests`), so a fixed crash stays fixed in the
/// ordinary `swift test` run.
public enum FuzzTarget: String, Sendable, CaseIterable {
    /// HLS parser, serializer (and a re-parse of its output), validators and cue readers.
    case hls
    /// VAST and VMAP parsers and what the service reads from their documents.
    case vast
    /// SCTE-35 splice_info_section decoder (binary, hex, base64), its encoder, cue readers.
    case scte35
    /// The Stitching engine on parsed input: VOD splice and the live timeline.
    case stitching
    /// The MPD reader (its own XML parser), writer and typed views.
    case dash

    /// Runs one input. Returns normally for every input; a trap is a finding.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .hls: HLSFuzzing.run(bytes)
        case .vast: VASTFuzzing.run(bytes)
        case .scte35: SCTE35Fuzzing.run(bytes)
        case .stitching: StitchingFuzzing.run(bytes)
        case .dash: DASHFuzzing.run(bytes)
        }
    }

    /// The line that separates the playlists of one input (stitching: content, then ads; live:
    /// successive windows; hls: successive live reloads).
    public static let separator: [UInt8] = Array("\n#SEAM-FUZZ-NEXT\n".utf8)

    /// `bytes` cut at every `separator`, at most `limit` parts (the rest stays in the last).
    static func parts(_ bytes: [UInt8], limit: Int = 8) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        var index = 0
        let separator = Self.separator
        while index + separator.count <= bytes.count, parts.count < limit - 1 {
            if bytes[index] == separator[0], Array(bytes[index..<(index + separator.count)]) == separator {
                parts.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }
}

/// A finding that is not a trap of its own: an invariant the target checks broke. Reported
/// with `preconditionFailure`, so libFuzzer records the input like any crash.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    // Optimized builds drop a precondition's message: say it first, then trap.
    let text = message()
    var line = Array("seam fuzz finding: \(text)\n".utf8)
    _ = write(2, &line, line.count)
    preconditionFailure(text)
}
