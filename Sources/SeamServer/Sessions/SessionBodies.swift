import CompressNIO
import NIOCore
import Stitching

/// A VOD session's own response bodies in one byte array of exactly their size: both renderings'
/// multivariant and media playlists and the asset lists. Each body is kept once — its gzip form
/// when the session compresses it (`server.gzip`, 1 KiB or more), else as is — because players
/// ask for gzip: a playlist is inflated only for the rare client that does not
/// (`PlaylistBody.bytes`).
///
/// Why not `ByteBuffer`s: NIO rounds a buffer's storage up to a power of two, so a session's
/// 16 KiB of bodies took 32 KiB; the array holds their bytes and nothing more, and each answer
/// copies its few hundred bytes into a buffer of its own (BENCHMARKS.md, memory per session).
struct SessionBodies: Sendable {
    enum Key: Sendable, Hashable {
        case multivariant(SessionMode)
        case media(SessionMode, RenditionKey)
        case assetList(InterstitialBreakID)
    }

    /// A body to keep: its bytes, and its gzip copy when there is one (kept instead).
    struct Input {
        var key: Key
        var bytes: ByteBuffer
        var gzipped: ByteBuffer?
    }

    private struct Entry: Sendable {
        var key: Key
        var start: UInt32
        var count: UInt32
        var isGzipped: Bool
    }

    private let bytes: [UInt8]
    private let entries: [Entry]

    init(_ inputs: [Input]) {
        let kept = inputs.map { ($0.key, $0.gzipped ?? $0.bytes, $0.gzipped != nil) }
        let total = kept.reduce(0) { $0 + $1.1.readableBytes }
        var entries: [Entry] = []
        entries.reserveCapacity(kept.count)
        var start = 0
        for (key, body, isGzipped) in kept {
            entries.append(
                Entry(key: key, start: UInt32(start), count: UInt32(body.readableBytes), isGzipped: isGzipped))
            start += body.readableBytes
        }
        bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            var at = 0
            for (_, body, _) in kept {
                body.withUnsafeReadableBytes { source in
                    guard let base = source.baseAddress, let target = buffer.baseAddress else { return }
                    (target + at).initialize(from: base.assumingMemoryBound(to: UInt8.self), count: source.count)
                }
                at += body.readableBytes
            }
            count = total
        }
        self.entries = entries
    }

    /// The body kept under `key`, as a route answers it.
    func body(_ key: Key) -> PlaylistBody? {
        guard let entry = entries.first(where: { $0.key == key }) else { return nil }
        let buffer = ByteBuffer(bytes: bytes[Int(entry.start)..<Int(entry.start + entry.count)])
        return entry.isGzipped ? PlaylistBody(gzipOnly: buffer) : PlaylistBody(bytes: buffer)
    }

    /// Bytes kept for all the bodies.
    var storedBytes: Int { bytes.count }

    /// Every key kept, in the order given.
    var keys: [Key] { entries.map(\.key) }
}
