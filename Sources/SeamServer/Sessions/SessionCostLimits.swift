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
/// multivariant playlist before any media playlist is fetched, and segments and bytes are counted
/// while the playlists stream in (`ContentPlaylistObserver`), so an oversized list is neither read
/// to its end nor parsed.
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
            throw SeamError(
                .originInvalidPlaylist,
                "the multivariant playlist at \(url) lists \(count) renditions (variants and alternate renditions), more than sessions.maxRenditions (\(maxRenditions)) allows one session; raise sessions.maxRenditions if this content is meant to play"
            )
        }
    }

    /// Refuses a parsed media playlist over `maxSegmentsPerPlaylist`, for a body no observer saw
    /// line by line (and as a second check of what the scan counted).
    func checkSegments(_ count: Int, url: String) throws(SeamError) {
        guard count <= maxSegmentsPerPlaylist else {
            throw SeamError(
                .originInvalidPlaylist,
                "the media playlist at \(url) lists \(count) segments, more than sessions.maxSegmentsPerPlaylist (\(maxSegmentsPerPlaylist)) allows; raise sessions.maxSegmentsPerPlaylist if this content is meant to play"
            )
        }
    }

    /// The observer for one content playlist fetch of a start whose bytes count against `budget`.
    func observer(for url: String, budget: ContentByteBudget) -> ContentPlaylistObserver {
        ContentPlaylistObserver(url: url, maxSegments: maxSegmentsPerPlaylist, budget: budget)
    }
}

/// Watches one content playlist as it streams in: counts its segment URI lines (every non-empty
/// line that is not a tag or a comment: the lenient parser makes a segment of each, with or
/// without an `#EXTINF`) against `sessions.maxSegmentsPerPlaylist` and its bytes against the
/// start's `ContentByteBudget`, and refuses it the moment either is over, so an oversized list is
/// neither downloaded nor parsed.
final class ContentPlaylistObserver: UpstreamBodyObserver {
    let url: String
    let maxSegments: Int
    let budget: ContentByteBudget

    private struct Scan {
        /// URI lines seen so far.
        var segments = 0
        /// The scan is before the first non-blank byte of a line.
        var atLineStart = true
        var bytes = 0
    }

    private let scan = NIOLockedValueBox(Scan())

    init(url: String, maxSegments: Int, budget: ContentByteBudget) {
        self.url = url
        self.maxSegments = maxSegments
        self.budget = budget
    }

    func observe(_ chunk: ByteBuffer) -> String? {
        if let over = budget.charge(chunk.readableBytes, url: url) { return over }
        let limit = maxSegments
        let segments = scan.withLockedValue { scan -> Int in
            scan.bytes += chunk.readableBytes
            chunk.withUnsafeReadableBytes { bytes in
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                        scan.atLineStart = true
                    case UInt8(ascii: " "), UInt8(ascii: "\t"):
                        continue
                    default:
                        guard scan.atLineStart else { continue }
                        scan.atLineStart = false
                        if byte != UInt8(ascii: "#") { scan.segments += 1 }
                    }
                }
            }
            return scan.segments
        }
        guard segments <= limit else {
            return
                "the media playlist at \(url) lists more than \(limit) segments, the most sessions.maxSegmentsPerPlaylist allows; raise sessions.maxSegmentsPerPlaylist if this content is meant to play"
        }
        return nil
    }

    /// Checks a body the fetcher delivered without showing it to the observer (a fetcher other
    /// than `SafeUpstreamClient`); nil when it passes or was seen already.
    func finish(_ body: ByteBuffer) -> String? {
        let seen = scan.withLockedValue { $0.bytes }
        guard seen == 0, body.readableBytes > 0 else { return nil }
        return observe(body)
    }
}

/// The bytes of content playlists one session start has read, against `sessions.maxContentBytes`.
/// Shared by the start's parallel fetches and charged chunk by chunk as bodies stream in, so the
/// start stops as soon as the total is over, however many playlists are being read at once.
final class ContentByteBudget: Sendable {
    let limit: Int
    private let spent = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts `bytes` read from `url`; why the start must stop when the total is over the limit, else nil.
    func charge(_ bytes: Int, url: String) -> String? {
        let total = spent.withLockedValue { spent -> Int in
            spent += bytes
            return spent
        }
        return total <= limit ? nil : Self.overLimit(limit, url: url)
    }

    static func overLimit(_ limit: Int, url: String) -> String {
        "the content's playlists come to more than \(limit) bytes (reading \(url)), more than sessions.maxContentBytes allows one session; raise sessions.maxContentBytes if this content is meant to play"
    }
}
