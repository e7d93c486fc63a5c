import HLS

/// Whether an ad creative can play in a title, and which of its renditions plays in each of the
/// title's renditions. VOD sessions and live channels ask the same rule, so an ad that plays in
/// one plays in the other.
///
/// Video variants by codecs, bandwidth and resolution (`CreativeMatcher`); audio by codec, then
/// channel count, language and group (`AdAudioMatcher`: an ad with no audio in a content
/// rendition's codec is not spliced at all, since the player's decoder would fail at the
/// splice); subtitles the ad's own in the content rendition's language, else empty cues for the
/// ad's length (`AdSubtitlePicker`). `adPlaylist(for:creative:content:emptySubtitleURI:)` is the
/// one place that choice is made.
public enum CreativeFit {
    /// A creative cut for every rendition of a live channel, or why it cannot play there.
    public enum Verdict: Sendable {
        case usable([RenditionKey: MediaPlaylist])
        case unusable(String)
    }

    /// Why `creative` cannot play in `content` (another container, no rendition in the content's
    /// video codecs, no audio in the codec of one of the content's audio renditions), or nil.
    public static func incompatibility(of creative: AdCreative, with content: ContentSet) -> String? {
        if creative.isFragmentedMP4 != (content.reference.segments.first?.map != nil) {
            return "creative is \(creative.isFragmentedMP4 ? "fMP4" : "MPEG-TS") but the content is not"
        }
        // Audio before video: a demuxed variant's CODECS names its audio group's codec too, so
        // an ad without audio in that codec would otherwise be refused for its "video".
        // One content audio rendition without ad audio skips the ad for the whole session: a
        // player switching audio tracks would otherwise fall into the hole.
        if case .failure(let mismatch) = AdAudioMatcher.matchEveryRendition(
            of: content.multivariant, in: creative.catalog)
        {
            return mismatch.description
        }
        let streams = creative.variants.map(\.stream)
        if content.renditions.contains(where: {
            $0.kind == .variant && $0.variant.map { CreativeMatcher.bestMatch(for: $0, among: streams) == nil } ?? false
        }) {
            return "no creative rendition has the content's codecs"
        }
        return nil
    }

    /// Each content variant with the creative variant (its index in `creative.variants`) that
    /// plays in it by the rule `adPlaylist` follows, nil where none does: what a session's story
    /// shows of a creative's match.
    public static func variantChoices(
        of creative: AdCreative, in content: ContentSet
    ) -> [(key: RenditionKey, choice: Int?)] {
        let streams = creative.variants.map(\.stream)
        return content.renditions.compactMap { rendition in
            guard rendition.kind == .variant, let variant = rendition.variant else { return nil }
            return (rendition.key, CreativeMatcher.bestMatch(for: variant, among: streams))
        }
    }

    /// The creative's variant playlist for a content variant (its first variant when nil).
    static func adVideo(for variant: VariantStream?, creative: AdCreative) -> MediaPlaylist? {
        guard let variant else { return creative.variants.first?.playlist }
        return CreativeMatcher.bestMatch(for: variant, among: creative.variants.map(\.stream)).map {
            creative.variants[$0].playlist
        }
    }

    /// The creative's playlist for one content rendition, or nil when it has none for it.
    /// - Parameter emptySubtitleURI: the URI of the empty WebVTT file that stands in for the
    ///   ad's subtitles (a session's own, or `SessionURLs.emptySubtitlesPlaceholder` in what a
    ///   channel shares between sessions).
    public static func adPlaylist(
        for rendition: ContentSet.Rendition, creative: AdCreative, content: ContentSet,
        emptySubtitleURI: String
    ) -> MediaPlaylist? {
        switch rendition.kind {
        case .variant, .alternateVideo:
            return adVideo(for: rendition.variant ?? content.renditions.first?.variant, creative: creative)
        case .audio:
            guard let entry = rendition.rendition else { return nil }
            return try? AdAudioMatcher.match(rendition: entry, of: content.multivariant, in: creative.catalog).get()
                .playlist
        case .subtitles:
            // Cut against the ad video the reference rendition plays: the subtitle timeline
            // must be as long as the video's.
            guard let video = adVideo(for: content.renditions.first?.variant, creative: creative) else { return nil }
            guard let entry = rendition.rendition else {
                return AdSubtitlePicker.emptyCues(covering: video, uri: emptySubtitleURI)
            }
            return AdSubtitlePicker.playlist(
                for: entry, in: creative.catalog, adVideo: video, emptyCueURI: emptySubtitleURI)
        }
    }

    /// The creative's playlist for every rendition of `content`, those it has one for.
    public static func adPlaylists(
        creative: AdCreative, content: ContentSet, emptySubtitleURI: String
    ) -> [RenditionKey: MediaPlaylist] {
        var playlists: [RenditionKey: MediaPlaylist] = [:]
        for rendition in content.renditions {
            playlists[rendition.key] = adPlaylist(
                for: rendition, creative: creative, content: content, emptySubtitleURI: emptySubtitleURI)
        }
        return playlists
    }

    /// The creative cut for every rendition of a live stream, or why it cannot be: live needs
    /// every rendition to play the same number of segments, so the media sequence numbers agree
    /// across renditions. The ad's own subtitles, when segmented otherwise than its video, give
    /// way to empty cues (the ad still plays, without its captions); audio or video segmented
    /// differently make it unusable. Ads and the channel's slate are fitted by this rule.
    public static func livePlaylists(
        creative: AdCreative, content: ContentSet,
        emptySubtitleURI: String
    ) -> Result<[RenditionKey: MediaPlaylist], Unfit> {
        if let reason = incompatibility(of: creative, with: content) {
            return .failure(Unfit(description: reason))
        }
        return sameSegmentCount(creative: creative, content: content, emptySubtitleURI: emptySubtitleURI)
    }

    /// `livePlaylists` once the creative is known to be compatible.
    static func sameSegmentCount(
        creative: AdCreative, content: ContentSet,
        emptySubtitleURI: String
    ) -> Result<[RenditionKey: MediaPlaylist], Unfit> {
        var playlists = adPlaylists(creative: creative, content: content, emptySubtitleURI: emptySubtitleURI)
        if let video = adVideo(for: content.renditions.first?.variant, creative: creative) {
            for rendition in content.renditions where rendition.kind == .subtitles {
                if let cut = playlists[rendition.key], cut.segments.count != video.segments.count {
                    playlists[rendition.key] = AdSubtitlePicker.emptyCues(covering: video, uri: emptySubtitleURI)
                }
            }
        }
        if playlists.count != content.renditions.count || Set(playlists.values.map(\.segments.count)).count != 1 {
            return .failure(
                Unfit(
                    description:
                        "the creative's renditions are segmented differently, so the renditions of the stream could not stay aligned"
                ))
        }
        return .success(playlists)
    }

    /// Why a creative cannot be cut for a live stream.
    public struct Unfit: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// How `creative` plays in a live channel of `content` whose published target duration is
    /// `targetDuration`: live cannot raise it, and every rendition must play the same number of
    /// segments (`livePlaylists`).
    public static func live(
        _ creative: AdCreative, in content: ContentSet, targetDuration: Int,
        emptySubtitleURI: String
    ) -> Verdict {
        if let reason = incompatibility(of: creative, with: content) {
            return .unusable(reason)
        }
        let longest = VODSplicer.targetDuration(
            covering: creative.variants.map(\.playlist) + creative.catalog.audio.map(\.playlist))
        if longest > targetDuration {
            return .unusable(
                "its segments (up to \(longest) s) are longer than the stream's target duration (\(targetDuration) s)")
        }
        switch sameSegmentCount(creative: creative, content: content, emptySubtitleURI: emptySubtitleURI) {
        case .failure(let unfit):
            return .unusable(unfit.description)
        case .success(let playlists):
            // Subtitle segments are the ad's own when it has them: they must fit too.
            let cues = playlists.values.flatMap(\.segments).map { PlaylistLimits.wholeSeconds($0.duration) }.max() ?? 0
            if cues > targetDuration {
                return .unusable(
                    "its segments (up to \(cues) s) are longer than the stream's target duration (\(targetDuration) s)")
            }
            return .usable(playlists)
        }
    }
}
