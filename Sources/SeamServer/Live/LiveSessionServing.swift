import Foundation
import NIOCore
import Stitching

/// A live session's answers, cut from its timeline on each request: a playlist reload first
/// brings the timeline up to the origin's newest window (`LiveSessionFactory`), and session
/// analytics reports the breaks it decided.
struct LiveSessionServing: SessionServing {
    let session: LiveSession
    let factory: LiveSessionFactory
    let analytics: SessionAnalytics
    /// The wall clock analytics events are stamped with.
    let date: @Sendable () -> Date

    var id: SessionID { session.id }

    func multivariant(_ rendering: SessionMode) throws(SeamError) -> PlaylistBody {
        guard session.format == .hls else { throw SessionAnswerError.dashSession }
        let playlist =
            rendering == .stitched ? factory.multivariant(session) : factory.interstitialsMultivariant(session)
        return PlaylistBody(bytes: ByteBuffer(string: playlist.serialized()), gzipped: nil)
    }

    /// LL-HLS blocking reload parameters (`_HLS_msn`, `_HLS_part`, `_HLS_skip`) are not used:
    /// stitched live sessions are regular-latency HLS (docs/live.md).
    func media(_ rendering: SessionMode, rendition key: RenditionKey) async throws(SeamError) -> PlaylistBody {
        guard session.format == .hls else { throw SessionAnswerError.dashSession }
        let (session, factory) = (session, factory)
        let playlist = try await analytics.live(session, at: date()) { () async throws(SeamError) in
            switch rendering {
            case .stitched: return try await factory.playlist(session, rendition: key)
            case .interstitials: return try await factory.interstitialsPlaylist(session, rendition: key)
            }
        }
        return PlaylistBody(bytes: playlist.withSerializedBytes { ByteBuffer(bytes: $0) }, gzipped: nil)
    }

    /// A live DASH session's MPD, after the same reload an HLS playlist request makes.
    func dashManifest() async throws(SeamError) -> PlaylistBody {
        guard session.format == .dash else { throw SessionAnswerError.hlsSession }
        let (session, factory) = (session, factory)
        let mpd = try await analytics.live(session, at: date()) { () async throws(SeamError) in
            try await factory.dashManifest(session)
        }
        return PlaylistBody(bytes: ByteBuffer(bytes: mpd.serializedBytes()), gzipped: nil)
    }

    func assetList(_ id: InterstitialBreakID) throws(SeamError) -> ByteBuffer {
        guard session.format == .hls else { throw SessionAnswerError.dashSession }
        guard let list = session.assetList(id) else { throw SessionAnswerError.noBreak(id.text) }
        return InterstitialsRendering.json(list)
    }

    func adAsset(_ address: AdAssetAddress) throws(SeamError) -> ByteBuffer {
        guard session.format == .hls else { throw SessionAnswerError.dashSession }
        guard let asset = session.adAsset(address) else { throw SessionAnswerError.noAdAsset }
        return ByteBuffer(string: asset.multivariant.serialized())
    }

    func adAssetMedia(_ address: AdAssetAddress, rendition key: RenditionKey) throws(SeamError) -> ByteBuffer {
        guard session.format == .hls else { throw SessionAnswerError.dashSession }
        guard let media = session.adAsset(address)?.media[key] else { throw SessionAnswerError.noAdAsset }
        return media.withSerializedBytes { ByteBuffer(bytes: $0) }
    }

    func adSegment(_ address: AdSegmentAddress) throws(SeamError) -> AdSegmentRedirect {
        guard
            let known = session.adSegment(
                breakNumber: address.pod, ad: address.ad, rendition: address.rendition.path,
                segment: address.segment)
        else { throw SessionAnswerError.noLiveAdSegment }
        return AdSegmentRedirect(url: known.url, events: known.events, beacons: known.beacons)
    }

    func trackingDocument() -> TrackingDocument { session.tracking() }
}
