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
    /// Where each ad segment of each rendition really is, and what fetching it reports, sorted
    /// by address (`adSegment(at:)` searches it): an array holds the rows in a third of the room
    /// a dictionary's buckets take.
    private let adSegmentRows: [(address: AdSegmentAddress, target: AdSegmentTarget)]
    /// Beacon URLs per (pod, ad, event) for server-side tracking, sorted by key.
    private let beaconRows: [(key: AdEventKey, urls: [String])]
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
        pipOf: SessionID? = nil, policy: AdPolicy? = nil, dashManifest: PlaylistBody? = nil
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
        // Kept as the JSON the tracking route answers, compressed (a third of its size): a VOD
        // session's tracking document never changes, and its values took more room than its text.
        let json = Self.trackingJSON(tracking)
        inputs.append(.init(key: .tracking, bytes: json, gzipped: VODSessionFactory.compressed(json)))
        if let dashManifest {
            inputs.append(.init(key: .dashManifest, bytes: dashManifest.bytes, gzipped: dashManifest.gzipped))
        }
        bodies = SessionBodies(inputs)
        adAssets = interstitials.adAssets
        adAssetMedia = interstitials.adAssetMedia
        adSegmentRows = adSegments.map { ($0.key, $0.value) }.sorted { Self.precedes($0.address, $1.address) }
        beaconRows = beacons.map { ($0.key, $0.value) }.sorted { Self.precedes($0.key, $1.key) }
        self.createdAt = createdAt
    }

    // MARK: Tables

    /// Where the ad segment at `address` really is, and what fetching it reports.
    func adSegment(at address: AdSegmentAddress) -> AdSegmentTarget? {
        Self.search(adSegmentRows, for: address, by: \.address, precedes: Self.precedes)?.target
    }

    /// The beacons of `key`, if any.
    func beaconURLs(_ key: AdEventKey) -> [String]? {
        Self.search(beaconRows, for: key, by: \.key, precedes: Self.precedes)?.urls
    }

    /// Every ad segment's target, by address (the record writes them; a pip shares them).
    package var adSegments: [AdSegmentAddress: AdSegmentTarget] {
        Dictionary(adSegmentRows.map { ($0.address, $0.target) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every beacon list, by (pod, ad, event).
    package var beacons: [AdEventKey: [String]] {
        Dictionary(beaconRows.map { ($0.key, $0.urls) }, uniquingKeysWith: { first, _ in first })
    }

    private static func precedes(_ a: AdSegmentAddress, _ b: AdSegmentAddress) -> Bool {
        (a.pod, a.ad, a.segment) != (b.pod, b.ad, b.segment)
            ? (a.pod, a.ad, a.segment) < (b.pod, b.ad, b.segment) : a.rendition < b.rendition
    }

    private static func precedes(_ a: AdEventKey, _ b: AdEventKey) -> Bool {
        (a.pod, a.ad, a.event.rawValue) < (b.pod, b.ad, b.event.rawValue)
    }

    /// Binary search of rows sorted by `precedes`.
    private static func search<Row, Key: Equatable>(
        _ rows: [Row], for key: Key, by keyPath: KeyPath<Row, Key>, precedes: (Key, Key) -> Bool
    ) -> Row? {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(rows[middle][keyPath: keyPath], key) { low = middle + 1 } else { high = middle }
        }
        return low < rows.count && rows[low][keyPath: keyPath] == key ? rows[low] : nil
    }

    // MARK: The bodies in their plain and gzip forms

    /// The tracking document (read back from its JSON: the record, a pip and the debug route ask).
    package var tracking: TrackingDocument {
        let json = trackingJSON()
        // Written by `trackingJSON(_:)` at creation: it reads back.
        return (try? JSONDecoder().decode(TrackingDocument.self, from: Data(json.readableBytesView)))
            ?? TrackingDocument(
                sessionId: id.value, trackingMode: trackingMode, durationSeconds: 0, avails: [], cuePoints: [])
    }

    /// The JSON of `document` as the routes write JSON: keys sorted, slashes plain.
    static func trackingJSON(_ document: TrackingDocument) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A tracking document holds strings and finite numbers only: encoding cannot fail.
        return ByteBuffer(bytes: (try? encoder.encode(document)) ?? Data())
    }

    /// What the session streams: a DASH session serves one stitched MPD and no playlists.
    package var format: StreamFormat { bodies.has(.dashManifest) ? .dash : .hls }

    /// A DASH session's stitched MPD (nil for an HLS session).
    var dashManifestBody: PlaylistBody? { bodies.body(.dashManifest) }

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
