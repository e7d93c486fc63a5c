import Foundation
import NIOCore
import Stitching

// A VOD session and its record, both ways: what the record keeps of what the session serves,
// and the session a record gives back, serving the same bytes.

extension SessionRecord.VOD.Rows {
    /// What `session` serves; rows sorted, so one session always gives the same record.
    init(_ session: StitchedSession) {
        contentURL = session.contentURL
        createdAt = session.createdAt
        multivariant = session.multivariant
        media = Dictionary(uniqueKeysWithValues: session.media.map { ($0.key.path, $0.value) })
        gzipped = Dictionary(
            uniqueKeysWithValues: session.gzipped.map { ($0.key.path, $0.value) })
        gzippedMultivariant = session.gzippedMultivariant.map { $0 }
        tracking = session.tracking
        adSegments = session.adSegments.map { key, target in
            AdSegment(
                rendition: key.rendition.path, breakNumber: key.pod, ad: key.ad, segment: key.segment,
                url: target.url, events: target.events)
        }.sorted {
            ($0.rendition, $0.breakNumber, $0.ad, $0.segment) < ($1.rendition, $1.breakNumber, $1.ad, $1.segment)
        }
        beacons = session.beacons.map { key, urls in
            Beacons(breakNumber: key.pod, ad: key.ad, event: key.event, urls: urls)
        }.sorted { ($0.breakNumber, $0.ad, $0.event.rawValue) < ($1.breakNumber, $1.ad, $1.event.rawValue) }
        let rendering = session.interstitials
        func data(_ buffers: [RenditionKey: ByteBuffer]) -> [String: ByteBuffer] {
            Dictionary(uniqueKeysWithValues: buffers.map { ($0.key.path, $0.value) })
        }
        var assets: [AdAssetAddress: AdAsset] = [:]
        for (address, bytes) in rendering.adAssets {
            assets[address] = AdAsset(
                breakNumber: address.pod, ad: address.ad, multivariant: bytes, media: [:])
        }
        for (key, bytes) in rendering.adAssetMedia {
            assets[key.address]?.media[key.rendition.path] = bytes
        }
        interstitials = Interstitials(
            multivariant: rendering.multivariant,
            gzippedMultivariant: rendering.gzippedMultivariant.map { $0 },
            media: data(rendering.media), gzipped: data(rendering.gzipped),
            assetLists: Dictionary(
                uniqueKeysWithValues: rendering.assetLists.map { ($0.key.text, $0.value) }),
            adAssets: assets.values.sorted { ($0.breakNumber, $0.ad) < ($1.breakNumber, $1.ad) })
        if let manifest = session.dashManifestBody {
            mpd = manifest.bytes
            gzippedMPD = manifest.gzipped
        }
    }
}

extension InterstitialsRendering {
    /// The rendering a record describes; nil when a key in it is not one Seam writes.
    init?(record: SessionRecord.VOD.Interstitials) {
        func buffers(_ data: [String: ByteBuffer]) -> [RenditionKey: ByteBuffer]? {
            var result: [RenditionKey: ByteBuffer] = [:]
            for (path, bytes) in data {
                guard let key = RenditionKey(path) else { return nil }
                result[key] = bytes
            }
            return result
        }
        guard let media = buffers(record.media), let gzipped = buffers(record.gzipped) else { return nil }
        var lists: [InterstitialBreakID: ByteBuffer] = [:]
        for (text, bytes) in record.assetLists {
            guard let id = InterstitialBreakID(text) else { return nil }
            lists[id] = bytes
        }
        var adAssets: [AdAssetAddress: ByteBuffer] = [:]
        var adAssetMedia: [AdAssetMediaKey: ByteBuffer] = [:]
        for asset in record.adAssets {
            let address = AdAssetAddress(pod: asset.breakNumber, ad: asset.ad)
            adAssets[address] = asset.multivariant
            guard let media = buffers(asset.media) else { return nil }
            for (key, bytes) in media { adAssetMedia[AdAssetMediaKey(address: address, rendition: key)] = bytes }
        }
        self.init(
            multivariant: record.multivariant,
            gzippedMultivariant: record.gzippedMultivariant,
            media: media, gzipped: gzipped, assetLists: lists, adAssets: adAssets, adAssetMedia: adAssetMedia)
    }
}

extension StitchedSession {
    /// The VOD session a record describes, serving the same bytes; nil for a live record.
    package init?(record: SessionRecord) {
        guard case .vod(let written) = record.kind else { return nil }
        if let session = written.session {
            self = session
            return
        }
        let vod = written.rows
        var adSegments: [AdSegmentAddress: AdSegmentTarget] = [:]
        for row in vod.adSegments {
            guard let rendition = RenditionKey(row.rendition) else { return nil }
            adSegments[AdSegmentAddress(pod: row.breakNumber, ad: row.ad, rendition: rendition, segment: row.segment)] =
                AdSegmentTarget(url: row.url, events: row.events)
        }
        var media: [RenditionKey: ByteBuffer] = [:]
        for (path, bytes) in vod.media {
            guard let key = RenditionKey(path) else { return nil }
            media[key] = bytes
        }
        var gzipped: [RenditionKey: ByteBuffer] = [:]
        for (path, bytes) in vod.gzipped {
            guard let key = RenditionKey(path) else { return nil }
            gzipped[key] = bytes
        }
        var beacons: [AdEventKey: [String]] = [:]
        for row in vod.beacons {
            beacons[AdEventKey(pod: row.breakNumber, ad: row.ad, event: row.event)] = row.urls
        }
        guard let interstitials = InterstitialsRendering(record: vod.interstitials) else { return nil }
        self.init(
            id: record.id, contentURL: vod.contentURL, trackingMode: record.trackingMode,
            multivariant: vod.multivariant,
            media: media, gzipped: gzipped,
            tracking: vod.tracking, adSegments: adSegments, beacons: beacons, createdAt: vod.createdAt,
            gzippedMultivariant: vod.gzippedMultivariant,
            mode: record.mode, interstitials: interstitials, pipOf: record.inputs.request.pipOf,
            policy: record.inputs.request.policy,
            dashManifest: vod.mpd.map { PlaylistBody(bytes: $0, gzipped: vod.gzippedMPD) })
    }
}
