import HLS
import Stitching

/// One origin media playlist as `OriginPlaylistCache` hands it out: what every viewer of the
/// channel splices from until the next refresh.
package struct OriginWindow: Sendable, Equatable {
    /// The origin's media playlist, URIs resolved against `finalURL` so they stay valid when
    /// Seam serves the playlist from its own address.
    package var playlist: MediaPlaylist
    /// The URL after redirects.
    package var finalURL: String
    /// When the origin's answer arrived; freshness and staleness are measured from here.
    package var fetchedAt: ContinuousClock.Instant
    /// True when this is the last good window served because the latest fetch failed.
    package var isStale: Bool
    /// A live DASH channel's MPD as it was read; `playlist` is then its video seen as HLS
    /// (`DASHLiveWindow.reference`), which drives every session's timeline.
    package var dash: DASHLiveWindow?

    package init(
        playlist: MediaPlaylist, finalURL: String, fetchedAt: ContinuousClock.Instant, isStale: Bool = false,
        dash: DASHLiveWindow? = nil
    ) {
        self.playlist = playlist
        self.dash = dash
        self.finalURL = finalURL
        self.fetchedAt = fetchedAt
        self.isStale = isStale
    }

    /// The sequence number of the last segment (`mediaSequence - 1` when there are none).
    package var lastSequenceNumber: Int { playlist.mediaSequence + playlist.segments.count - 1 }
}
