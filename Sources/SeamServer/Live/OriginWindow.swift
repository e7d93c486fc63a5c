import HLS

/// One origin media playlist as `OriginPlaylistCache` hands it out: what every viewer of the
/// channel splices from until the next refresh.
public struct OriginWindow: Sendable, Equatable {
    /// The origin's media playlist, URIs resolved against `finalURL` so they stay valid when
    /// Seam serves the playlist from its own address.
    public var playlist: MediaPlaylist
    /// The URL after redirects.
    public var finalURL: String
    /// When the origin's answer arrived; freshness and staleness are measured from here.
    public var fetchedAt: ContinuousClock.Instant
    /// True when this is the last good window served because the latest fetch failed.
    public var isStale: Bool

    public init(playlist: MediaPlaylist, finalURL: String, fetchedAt: ContinuousClock.Instant, isStale: Bool = false) {
        self.playlist = playlist
        self.finalURL = finalURL
        self.fetchedAt = fetchedAt
        self.isStale = isStale
    }

    /// The sequence number of the last segment (`mediaSequence - 1` when there are none).
    public var lastSequenceNumber: Int { playlist.mediaSequence + playlist.segments.count - 1 }
}
