import HLS

/// Picks what a content subtitle rendition shows during an ad: the ad's own subtitles when it
/// has a rendition in the same language (and the same FORCED flag: forced subtitles only
/// translate foreign dialogue, so full subtitles would flood a forced track), else empty cues.
public enum AdSubtitlePicker {
    /// Shortfall below which an ad's subtitle playlist is taken as covering the ad: encoders
    /// round segment durations, and a cue segment of a few milliseconds helps nobody.
    static let coverageTolerance = 0.1

    /// The choice for `content`, a subtitle rendition of the content. Among the ad's renditions
    /// of the same FORCED flag and with segments: the same language tag first, then the same
    /// primary language (`en` for `en-US`), then the same CHARACTERISTICS, the same GROUP-ID,
    /// the ad's DEFAULT, its listing order.
    public static func choice(for content: Rendition, in ad: AdMediaCatalog) -> AdSubtitleChoice {
        let ranked = ad.subtitles.indices.compactMap { index -> ([Int], Int)? in
            let option = ad.subtitles[index]
            let language = LanguageTag.distance(content.language, option.rendition.language)
            guard option.rendition.forced == content.forced, language < 2, !option.playlist.segments.isEmpty else {
                return nil
            }
            return (
                [
                    language, option.rendition.characteristics == content.characteristics ? 0 : 1,
                    option.rendition.groupID == content.groupID ? 0 : 1, option.rendition.isDefault ? 0 : 1, index,
                ], index
            )
        }
        guard let best = ranked.min(by: { $0.0.lexicographicallyPrecedes($1.0) }) else { return .emptyCues }
        return .rendition(ad.subtitles[best.1])
    }

    /// The playlist to splice into `content` for this ad.
    ///
    /// - Parameters:
    ///   - adVideo: the ad's playlist chosen for the video (its segments give the ad's length).
    ///   - emptyCueURI: a WebVTT file with no cues.
    /// - Returns: the ad's subtitle playlist, padded with one empty-cue segment when it ends
    ///   before the video; or empty cues segment for segment with `adVideo` — also when the ad's
    ///   subtitles run longer than its video, since every later cue of the title would then be
    ///   late by the difference.
    public static func playlist(
        for content: Rendition, in ad: AdMediaCatalog, adVideo: MediaPlaylist,
        emptyCueURI: String
    ) -> MediaPlaylist {
        switch choice(for: content, in: ad) {
        case .emptyCues:
            return emptyCues(covering: adVideo, uri: emptyCueURI)
        case .rendition(let option):
            var subtitles = option.playlist
            if subtitles.duration - adVideo.duration > coverageTolerance {
                return emptyCues(covering: adVideo, uri: emptyCueURI)
            }
            let shortfall = adVideo.duration - subtitles.duration
            if shortfall > coverageTolerance {
                subtitles.segments.append(MediaSegment(uri: emptyCueURI, duration: shortfall))
            }
            subtitles.endList = true
            subtitles.playlistType = .vod
            return subtitles
        }
    }

    /// Empty cues for each segment of `reference`: what subtitles play during an ad without any.
    public static func emptyCues(covering reference: MediaPlaylist, uri: String) -> MediaPlaylist {
        var empty = MediaPlaylist(targetDuration: reference.targetDuration, playlistType: .vod, endList: true)
        empty.segments = reference.segments.map { MediaSegment(uri: uri, duration: $0.duration) }
        return empty
    }
}
