import HLS

/// Whether an ad creative can play in a title, and which of its renditions plays in each of the
/// title's renditions. VOD sessions and live channels ask the same rule, so an ad that plays in
/// one plays in the other.
///
/// Today's matching: video variants by codecs, bandwidth and resolution (`CreativeMatcher`), audio
/// by language (else the first audio, else a muxed creative's lowest variant), subtitles as empty
/// cues for the ad's length. `adPlaylist(for:creative:content:emptySubtitleURI:)` is the one place
/// that choice is made, so a finer rule replaces that function alone.
public enum CreativeFit {
    /// A creative cut for every rendition of a live channel, or why it cannot play there.
    public enum Verdict: Sendable {
        case usable([RenditionKey: MediaPlaylist])
        case unusable(String)
    }

    /// Why `creative` cannot play in `content` (another container, no rendition in the content's
    /// codecs), or nil.
    public static func incompatibility(of creative: AdCreative, with content: ContentSet) -> String? {
        if creative.isFragmentedMP4 != (content.reference.segments.first?.map != nil) {
            return "creative is \(creative.isFragmentedMP4 ? "fMP4" : "MPEG-TS") but the content is not"
        }
        let streams = creative.variants.map(\.stream)
        if content.renditions.contains(where: { $0.kind == .variant && $0.variant.map { CreativeMatcher.bestMatch(for: $0, among: streams) == nil } ?? false }) {
            return "no creative rendition has the content's codecs"
        }
        return nil
    }

    /// The creative's playlist for one content rendition, or nil when it has none for it.
    /// - Parameter emptySubtitleURI: the URI of the empty WebVTT file that stands in for the
    ///   ad's subtitles (a session's own, or `SessionURLs.emptySubtitlesPlaceholder` in what a
    ///   channel shares between sessions).
    public static func adPlaylist(for rendition: ContentSet.Rendition, creative: AdCreative, content: ContentSet,
                                  emptySubtitleURI: String) -> MediaPlaylist? {
        func bestVariant(_ variant: VariantStream?) -> MediaPlaylist? {
            guard let variant else { return creative.variants.first?.playlist }
            return CreativeMatcher.bestMatch(for: variant, among: creative.variants.map(\.stream)).map { creative.variants[$0].playlist }
        }
        switch rendition.kind {
        case .variant, .alternateVideo:
            return bestVariant(rendition.variant ?? content.renditions.first?.variant)
        case .audio:
            let language = rendition.rendition?.language
            if let match = creative.audio.first(where: { $0.rendition.language == language && language != nil }) ?? creative.audio.first {
                return match.playlist
            }
            // Muxed creative: its lowest variant carries the audio.
            let lowest = creative.variants.min { $0.stream.bandwidth < $1.stream.bandwidth }
            return lowest?.playlist
        case .subtitles:
            // Ads rarely carry subtitles: empty cues for the ad's length keep the timeline whole.
            guard let reference = bestVariant(content.renditions.first?.variant) else { return nil }
            var empty = MediaPlaylist(targetDuration: reference.targetDuration, playlistType: .vod, endList: true)
            empty.segments = reference.segments.map { MediaSegment(uri: emptySubtitleURI, duration: $0.duration) }
            return empty
        }
    }

    /// The creative's playlist for every rendition of `content`, those it has one for.
    public static func adPlaylists(creative: AdCreative, content: ContentSet, emptySubtitleURI: String) -> [RenditionKey: MediaPlaylist] {
        var playlists: [RenditionKey: MediaPlaylist] = [:]
        for rendition in content.renditions {
            playlists[rendition.key] = adPlaylist(for: rendition, creative: creative, content: content, emptySubtitleURI: emptySubtitleURI)
        }
        return playlists
    }

    /// How `creative` plays in a live channel of `content` whose published target duration is
    /// `targetDuration`: live cannot raise it, and every rendition must play the same number of
    /// segments so the media sequence numbers agree across renditions.
    public static func live(_ creative: AdCreative, in content: ContentSet, targetDuration: Int,
                            emptySubtitleURI: String) -> Verdict {
        let longest = VODSplicer.targetDuration(covering: creative.variants.map(\.playlist) + creative.audio.map(\.playlist))
        if let reason = incompatibility(of: creative, with: content) {
            return .unusable(reason)
        }
        if longest > targetDuration {
            return .unusable("its segments (up to \(longest) s) are longer than the stream's target duration (\(targetDuration) s)")
        }
        let playlists = adPlaylists(creative: creative, content: content, emptySubtitleURI: emptySubtitleURI)
        if playlists.count != content.renditions.count || Set(playlists.values.map(\.segments.count)).count != 1 {
            return .unusable("the creative's renditions are segmented differently, so the renditions of the stream could not stay aligned")
        }
        return .usable(playlists)
    }
}
