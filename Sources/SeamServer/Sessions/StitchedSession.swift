import Foundation
import NIOCore
import Stitching

/// Everything a VOD session serves, computed once when it is created (`VODStitcher`): the
/// playlists are final, so every later request is a lookup, not a splice.
package struct StitchedSession: Sendable {
    package typealias AdSegmentTarget = VODStitcher.AdSegmentTarget
    package typealias AdEventKey = TrackingBuilder.BeaconKey

    package let id: SessionID
    package let contentURL: String
    package let trackingMode: TrackingMode
    /// Both renderings' playlists and the asset lists, each kept once (`SessionBodies`).
    let bodies: SessionBodies
    package let tracking: TrackingDocument
    /// Where each ad segment of each rendition really is, and what fetching it reports.
    package let adSegments: [AdSegmentAddress: AdSegmentTarget]
    /// Beacon URLs per (pod, ad, event) for server-side tracking.
    package let beacons: [AdEventKey: [String]]
    package let createdAt: Date
    /// The rendering `manifestUrl` named when the session was created.
    package let mode: SessionMode
    /// The ad assets of the interstitials rendering, shared with the sessions that play the
    /// same creatives (`PlaylistBytesInterner`).
    let adAssets: [AdAssetAddress: ByteBuffer]
    let adAssetMedia: [InterstitialsRendering.AdAssetMediaKey: ByteBuffer]
    /// The main session of a picture-in-picture session (the root one, never another pip):
    /// whose decisions it plays and whose claim set its server-side beacons go in. Nil for a main.
    package let pipOf: SessionID?
    /// The policy the interstitials rendering was made with (nil: Seam's defaults), which a pip
    /// of this session plays under too.
    package let policy: AdPolicy?

    init(
        id: SessionID, contentURL: String, trackingMode: TrackingMode, multivariant: ByteBuffer,
        media: [RenditionKey: ByteBuffer], gzipped: [RenditionKey: ByteBuffer], tracking: TrackingDocument,
        adSegments: [AdSegmentAddress: AdSegmentTarget], beacons: [AdEventKey: [String]], createdAt: Date,
        gzippedMultivariant: ByteBuffer? = nil, mode: SessionMode, interstitials: InterstitialsRendering,
        pipOf: SessionID? = nil, policy: AdPolicy? = nil
    ) {
        self.pipOf = pipOf
        self.policy = policy
        self.mode = mode
        self.id = id
        self.contentURL = contentURL
        self.trackingMode = trackingMode
        var inputs: [SessionBodies.Input] = [
            .init(key: .multivariant(.stitched), bytes: multivariant, gzipped: gzippedMultivariant),
            .init(
                key: .multivariant(.interstitials), bytes: interstitials.multivariant,
                gzipped: interstitials.gzippedMultivariant),
        ]
        for key in media.keys.sorted() {
            inputs.append(.init(key: .media(.stitched, key), bytes: media[key] ?? ByteBuffer(), gzipped: gzipped[key]))
        }
        for key in interstitials.media.keys.sorted() {
            inputs.append(
                .init(
                    key: .media(.interstitials, key), bytes: interstitials.media[key] ?? ByteBuffer(),
                    gzipped: interstitials.gzipped[key]))
        }
        for id in interstitials.assetLists.keys.sorted() {
            inputs.append(.init(key: .assetList(id), bytes: interstitials.assetLists[id] ?? ByteBuffer()))
        }
        bodies = SessionBodies(inputs)
        adAssets = interstitials.adAssets
        adAssetMedia = interstitials.adAssetMedia
        self.tracking = tracking
        self.adSegments = adSegments
        self.beacons = beacons
        self.createdAt = createdAt
    }

    // MARK: The bodies in their plain and gzip forms

    /// The stitched multivariant playlist's plain bytes.
    package var multivariant: ByteBuffer { bodies.body(.multivariant(.stitched))?.bytes ?? ByteBuffer() }
    /// Its gzip copy, when it has one.
    package var gzippedMultivariant: ByteBuffer? { bodies.body(.multivariant(.stitched))?.gzipped }
    /// The stitched media playlists' plain bytes, by rendition.
    package var media: [RenditionKey: ByteBuffer] { plain(.stitched) }
    /// Their gzip copies, for those that have one.
    package var gzipped: [RenditionKey: ByteBuffer] { compressed(.stitched) }

    /// The interstitials rendering as a value (the record writes it; a pip rewrites it).
    package var interstitials: InterstitialsRendering {
        var lists: [InterstitialBreakID: ByteBuffer] = [:]
        for case .assetList(let id) in bodies.keys { lists[id] = bodies.body(.assetList(id))?.bytes }
        let multivariant = bodies.body(.multivariant(.interstitials))
        return InterstitialsRendering(
            multivariant: multivariant?.bytes ?? ByteBuffer(), gzippedMultivariant: multivariant?.gzipped,
            media: plain(.interstitials), gzipped: compressed(.interstitials), assetLists: lists, adAssets: adAssets,
            adAssetMedia: adAssetMedia)
    }

    private func plain(_ rendering: SessionMode) -> [RenditionKey: ByteBuffer] {
        var result: [RenditionKey: ByteBuffer] = [:]
        for case .media(rendering, let key) in bodies.keys { result[key] = bodies.body(.media(rendering, key))?.bytes }
        return result
    }

    private func compressed(_ rendering: SessionMode) -> [RenditionKey: ByteBuffer] {
        var result: [RenditionKey: ByteBuffer] = [:]
        for case .media(rendering, let key) in bodies.keys {
            result[key] = bodies.body(.media(rendering, key))?.gzipped
        }
        return result
    }
}
