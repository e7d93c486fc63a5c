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
    /// The multivariant playlist, serialized. `ByteBuffer`s so a response shares, not copies, them.
    package let multivariant: ByteBuffer
    /// Media playlists by rendition, serialized.
    package let media: [RenditionKey: ByteBuffer]
    /// The same playlists gzip-compressed once at creation (when large enough and gzip is on):
    /// players ask for gzip on every reload, and compressing per request would cost more than
    /// everything else a playlist request does.
    package let gzipped: [RenditionKey: ByteBuffer]
    package let gzippedMultivariant: ByteBuffer?
    package let tracking: TrackingDocument
    /// Where each ad segment of each rendition really is, and what fetching it reports.
    package let adSegments: [AdSegmentAddress: AdSegmentTarget]
    /// Beacon URLs per (pod, ad, event) for server-side tracking.
    package let beacons: [AdEventKey: [String]]
    package let createdAt: Date
    /// The rendering `manifestUrl` named when the session was created.
    package let mode: SessionMode
    /// The same plan rendered as HLS Interstitials.
    package let interstitials: InterstitialsRendering
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
        self.interstitials = interstitials
        self.id = id
        self.contentURL = contentURL
        self.trackingMode = trackingMode
        self.multivariant = multivariant
        self.media = media
        self.gzipped = gzipped
        self.gzippedMultivariant = gzippedMultivariant
        self.tracking = tracking
        self.adSegments = adSegments
        self.beacons = beacons
        self.createdAt = createdAt
    }
}
