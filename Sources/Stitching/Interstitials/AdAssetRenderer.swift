import HLS

/// One ad of one break as an interstitial asset: a multivariant playlist shaped like the
/// content's (the same variants and renditions, each pointing at the ad's playlist fitted to
/// that rendition, as the stitched rendering splices it), and those media playlists with their
/// segments routed as the stitched rendering routes them.
///
/// The player plays each asset with a player of its own, so the asset must stand alone:
/// `EXT-X-ENDLIST`, VOD. Its own URIs (renditions, and segments routed through Seam) are relative
/// to it, which every player resolves against the playlist's URL (RFC 8216 section 4.1), so its
/// bytes name no session and sessions that play the same creative share them
/// (`segmentURI` gives `SessionURLs.adAssetSegmentReference`); the creative's own URIs are absolute. Its ladder is the content's so the player picks the
/// same rendition for the ad as for the content around it, and so a demuxed audio group or
/// subtitle group the viewer chose exists in the ad too. The variants keep the content's
/// attributes (`BANDWIDTH`, `CODECS`, `RESOLUTION`): each rendition's ad playlist is the creative
/// rendition matched to that content variant (`CreativeMatcher`, as the stitched rendering
/// splices it), whose own peak bitrate Seam does not know (segment sizes are not in playlists).
public enum AdAssetRenderer {
    /// A rendition's playlist relative to the asset's multivariant playlist
    /// (`SessionURLs.adAssetMedia` once resolved): no session in the bytes.
    public static func mediaReference(_ key: RenditionKey) -> String { "media/" + key.path + ".m3u8" }

    public struct Asset: Sendable {
        public var multivariant: MultivariantPlaylist
        public var media: [RenditionKey: MediaPlaylist]
    }

    /// - Parameters:
    ///   - content: the title's (or channel's) multivariant playlist.
    ///   - adPlaylist: the ad's playlist for a content rendition, nil when it has none there.
    ///   - segmentURI: the URI to list for segment `index` of rendition `key` (the beacon
    ///     redirect, or the creative's own URI when the player tracks).
    public static func asset(
        content: MultivariantPlaylist, address: AdAssetAddress, urls: SessionURLs,
        adPlaylist: (RenditionKey) -> MediaPlaylist?,
        segmentURI: (_ key: RenditionKey, _ index: Int, _ uri: String) -> String
    ) -> Asset {
        var media: [RenditionKey: MediaPlaylist] = [:]
        func serve(_ key: RenditionKey) -> Bool {
            if media[key] != nil { return true }
            guard var playlist = adPlaylist(key) else { return false }
            for index in playlist.segments.indices {
                playlist.segments[index].uri = segmentURI(key, index, playlist.segments[index].uri)
            }
            playlist.endList = true
            playlist.playlistType = .vod
            playlist.trailer = nil
            media[key] = playlist
            return true
        }
        var multivariant = content
        var variants: [VariantStream] = []
        for (index, variant) in content.variants.enumerated() {
            let key = RenditionKey(.variant, index)
            guard serve(key) else { continue }
            var routed = variant
            routed.uri = Self.mediaReference(key)
            variants.append(routed)
        }
        var renditions: [Rendition] = []
        for (index, rendition) in content.renditions.enumerated() {
            guard rendition.uri != nil else { renditions.append(rendition); continue }
            guard let kind = ContentSet.kind(of: rendition) else { continue }
            let key = RenditionKey(kind, index)
            guard serve(key) else { continue }
            var routed = rendition
            routed.uri = Self.mediaReference(key)
            renditions.append(routed)
        }
        multivariant.variants = variants
        multivariant.renditions = renditions
        // An ad has no trick play, no steering, and nowhere to start but its beginning; the
        // title's session keys and data are not the ad's (a player would fetch DRM keys for a
        // clear ad).
        multivariant.iFrameVariants = []
        multivariant.contentSteering = nil
        multivariant.start = nil
        multivariant.sessionKeys = []
        multivariant.sessionData = []
        return Asset(multivariant: multivariant, media: media)
    }
}
