import HLS

/// What plays in a content subtitle rendition while an ad runs.
public enum AdSubtitleChoice: Sendable {
    /// The ad's own subtitle rendition in the content rendition's language.
    case rendition(AdMediaCatalog.SubtitleOption)
    /// The ad has none in that language: empty cues for the ad's length keep the subtitle
    /// timeline as long as the video's.
    case emptyCues

    /// The ad's subtitle rendition, if one was chosen.
    public var option: AdMediaCatalog.SubtitleOption? {
        if case .rendition(let option) = self { return option }
        return nil
    }
}
