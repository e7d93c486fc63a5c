import CompressNIO
import NIOCore

/// gzip as Seam writes it: every compressed answer (the gzip middleware, live reloads answered
/// early) and every body a VOD session keeps compressed goes through here.
///
/// Why not zlib's defaults: a 32 KiB window and the hash tables of memory level 8 are about
/// 270 KiB of state that `deflateInit` allocates and clears for each body, while a playlist is a
/// few KiB, and most of its cost is that memory faulted in again for each body: for a 2 KB media
/// playlist about 66 µs against 8.5 µs with the state fitted to it, for the same bytes
/// (BENCHMARKS.md, "gzip fitted to the body"). The
/// window is halved while the body still fits in half of it, with zlib's look-ahead of 262
/// bytes to spare, and the memory level with it: nginx's gzip filter sizes zlib the same way
/// from `Content-Length`. Matches never reach further back than the body's start, so the fitted
/// window finds the matches the full one would.
enum GzipEncoding {
    /// `body` as one gzip member.
    static func compress(_ body: ByteBuffer) throws -> ByteBuffer {
        var plain = body
        return try plain.compress(with: .gzip(configuration: configuration(forBytes: body.readableBytes)))
    }

    /// zlib's settings for a body of `count` bytes: window bits 9 to 15, memory level 2 to 8
    /// (the window's bits less 7, as zlib's defaults pair 15 with 8).
    static func configuration(forBytes count: Int) -> ZlibConfiguration {
        var windowBits: Int32 = 15
        var memoryLevel: Int32 = 8
        while windowBits > 9, count < (1 << (windowBits - 1)) - 262 {
            windowBits -= 1
            memoryLevel -= 1
        }
        return ZlibConfiguration(windowSize: windowBits, memoryLevel: max(1, memoryLevel))
    }
}
