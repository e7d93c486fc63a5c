import Foundation
import NIOCore
import Stitching

/// Everything the interstitials rendering of a VOD session serves, serialized once when the
/// session is created (as `StitchedSession` keeps the stitched one): the primary playlists, the
/// asset list of every break, and every ad as an asset.
public struct InterstitialsRendering: Sendable {
    /// One rendition of one ad as an interstitial asset.
    public struct AdAssetMediaKey: Sendable, Hashable {
        public var address: AdAssetAddress
        public var rendition: RenditionKey
    }

    public var multivariant: ByteBuffer
    public var gzippedMultivariant: ByteBuffer?
    public var media: [RenditionKey: ByteBuffer]
    public var gzipped: [RenditionKey: ByteBuffer]
    /// JSON, by break (every break of the plan: an unfilled one answers an empty list).
    public var assetLists: [InterstitialBreakID: ByteBuffer]
    /// The multivariant playlist of each ad asset.
    public var adAssets: [AdAssetAddress: ByteBuffer]
    public var adAssetMedia: [AdAssetMediaKey: ByteBuffer]

    /// The bytes of an asset list as the route answers it: keys sorted, slashes plain.
    static func json(_ list: AssetList) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An asset list holds strings and finite numbers only: encoding cannot fail.
        return ByteBuffer(bytes: (try? encoder.encode(list)) ?? Data("{\"ASSETS\":[]}".utf8))
    }
}
