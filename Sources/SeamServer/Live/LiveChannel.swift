import Foundation
import HLS
import NIOConcurrencyHelpers
import Stitching

/// What every session of one live channel shares: the origin's renditions, the session target
/// duration and the slate cut for each rendition. Built once per channel URL (see
/// `LiveChannelCatalog`), so a session holds a reference, not a copy.
final class LiveChannel: Sendable {
    let url: String
    /// The multivariant playlist and each rendition's first window (URIs absolute).
    let content: SessionBuilder.Content
    /// Origin URL of each rendition's media playlist, by rendition key (`v0`, `a1`, ...).
    let renditionURLs: [String: String]
    /// The rendition whose windows drive every session's timeline (the first variant).
    let referenceKey: String
    /// Chosen once: covers the content and the slate; ads with longer segments are not used.
    let targetDuration: Int
    /// The slate per rendition (nil: no slate, content fills the rest of a break).
    let slate: [String: MediaPlaylist]
    /// The slate's segment durations in the reference rendition.
    let slateDurations: [Double]?
    let schedule: BreakSchedule?
    /// Shares the strings of ad answers between the channel's sessions (see `StringInterner`).
    let interner = StringInterner()
    /// How each creative fits this channel, and the break media for each list of creatives, so
    /// the sessions that got the same ads share one copy (see `fit(_:)`, `breakMedia(_:)`).
    private let fits = NIOLockedValueBox<[String: CreativeFit]>([:])
    private let media = NIOLockedValueBox<[String: [String: LiveBreakMedia]]>([:])
    private let layouts = NIOLockedValueBox<[String: LiveBreakLayout]>([:])

    /// A creative cut for every rendition of the channel, or why it cannot play here.
    enum CreativeFit: Sendable {
        case usable([String: MediaPlaylist])
        case unusable(String)
    }

    init(url: String, content: SessionBuilder.Content, slate: AdCreative?, schedule: BreakSchedule?, emptySubtitleURI: String) {
        self.url = url
        self.content = content
        referenceKey = content.renditions[0].key
        var urls: [String: String] = [:]
        var slateByRendition: [String: MediaPlaylist] = [:]
        for rendition in content.renditions {
            urls[rendition.key] = rendition.sourceURL
            if let slate, let playlist = SessionBuilder.adPlaylist(for: rendition, creative: slate, content: content, emptySubtitleURI: emptySubtitleURI) {
                slateByRendition[rendition.key] = playlist
            }
        }
        renditionURLs = urls
        // A slate that cannot play in every rendition is no slate.
        let usable = slate != nil && slateByRendition.count == content.renditions.count
        self.slate = usable ? slateByRendition : [:]
        slateDurations = usable ? slateByRendition[content.renditions[0].key]?.segments.map(\.duration) : nil
        var target = VODSplicer.targetDuration(covering: content.renditions.map(\.playlist))
        if usable { target = max(target, VODSplicer.targetDuration(covering: Array(slateByRendition.values))) }
        targetDuration = target
        self.schedule = schedule
    }

    func rendition(_ key: String) -> SessionBuilder.ContentRendition? {
        content.renditions.first { $0.key == key }
    }

    /// How `creative` plays in each rendition; worked out once per creative for all sessions.
    func fit(_ creative: AdCreative, emptySubtitleURI: String) -> CreativeFit {
        if let known = fits.withLockedValue({ $0[creative.url] }) { return known }
        let fit: CreativeFit
        let longest = VODSplicer.targetDuration(covering: creative.variants.map(\.playlist) + creative.audio.map(\.playlist))
        if let reason = SessionBuilder.incompatibility(of: creative, with: content) {
            fit = .unusable(reason)
        } else if longest > targetDuration {
            // Live cannot raise the target duration it already published.
            fit = .unusable("its segments (up to \(longest) s) are longer than the stream's target duration (\(targetDuration) s)")
        } else {
            var playlists: [String: MediaPlaylist] = [:]
            for rendition in content.renditions {
                playlists[rendition.key] = SessionBuilder.adPlaylist(for: rendition, creative: creative, content: content,
                                                                     emptySubtitleURI: emptySubtitleURI)
            }
            if playlists.count != content.renditions.count || Set(playlists.values.map(\.segments.count)).count != 1 {
                fit = .unusable("the creative's renditions are segmented differently, so the renditions of the stream could not stay aligned")
            } else {
                fit = .usable(playlists)
            }
        }
        fits.withLockedValue { fits in
            if fits.count > 256 { fits.removeAll() }
            fits[creative.url] = fit
        }
        return fit
    }

    /// The layout of a break of `duration` seconds offered these creatives (in order); one shared
    /// copy for the viewers of a break (all but late joiners ask for the same duration).
    func layout(_ creatives: [(url: String, playlists: [String: MediaPlaylist])], duration: Double) -> LiveBreakLayout {
        let key = creatives.map(\.url).joined(separator: "\n") + "\n\(duration)"
        if let known = layouts.withLockedValue({ $0[key] }) { return known }
        let built = LiveBreakLayout.make(breakDuration: duration,
                                         ads: creatives.map { $0.playlists[referenceKey]?.segments.map(\.duration) ?? [] },
                                         slate: slateDurations)
        return layouts.withLockedValue { layouts in
            if layouts.count > 256 { layouts.removeAll() }
            if let raced = layouts[key] { return raced }
            layouts[key] = built
            return built
        }
    }

    /// The media of a break playing these creatives (in order), per rendition; one shared copy
    /// per list of creatives.
    func breakMedia(_ creatives: [(url: String, playlists: [String: MediaPlaylist])]) -> [String: LiveBreakMedia] {
        let key = creatives.map(\.url).joined(separator: "\n")
        if let known = media.withLockedValue({ $0[key] }) { return known }
        var built: [String: LiveBreakMedia] = [:]
        for rendition in content.renditions {
            built[rendition.key] = LiveBreakMedia(ads: creatives.map { $0.playlists[rendition.key] }, slate: slate[rendition.key])
        }
        return media.withLockedValue { media in
            if media.count > 256 { media.removeAll() }
            if let raced = media[key] { return raced }
            media[key] = built
            return built
        }
    }
}
