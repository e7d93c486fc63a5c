import HLS

/// Picks the ad audio for each content audio rendition of a demuxed title.
///
/// In this order: the same codec (an AAC decoder cannot play E-AC-3, and HE-AAC `mp4a.40.5` is
/// not swapped for AAC-LC `mp4a.40.2` mid-stream), then the nearest channel count (a stereo
/// rendition keeps stereo ad audio, 5.1 keeps 5.1), then the language, then the same GROUP-ID
/// as the content's (`stereo` for `stereo`) and the ad's DEFAULT, then the ad's listing order.
/// An ad of other codecs only is no match, with a reason: it is skipped rather than spliced.
///
/// An ad with no audio renditions is muxed: its variants carry the audio, the codec is the
/// audio part of their CODECS, and of equals the lowest bandwidth is taken (the player fetches
/// whole muxed segments for the audio alone). A side that declares no codec is not refused
/// (the playlist does not say it is wrong), but any ad audio that declares the content's codec
/// is preferred to it.
public enum AdAudioMatcher {
    /// The ad audio for a content audio rendition described by `content`.
    public static func match(
        _ content: AudioTrackProfile, in ad: AdMediaCatalog
    ) -> Result<AdAudioChoice, AdAudioMismatch> {
        if !ad.audio.isEmpty {
            let best = ad.audio.indices.compactMap { index -> ([Int], Int)? in
                let option = ad.audio[index]
                guard let codec = codecRank(content, option.profile) else { return nil }
                return (
                    [
                        codec, channelRank(content, option.profile),
                        LanguageTag.distance(content.language, option.profile.language),
                        option.profile.groupID == content.groupID ? 0 : 1, option.rendition.isDefault ? 0 : 1, index,
                    ], index
                )
            }.min { $0.0.lexicographicallyPrecedes($1.0) }
            guard let best else {
                return .failure(
                    AdAudioMismatch(kind: .noCompatibleCodec, content: content, offered: ad.audio.map(\.profile)))
            }
            return .success(.rendition(ad.audio[best.1]))
        }
        guard !ad.muxedAudio.isEmpty else {
            return .failure(AdAudioMismatch(kind: .noAudio, content: content, offered: []))
        }
        let best = ad.muxedAudio.indices.compactMap { index -> ([Int], Int)? in
            let option = ad.muxedAudio[index]
            guard let codec = codecRank(content, option.profile) else { return nil }
            return (
                [
                    codec, channelRank(content, option.profile),
                    LanguageTag.distance(content.language, option.profile.language),
                    option.stream.bandwidth, index,
                ], index
            )
        }.min { $0.0.lexicographicallyPrecedes($1.0) }
        guard let best else {
            return .failure(
                AdAudioMismatch(kind: .noCompatibleCodec, content: content, offered: ad.muxedAudio.map(\.profile)))
        }
        return .success(.muxedVariant(ad.muxedAudio[best.1]))
    }

    /// The ad audio for `rendition`, an audio rendition of the content's `multivariant`.
    public static func match(
        rendition: Rendition, of multivariant: MultivariantPlaylist,
        in ad: AdMediaCatalog
    ) -> Result<AdAudioChoice, AdAudioMismatch> {
        match(AudioTrackProfile(rendition: rendition, in: multivariant), in: ad)
    }

    /// The ad audio for every audio rendition with a URI of the content's `multivariant`, in
    /// listing order; the first mismatch when one has none (the ad is then skipped for the
    /// whole session: a player switching audio tracks would fall into the hole).
    public static func matchEveryRendition(
        of multivariant: MultivariantPlaylist,
        in ad: AdMediaCatalog
    ) -> Result<[AdAudioChoice], AdAudioMismatch> {
        var choices: [AdAudioChoice] = []
        for rendition in multivariant.renditions where rendition.type == .audio && rendition.uri != nil {
            switch match(rendition: rendition, of: multivariant, in: ad) {
            case .success(let choice): choices.append(choice)
            case .failure(let mismatch): return .failure(mismatch)
            }
        }
        return .success(choices)
    }

    /// 0: the same codec (or the content does not say); 1: the ad does not say; nil: another codec.
    static func codecRank(_ content: AudioTrackProfile, _ ad: AudioTrackProfile) -> Int? {
        if content.codecs.isEmpty { return 0 }
        if ad.codecs.isEmpty { return 1 }
        return Set(content.codecs).isDisjoint(with: ad.codecs) ? nil : 0
    }

    /// 0: the same count (or the content does not say); 1: the ad does not say; else 1 + the difference.
    static func channelRank(_ content: AudioTrackProfile, _ ad: AudioTrackProfile) -> Int {
        guard let wanted = content.channels else { return 0 }
        guard let offered = ad.channels else { return 1 }
        return offered == wanted ? 0 : 1 + abs(offered - wanted)
    }
}
