import Foundation

/// JSON with sorted keys, written as the value is encoded: what a session record is stored as.
///
/// Foundation's `JSONEncoder` first builds a tree of the whole value (an enum per value, a
/// dictionary per object), then sorts each object's keys with a locale-aware string comparison
/// and writes the tree out. A shared store writes a live session's record at each break's
/// decision and end, and that encoding was the largest item in the PostgreSQL replicas' profile
/// (BENCHMARKS.md, PostgreSQL ×2). This encoder writes each value's bytes where they go, keeps
/// only the byte ranges of an open object's members, and orders those members by their keys'
/// bytes when the object closes. Its output is JSON that `JSONDecoder` reads to the same value
/// (`StreamingJSONEncoderTests` checks it against `JSONEncoder` on records and on edge values);
/// equal values give equal bytes.
///
/// Written as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` and its default
/// strategies writes them: dates as their `Date.encode(to:)` (seconds since 2001), `Data` as
/// base64, `URL` as its absolute string, non-finite numbers refused. Keys are ordered by their
/// bytes as written (escaped; Foundation orders them numerically and without case, so the two
/// may differ in key order, never in meaning).
package struct StreamingJSONEncoder: Sendable {
    package init() {}

    package func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = JSONByteWriter()
        do {
            try writer.writeTop(value)
            if !writer.spoiled { return writer.bytes }
        } catch {
            guard writer.misused else { throw error }
        }
        // A value that wrote into a container after a sibling of it had taken its place (no
        // conformance in Seam does), or caught an error of its own writing and went on (its
        // bytes may then hold part of what failed). Foundation's encoder keeps every container
        // open to the end and drops what failed, so it writes such a value as it should.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
