import Foundation
import Logging
import NIOCore
import HLS
import Stitching

/// Makes a VOD session from a loaded title: plans its breaks (`AdPlanner`), has the engine stitch
/// it (`VODStitcher`), and keeps the answers ready to serve, serialized and, when large enough,
/// gzip-compressed once.
struct VODSessionFactory: Sendable {
    let planner: AdPlanner
    /// `ads.totalBudgetSeconds`: decisions and creatives share it, counted from the start.
    let adBudget: Duration
    /// `ads.trackingMode`, for requests that do not say.
    let defaultTrackingMode: String
    /// `server.gzip`.
    let gzip: Bool
    let logger: Logger
    let now: @Sendable () -> ContinuousClock.Instant
    /// The wall clock (`SeamServices.clock.date`) a session's creation time is read from.
    var date: @Sendable () -> Date = { Date() }
    /// One copy of the ad asset playlists sessions share (they name no session).
    var sharedBytes = PlaylistBytesInterner()
    /// One copy of the ad segment and beacon tables' URLs and lists sessions share: every session
    /// that plays a creative redirects to the same segment URLs.
    var sharedURLs = Interner<String>(capacity: 16384)
    var sharedEvents = Interner<[AdProgressEvent]>(capacity: 64)
    var sharedBeaconLists = Interner<[String]>(capacity: 4096)
    /// `sessions.removeOriginCues`: the origin's markers of filled breaks leave the stitched playlists.
    var removeOriginCues = false

    func make(
        _ inputs: SessionInputs, id: SessionID, content: ContentSet, started: ContinuousClock.Instant,
        mode sessionMode: SessionMode = .stitched
    ) async -> StitchedSession {
        // Renditions the packager left unfinished next to finished video: served as VOD with it.
        for warning in content.playback.warnings {
            logger.warning(
                "rendition disagrees with the title's playback kind",
                metadata: ["session": "\(id)", "detail": "\(warning)"])
        }
        // One ad budget for decisions and creatives alike: a pod's creatives are fetched
        // concurrently inside it, never after it.
        let plan = await planner.planVOD(inputs, id: id, content: content, deadline: started + adBudget)
        let mode = inputs.trackingMode(default: defaultTrackingMode)
        let urls = SessionURLs(baseURL: inputs.baseURL, sessionID: id.value)
        var stitched = VODStitcher.stitch(
            removeOriginCues ? OriginCueRemoval.vod(content, plan: plan) : content, plan: plan, mode: mode, urls: urls)
        if inputs.request.adIdDecoration == true {
            AdIDDecoration.decorateVOD(
                &stitched.media, plan: plan, tracking: stitched.tracking, mode: mode,
                epoch: InterstitialRenderer.anchor(of: content.reference))
        }
        // The same plan as HLS Interstitials: the content with one date range per break, the
        // spliced ad playlists as assets.
        let assets = InterstitialRenderer.vodAssets(
            content, plan: plan, adPlaylists: stitched.adPlaylists, bumperPlaylists: stitched.bumperPlaylists,
            mode: mode, urls: urls)
        let primary = InterstitialRenderer.vod(
            content, plan: plan, urls: urls, policy: InterstitialPolicy(inputs.request.policy),
            assetLists: assets.assetLists)
        InterstitialRenderer.annotateVOD(&stitched.tracking, plan: plan, urls: urls)
        stitched.tracking.describeRenderings(urls: urls, mode: sessionMode)
        let interstitials = package(
            primary, assets: assets,
            multivariant: SessionMultivariant.interstitials(content.multivariant, urls: urls) {
                primary.media[$0] != nil
            })
        let session = package(
            stitched, id: id, contentURL: inputs.request.url, mode: mode, sessionMode: sessionMode,
            interstitials: interstitials, policy: inputs.request.policy)
        let elapsed = (now() - started).components
        logger.info(
            "session created",
            metadata: [
                "session": "\(id)", "breaks": "\(plan.breaks.count)",
                "filled": "\(plan.filled.count)",
                "ms": "\(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000)",
            ])
        return session
    }

    /// The stitched title as the routes serve it: bytes a response shares, not copies.
    func package(
        _ stitched: VODStitcher.Stitched, id: SessionID, contentURL: String, mode: TrackingMode,
        sessionMode: SessionMode, interstitials: InterstitialsRendering, policy: AdPolicy? = nil
    ) -> StitchedSession {
        var media: [RenditionKey: ByteBuffer] = [:]
        for (key, playlist) in stitched.media {
            media[key] = playlist.withSerializedBytes { ByteBuffer(bytes: $0) }
        }
        let multivariant = ByteBuffer(string: stitched.multivariant.serialized())
        var gzipped: [RenditionKey: ByteBuffer] = [:]
        var gzippedMultivariant: ByteBuffer?
        if gzip {
            for (key, body) in media { gzipped[key] = Self.compressed(body) }
            gzippedMultivariant = Self.compressed(multivariant)
        }
        let adSegments = stitched.adSegments.mapValues {
            StitchedSession.AdSegmentTarget(url: sharedURLs.intern($0.url), events: sharedEvents.intern($0.events))
        }
        let beacons = stitched.beacons.mapValues { sharedBeaconLists.intern($0.map(sharedURLs.intern)) }
        return StitchedSession(
            id: id, contentURL: contentURL, trackingMode: mode, multivariant: multivariant, media: media,
            gzipped: gzipped, tracking: stitched.tracking, adSegments: adSegments,
            beacons: beacons, createdAt: date(), gzippedMultivariant: gzippedMultivariant,
            mode: sessionMode, interstitials: interstitials, policy: policy)
    }

    /// The interstitials rendering as the routes serve it.
    func package(
        _ primary: InterstitialRenderer.VOD, assets: InterstitialRenderer.VODAssets,
        multivariant: MultivariantPlaylist
    ) -> InterstitialsRendering {
        var media: [RenditionKey: ByteBuffer] = [:]
        for (key, playlist) in primary.media {
            media[key] = playlist.withSerializedBytes { ByteBuffer(bytes: $0) }
        }
        let multivariantBytes = ByteBuffer(string: multivariant.serialized())
        var gzipped: [RenditionKey: ByteBuffer] = [:]
        if gzip {
            for (key, body) in media { gzipped[key] = Self.compressed(body) }
        }
        var adAssets: [AdAssetAddress: ByteBuffer] = [:]
        var adAssetMedia: [InterstitialsRendering.AdAssetMediaKey: ByteBuffer] = [:]
        for (address, asset) in assets.ads {
            adAssets[address] = sharedBytes.intern(ByteBuffer(string: asset.multivariant.serialized()))
            for (key, playlist) in asset.media {
                adAssetMedia[.init(address: address, rendition: key)] = sharedBytes.intern(
                    playlist.withSerializedBytes { ByteBuffer(bytes: $0) })
            }
        }
        return InterstitialsRendering(
            multivariant: multivariantBytes, gzippedMultivariant: gzip ? Self.compressed(multivariantBytes) : nil,
            media: media, gzipped: gzipped,
            assetLists: assets.assetLists.mapValues(InterstitialsRendering.json),
            adAssets: adAssets, adAssetMedia: adAssetMedia)
    }

    /// Compressed once at creation, for bodies large enough to be worth it (1 KiB). zlib's
    /// output buffer is sized for the worst case (larger than the input); the session keeps a
    /// copy of just the compressed bytes.
    static func compressed(_ body: ByteBuffer) -> ByteBuffer? {
        guard body.readableBytes >= 1024 else { return nil }
        guard let compressed = try? GzipEncoding.compress(body) else { return nil }
        return ByteBuffer(bytes: compressed.readableBytesView)
    }
}
