/// Why an ad has no audio for a content audio rendition. The ad is then skipped for the
/// session with this reason: splicing audio of another codec makes the player's decoder fail
/// (or go silent) at the splice, which is worse than no ad.
public struct AdAudioMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The ad lists no audio at all (no audio rendition fetched, no variant).
        case noAudio
        /// The ad's audio is all of other codecs than the content rendition's.
        case noCompatibleCodec
    }

    public var kind: Kind
    /// The content rendition's audio, as `AudioTrackProfile` describes it.
    public var content: AudioTrackProfile
    /// The ad's audio tracks that were considered.
    public var offered: [AudioTrackProfile]

    public init(kind: Kind, content: AudioTrackProfile, offered: [AudioTrackProfile]) {
        self.kind = kind
        self.content = content
        self.offered = offered
    }

    public var description: String {
        let wanted = "content audio group \"\(content.groupID)\" (\(content.summary))"
        switch kind {
        case .noAudio:
            return "the ad has no audio for \(wanted)"
        case .noCompatibleCodec:
            let codecs = Set(offered.flatMap(\.codecs)).sorted().joined(separator: ", ")
            return
                "the ad's audio (\(codecs)) has no track in the codec of \(wanted); splicing another codec would break playback"
        }
    }
}
