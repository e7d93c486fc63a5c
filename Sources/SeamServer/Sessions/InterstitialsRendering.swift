import Foundation
import NIOCore
import Stitching

/// Everything the interstitials rendering of a VOD session serves, serialized once when the
/// session is created (as `StitchedSession` keeps the stitched one): the primary playlists, the
/// asset list of every break, and every ad as an asset.
package struct InterstitialsRendering: Sendable {
    /// One rendition of one ad as an interstitial asset.
    package struct AdAssetMediaKey: Sendable, Hashable {
        package var address: AdAssetAddress
        package var rendition: RenditionKey
    }

    package var multivariant: ByteBuffer
    package var gzippedMultivariant: ByteBuffer?
    package var media: [RenditionKey: ByteBuffer]
    package var gzipped: [RenditionKey: ByteBuffer]
    /// JSON, by break (every break of the plan: an unfilled one answers an empty list).
    package var assetLists: [InterstitialBreakID: ByteBuffer]
    /// The multivariant playlist of each ad asset.
    package var adAssets: [AdAssetAddress: ByteBuffer]
    package var adAssetMedia: [AdAssetMediaKey: ByteBuffer]

    /// The bytes of an asset list as the route answers it: keys sorted, slashes plain.
    static func json(_ list: AssetList) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An asset list holds strings and finite numbers only: encoding cannot fail.
        return ByteBuffer(bytes: (try? encoder.encode(list)) ?? Data("{\"ASSETS\":[]}".utf8))
    }
}
