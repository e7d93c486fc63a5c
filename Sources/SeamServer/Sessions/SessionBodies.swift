import NIOCore
import Stitching

/// A VOD session's own response bodies in one byte array of exactly their size: both renderings'
/// multivariant and media playlists, the asset lists and the tracking JSON. Each body is kept once,
/// compressed: its gzip copy when the session made one for the wire (`server.gzip`, 1 KiB or
/// more), answered as is to players that take gzip (nearly all) and inflated for the others
/// (`PlaylistBody.bytes`); a smaller body is compressed for keeping only and inflated for each
/// answer, so what players get over the wire does not change.
///
/// Why not `ByteBuffer`s: NIO rounds a buffer's storage up to a power of two, so a session's
/// 16 KiB of bodies took 32 KiB; the array holds their bytes and nothing more, and each answer
/// copies its few hundred bytes into a buffer of its own (BENCHMARKS.md, memory per session).
struct SessionBodies: Sendable {
    enum Key: Sendable, Hashable {
        case multivariant(SessionMode)
        case media(SessionMode, RenditionKey)
        case assetList(InterstitialBreakID)
        /// The tracking JSON, as the tracking route answers it.
        case tracking
        /// A DASH session's stitched MPD (its only rendering).
        case dashManifest
    }

    /// A body to keep: its bytes, and its gzip copy for the wire when there is one.
    struct Input {
        var key: Key
        var bytes: ByteBuffer
        var gzipped: ByteBuffer?
    }

    private struct Entry: Sendable {
        var key: Key
        var start: Int
        var count: Int
        /// Kept compressed (else as is).
        var isCompressed: Bool
        /// Answered compressed to players that take gzip (it came with a gzip copy); else
        /// inflated for every answer, as its plain bytes were answered before.
        var answersGzip: Bool
    }

    private let bytes: [UInt8]
    private let entries: [Entry]

    /// Bodies shorter than this are kept as they are (gzip's framing would eat the gain).
    static let compressFrom = 128

    init(_ inputs: [Input]) {
        let kept = inputs.map { input -> (key: Key, body: ByteBuffer, compressed: Bool, answersGzip: Bool) in
            if let gzipped = input.gzipped { return (input.key, gzipped, true, true) }
            if input.bytes.readableBytes >= Self.compressFrom, let compressed = Self.compress(input.bytes),
                compressed.readableBytes < input.bytes.readableBytes
            {
                return (input.key, compressed, true, false)
            }
            return (input.key, input.bytes, false, false)
        }
        let total = kept.reduce(0) { $0 + $1.body.readableBytes }
        var entries: [Entry] = []
        entries.reserveCapacity(kept.count)
        var start = 0
        for item in kept {
            entries.append(
                Entry(
                    key: item.key, start: start, count: item.body.readableBytes,
                    isCompressed: item.compressed, answersGzip: item.answersGzip))
            start += item.body.readableBytes
        }
        bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            var at = 0
            for item in kept {
                item.body.withUnsafeReadableBytes { source in
                    guard let base = source.baseAddress, let target = buffer.baseAddress else { return }
                    (target + at).initialize(from: base.assumingMemoryBound(to: UInt8.self), count: source.count)
                }
                at += item.body.readableBytes
            }
            count = total
        }
        self.entries = entries
    }

    /// The body kept under `key`, as a route answers it.
    func body(_ key: Key) -> PlaylistBody? {
        guard let entry = entries.first(where: { $0.key == key }) else { return nil }
        let buffer = ByteBuffer(bytes: bytes[entry.start..<(entry.start + entry.count)])
        guard entry.isCompressed else { return PlaylistBody(bytes: buffer) }
        let body = PlaylistBody(gzipOnly: buffer)
        return entry.answersGzip ? body : PlaylistBody(bytes: body.bytes)
    }

    /// Whether a body is kept under `key`.
    func has(_ key: Key) -> Bool { entries.contains { $0.key == key } }

    /// Bytes kept for all the bodies.
    var storedBytes: Int { bytes.count }

    /// Every key kept, in the order given.
    var keys: [Key] { entries.map(\.key) }

    private static func compress(_ body: ByteBuffer) -> ByteBuffer? {
        guard let compressed = try? GzipEncoding.compress(body) else { return nil }
        return ByteBuffer(bytes: compressed.readableBytesView)
    }
}
