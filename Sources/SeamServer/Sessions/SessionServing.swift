import CompressNIO
import NIOCore
import Stitching

/// What a session answers, whatever its kind: a VOD session looks its answers up (built once,
/// `StitchedSession`), a live one cuts them from its timeline on each request
/// (`LiveSessionServing`). The routes ask through this protocol, so no route switches on the kind;
/// each answer for something the session does not have is the `SeamError` the player hears.
protocol SessionServing: Sendable {
    var id: SessionID { get }
    /// The multivariant playlist of `rendering`.
    func multivariant(_ rendering: SessionMode) async throws(SeamError) -> PlaylistBody
    /// One rendition's media playlist in `rendering`.
    func media(_ rendering: SessionMode, rendition: RenditionKey) async throws(SeamError) -> PlaylistBody
    /// The asset list of interstitial break `id`, as JSON.
    func assetList(_ id: InterstitialBreakID) async throws(SeamError) -> ByteBuffer
    /// The multivariant playlist of one ad as an interstitial asset.
    func adAsset(_ address: AdAssetAddress) async throws(SeamError) -> ByteBuffer
    /// One rendition of one ad as an interstitial asset.
    func adAssetMedia(_ address: AdAssetAddress, rendition: RenditionKey) async throws(SeamError) -> ByteBuffer
    /// Where an ad segment really is, the events fetching it reports and their beacons.
    func adSegment(_ address: AdSegmentAddress) async throws(SeamError) -> AdSegmentRedirect
    /// A DASH session's stitched MPD.
    func dashManifest() async throws(SeamError) -> PlaylistBody
    /// The tracking JSON.
    func trackingDocument() async throws(SeamError) -> TrackingDocument
    /// The tracking JSON's bytes as the tracking route answers them (keys sorted, slashes plain).
    func trackingJSON() async throws(SeamError) -> ByteBuffer
}

extension SessionServing {
    func dashManifest() async throws(SeamError) -> PlaylistBody { throw SessionAnswerError.hlsSession }

    func trackingJSON() async throws(SeamError) -> ByteBuffer {
        StitchedSession.trackingJSON(try await trackingDocument())
    }
}

/// A playlist as a route answers it, with its gzip copy when one was made. A VOD session keeps
/// only the gzip copy (`SessionBodies`); the plain bytes are inflated from it when asked for.
struct PlaylistBody: Sendable {
    private var plain: ByteBuffer?
    var gzipped: ByteBuffer?

    init(bytes: ByteBuffer, gzipped: ByteBuffer? = nil) {
        plain = bytes
        self.gzipped = gzipped
    }

    init(gzipOnly gzipped: ByteBuffer) {
        plain = nil
        self.gzipped = gzipped
    }

    /// The plain bytes (inflated from the gzip copy when only that is kept).
    var bytes: ByteBuffer {
        if let plain { return plain }
        guard let gzipped else { return ByteBuffer() }
        // Seam compressed these bytes itself: they inflate, and the gzip trailer's last four
        // bytes say how long they are (a playlist is far under 4 GiB), so into one buffer of
        // that size, in one pass (without it, into buffers grown by halves and joined: four
        // allocations for a 2 KB playlist).
        var compressed = gzipped
        // Deflate expands at most about 1,032 to 1: a larger claim is not believed.
        if compressed.readableBytes >= 18,
            let size = compressed.getInteger(at: compressed.writerIndex - 4, endianness: .little, as: UInt32.self),
            Int(size) <= compressed.readableBytes * 1032
        {
            var plain = ByteBufferAllocator().buffer(capacity: Int(size))
            if (try? compressed.decompress(to: &plain, with: .gzip())) != nil, plain.readableBytes == Int(size) {
                return plain
            }
            compressed = gzipped
        }
        return (try? compressed.decompress(with: .gzip())) ?? ByteBuffer()
    }
}

/// An ad segment's real address, the progress events fetching it reports, and their beacons.
struct AdSegmentRedirect: Sendable {
    var url: String
    var events: [AdProgressEvent]
    var beacons: [AdProgressEvent: [String]]
}

/// What a session does not have, in the words each route answers with.
enum SessionAnswerError {
    /// `name`: the rendition as the path named it (a key's path form, or text that is none).
    static func noRendition(_ name: String, _ rendering: SessionMode) -> SeamError {
        let master = rendering == .interstitials ? "interstitials/master.m3u8" : "master.m3u8"
        return SeamError(.renditionNotFound, "this session has no rendition \(name); use the URIs in its \(master)")
    }

    static func noBreak(_ text: String) -> SeamError {
        SeamError(
            .renditionNotFound,
            "this session has no ad break \(SessionRequest.quoted(text)); use the X-ASSET-LIST URLs of its interstitials playlists"
        )
    }

    static let noAdAsset = SeamError(
        .renditionNotFound,
        "no such ad asset in this session; use the URIs of its asset lists (the break may have left the live window)")

    static let noAdSegment = SeamError(.renditionNotFound, "no such ad segment in this session")

    /// An HLS path asked of a DASH session.
    static let dashSession = SeamError(
        .renditionNotFound, "this is a DASH session: its stream is manifest.mpd (the session's manifestUrl)")

    /// `manifest.mpd` asked of an HLS session.
    static let hlsSession = SeamError(
        .renditionNotFound,
        "this is an HLS session: its stream is master.m3u8 (the session's manifestUrl); a DASH session starts from an MPD URL"
    )

    static let noLiveAdSegment = SeamError(
        .renditionNotFound, "no such ad segment in this session (its break may have left the live window)")
}
