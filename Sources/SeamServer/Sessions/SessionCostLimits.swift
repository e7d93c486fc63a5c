import NIOConcurrencyHelpers
import NIOCore

/// What one session start may cost in content: how many renditions it fetches and stitches
/// (`sessions.maxRenditions`), how many segments one media playlist may list
/// (`sessions.maxSegmentsPerPlaylist`) and how many playlist bytes it reads in all
/// (`sessions.maxContentBytes`).
///
/// Why: a VOD session holds every rendition parsed and stitched, so its memory grows with
/// renditions × segments. A 440-byte multivariant playlist listing 10 variants of 100,000 segments
/// each cost ~157 MB before these caps. Content over a cap is refused with `ORIGIN_INVALID_PLAYLIST`
/// (502) naming the cap and its setting, before the expensive part: renditions are counted on the
/// multivariant playlist before any media playlist is fetched, segments are counted in the raw bytes
/// before parsing, and the byte budget shrinks the size limit of each fetch as it is spent.
struct SessionCostLimits: Sendable {
    var maxRenditions: Int
    var maxSegmentsPerPlaylist: Int
    var maxContentBytes: Int

    init(_ sessions: SeamConfiguration.Sessions) {
        maxRenditions = max(1, sessions.maxRenditions)
        maxSegmentsPerPlaylist = max(1, sessions.maxSegmentsPerPlaylist)
        maxContentBytes = max(1, sessions.maxContentBytes)
    }

    /// Refuses a multivariant playlist that would have the session fetch more than `maxRenditions` playlists.
    func checkRenditions(_ count: Int, url: String) throws(SeamError) {
        guard count <= maxRenditions else {
            throw SeamError(.originInvalidPlaylist, "the multivariant playlist at \(url) lists \(count) renditions (variants and alternate renditions), more than sessions.maxRenditions (\(maxRenditions)) allows one session; raise sessions.maxRenditions if this content is meant to play")
        }
    }

    /// Refuses a media playlist of more than `maxSegmentsPerPlaylist` segments, counted in its
    /// bytes (`#EXTINF` tags) so that an oversized list is never parsed.
    func checkSegments(in body: ByteBuffer, url: String) throws(SeamError) {
        let count = Self.segmentCount(body, stoppingAfter: maxSegmentsPerPlaylist)
        guard count <= maxSegmentsPerPlaylist else {
            throw SeamError(.originInvalidPlaylist, "the media playlist at \(url) lists more than \(maxSegmentsPerPlaylist) segments, the most sessions.maxSegmentsPerPlaylist allows; raise sessions.maxSegmentsPerPlaylist if this content is meant to play")
        }
    }

    /// `#EXTINF` tags at the start of a line, counted up to `limit` + 1.
    static func segmentCount(_ body: ByteBuffer, stoppingAfter limit: Int) -> Int {
        let tag: [UInt8] = Array("#EXTINF".utf8)
        return body.withUnsafeReadableBytes { bytes -> Int in
            var count = 0
            var index = 0
            let end = bytes.count
            var lineStart = true
            while index < end {
                let byte = bytes[index]
                if lineStart, byte == UInt8(ascii: "#"), index + tag.count <= end {
                    var matches = true
                    for offset in 1..<tag.count where bytes[index + offset] != tag[offset] {
                        matches = false
                        break
                    }
                    if matches {
                        count += 1
                        if count > limit { return count }
                    }
                }
                lineStart = byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                index += 1
            }
            return count
        }
    }
}

/// The bytes of content playlists one session start has read, against `sessions.maxContentBytes`.
/// Shared by the start's parallel fetches; each fetch may read at most what is left when it starts,
/// so parallel fetches overshoot the budget by at most one playlist each, and the start fails as
/// soon as a finished fetch takes the total over.
final class ContentByteBudget: Sendable {
    let limit: Int
    private let spent = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes a fetch starting now may read (at least 1, so a spent budget fails on the first byte).
    var remaining: Int { max(1, limit - spent.withLockedValue { $0 }) }

    /// Counts `bytes` read from `url`; throws when the total is over the limit.
    func charge(_ bytes: Int, url: String) throws(SeamError) {
        let total = spent.withLockedValue { spent -> Int in
            spent += bytes
            return spent
        }
        guard total <= limit else {
            throw Self.overLimit(limit, url: url)
        }
    }

    static func overLimit(_ limit: Int, url: String) -> SeamError {
        SeamError(.originInvalidPlaylist, "the content's playlists come to more than \(limit) bytes by \(url), more than sessions.maxContentBytes allows one session; raise sessions.maxContentBytes if this content is meant to play")
    }
}
