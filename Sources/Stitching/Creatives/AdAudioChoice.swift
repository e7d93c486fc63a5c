import HLS

/// The ad audio chosen for one content audio rendition.
public enum AdAudioChoice: Sendable {
    /// One of the ad's audio renditions.
    case rendition(AdMediaCatalog.AudioOption)
    /// A muxed ad variant, whose segments carry the audio (the ad has no audio renditions).
    case muxedVariant(AdMediaCatalog.MuxedAudioOption)

    /// The media playlist to splice into the content audio rendition.
    public var playlist: MediaPlaylist {
        switch self {
        case .rendition(let option): option.playlist
        case .muxedVariant(let option): option.playlist
        }
    }

    /// The chosen track's description, for logs and tests.
    public var profile: AudioTrackProfile {
        switch self {
        case .rendition(let option): option.profile
        case .muxedVariant(let option): option.profile
        }
    }
}
