import NIOCore
import Stitching

/// A VOD session's answers are lookups: everything was rendered when it was created.
extension StitchedSession: SessionServing {
    func multivariant(_ rendering: SessionMode) throws(SeamError) -> PlaylistBody {
        switch rendering {
        case .stitched: return PlaylistBody(bytes: multivariant, gzipped: gzippedMultivariant)
        case .interstitials:
            return PlaylistBody(bytes: interstitials.multivariant, gzipped: interstitials.gzippedMultivariant)
        }
    }

    func media(_ rendering: SessionMode, rendition key: RenditionKey) throws(SeamError) -> PlaylistBody {
        let (playlists, gzips) =
            rendering == .stitched ? (media, gzipped) : (interstitials.media, interstitials.gzipped)
        guard let bytes = playlists[key] else { throw SessionAnswerError.noRendition(key.path, rendering) }
        return PlaylistBody(bytes: bytes, gzipped: gzips[key])
    }

    func assetList(_ id: InterstitialBreakID) throws(SeamError) -> ByteBuffer {
        guard let list = interstitials.assetLists[id] else { throw SessionAnswerError.noBreak(id.text) }
        return list
    }

    func adAsset(_ address: AdAssetAddress) throws(SeamError) -> ByteBuffer {
        guard let bytes = interstitials.adAssets[address] else { throw SessionAnswerError.noAdAsset }
        return bytes
    }

    func adAssetMedia(_ address: AdAssetAddress, rendition key: RenditionKey) throws(SeamError) -> ByteBuffer {
        guard let bytes = interstitials.adAssetMedia[.init(address: address, rendition: key)] else {
            throw SessionAnswerError.noAdAsset
        }
        return bytes
    }

    func adSegment(_ address: AdSegmentAddress) throws(SeamError) -> AdSegmentRedirect {
        guard let known = adSegments[address] else { throw SessionAnswerError.noAdSegment }
        var beacons: [AdProgressEvent: [String]] = [:]
        for event in known.events {
            beacons[event] = self.beacons[.init(pod: address.pod, ad: address.ad, event: event)] ?? []
        }
        return AdSegmentRedirect(url: known.url, events: known.events, beacons: beacons)
    }

    func trackingDocument() -> TrackingDocument { tracking }
}
