import Foundation
import NIOCore
import Stitching

/// Everything a VOD session serves, computed once when it is created: the playlists are
/// final, so every later request is a lookup, not a splice.
public struct StitchedSession: Sendable {
    public let id: SessionID
    public let contentURL: String
    public let trackingMode: TrackingMode
    /// The multivariant playlist, serialized. `ByteBuffer`s so a response shares, not copies, them.
    public let multivariant: ByteBuffer
    /// Media playlists by rendition key (`v0`, `a0`, `s0`, ...), serialized.
    public let media: [String: ByteBuffer]
    /// The same playlists gzip-compressed once at creation (when large enough and gzip is on):
    /// players ask for gzip on every reload, and compressing per request would cost more than
    /// everything else a playlist request does.
    public let gzipped: [String: ByteBuffer]
    public let tracking: TrackingDocument
    /// Where each ad segment of each rendition really is, and what fetching it reports.
    public let adSegments: [AdSegmentKey: AdSegmentTarget]
    /// Beacon URLs per (pod, ad, event) for server-side tracking.
    public let beacons: [AdEventKey: [String]]
    public let createdAt: Date

    /// The key of the multivariant playlist in `gzipped`.
    public static let multivariantKey = "master"

    public struct AdSegmentKey: Sendable, Hashable {
        public var rendition: String
        public var pod: Int
        public var ad: Int
        public var segment: Int
    }

    public struct AdSegmentTarget: Sendable {
        public var url: String
        public var events: [AdProgressEvent]
    }

    public struct AdEventKey: Sendable, Hashable {
        public var pod: Int
        public var ad: Int
        public var event: AdProgressEvent
    }
}
