import HLS

/// The multivariant playlist a session serves: the title's, with every rendition routed through
/// the session (`SessionURLs.media`). VOD and live sessions serve the same shape.
public enum SessionMultivariant {
    /// - Parameter has: whether the session serves the rendition (an `EXT-X-MEDIA` entry it does
    ///   not serve keeps the origin's URI).
    public static func make(
        _ original: MultivariantPlaylist, urls: SessionURLs, has: (RenditionKey) -> Bool
    ) -> MultivariantPlaylist {
        make(original, mediaURL: urls.media, has: has)
    }

    /// The interstitials rendering's: the same, every rendition at `SessionURLs.interstitialsMedia`.
    public static func interstitials(
        _ original: MultivariantPlaylist, urls: SessionURLs, has: (RenditionKey) -> Bool
    ) -> MultivariantPlaylist {
        make(original, mediaURL: urls.interstitialsMedia, has: has)
    }

    static func make(
        _ original: MultivariantPlaylist, mediaURL: (RenditionKey) -> String, has: (RenditionKey) -> Bool
    ) -> MultivariantPlaylist {
        var multivariant = original
        for index in multivariant.variants.indices {
            multivariant.variants[index].uri = mediaURL(RenditionKey(.variant, index))
        }
        // Variants the session leaves out (a rendition filter) are not listed; keys keep their
        // index in the title's ladder, so every other URL stays as it was.
        if multivariant.variants.indices.contains(where: { !has(RenditionKey(.variant, $0)) }) {
            multivariant.variants = multivariant.variants.indices.filter { has(RenditionKey(.variant, $0)) }.map {
                multivariant.variants[$0]
            }
        }
        for index in multivariant.renditions.indices where multivariant.renditions[index].uri != nil {
            guard let kind = ContentSet.kind(of: multivariant.renditions[index]) else { continue }
            let key = RenditionKey(kind, index)
            if has(key) { multivariant.renditions[index].uri = mediaURL(key) }
        }
        // I-frame playlists would not show the ads, and steering cannot redirect session URLs.
        multivariant.iFrameVariants = []
        multivariant.contentSteering = nil
        return multivariant
    }
}
