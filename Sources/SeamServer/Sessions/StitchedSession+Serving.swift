import NIOCore
import Stitching

/// A VOD session's answers are lookups: everything was rendered when it was created.
extension StitchedSession: SessionServing {
    func multivariant(_ rendering: SessionMode) throws(SeamError) -> PlaylistBody {
        guard format == .hls else { throw SessionAnswerError.dashSession }
        return bodies.body(.multivariant(rendering)) ?? PlaylistBody(bytes: ByteBuffer())
    }

    func dashManifest() throws(SeamError) -> PlaylistBody {
        guard let body = bodies.body(.dashManifest) else { throw SessionAnswerError.hlsSession }
        return body
    }

    func media(_ rendering: SessionMode, rendition key: RenditionKey) throws(SeamError) -> PlaylistBody {
        guard format == .hls else { throw SessionAnswerError.dashSession }
        guard let body = bodies.body(.media(rendering, key)) else {
            throw SessionAnswerError.noRendition(key.path, rendering)
        }
        return body
    }

    func assetList(_ id: InterstitialBreakID) throws(SeamError) -> ByteBuffer {
        guard let list = bodies.body(.assetList(id)) else { throw SessionAnswerError.noBreak(id.text) }
        return list.bytes
    }

    func adAsset(_ address: AdAssetAddress) throws(SeamError) -> ByteBuffer {
        guard let bytes = adAssets[address] else { throw SessionAnswerError.noAdAsset }
        return bytes
    }

    func adAssetMedia(_ address: AdAssetAddress, rendition key: RenditionKey) throws(SeamError) -> ByteBuffer {
        guard let bytes = adAssetMedia[.init(address: address, rendition: key)] else {
            throw SessionAnswerError.noAdAsset
        }
        return bytes
    }

    func adSegment(_ address: AdSegmentAddress) throws(SeamError) -> AdSegmentRedirect {
        guard let known = adSegment(at: address) else { throw SessionAnswerError.noAdSegment }
        var beacons: [AdProgressEvent: [String]] = [:]
        for event in known.events {
            beacons[event] = beaconURLs(.init(pod: address.pod, ad: address.ad, event: event)) ?? []
        }
        return AdSegmentRedirect(url: known.url, events: known.events, beacons: beacons)
    }

    func trackingDocument() -> TrackingDocument { tracking }

    func trackingJSON() -> ByteBuffer { bodies.body(.tracking)?.bytes ?? ByteBuffer() }
}
