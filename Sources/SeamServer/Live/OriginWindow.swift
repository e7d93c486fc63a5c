import HLS
import Stitching

/// One origin media playlist as `OriginPlaylistCache` hands it out: what every viewer of the
/// channel splices from until the next refresh.
///
/// Its fields live in one shared, immutable object: every viewer's reload takes the window out
/// of the cache, and a copy of the bare fields retained and released each of the playlist's and
/// the MPD's references (a dozen and more, on the objects every event loop shares); a copy now
/// retains one. Setting a field gives this copy an object of its own.
package struct OriginWindow: Sendable, Equatable {
    private final class Storage: Sendable {
        let playlist: MediaPlaylist
        let finalURL: String
        let fetchedAt: ContinuousClock.Instant
        let isStale: Bool
        let dash: DASHLiveWindow?

        init(
            playlist: MediaPlaylist, finalURL: String, fetchedAt: ContinuousClock.Instant, isStale: Bool,
            dash: DASHLiveWindow?
        ) {
            self.playlist = playlist
            self.finalURL = finalURL
            self.fetchedAt = fetchedAt
            self.isStale = isStale
            self.dash = dash
        }
    }

    private var storage: Storage

    /// The origin's media playlist, URIs resolved against `finalURL` so they stay valid when
    /// Seam serves the playlist from its own address.
    package var playlist: MediaPlaylist {
        get { storage.playlist }
        set {
            storage = Storage(
                playlist: newValue, finalURL: finalURL, fetchedAt: fetchedAt, isStale: isStale, dash: dash)
        }
    }

    /// The URL after redirects.
    package var finalURL: String {
        get { storage.finalURL }
        set {
            storage = Storage(
                playlist: playlist, finalURL: newValue, fetchedAt: fetchedAt, isStale: isStale, dash: dash)
        }
    }

    /// When the origin's answer arrived; freshness and staleness are measured from here.
    package var fetchedAt: ContinuousClock.Instant {
        get { storage.fetchedAt }
        set {
            storage = Storage(playlist: playlist, finalURL: finalURL, fetchedAt: newValue, isStale: isStale, dash: dash)
        }
    }

    /// True when this is the last good window served because the latest fetch failed.
    package var isStale: Bool {
        get { storage.isStale }
        set {
            storage = Storage(
                playlist: playlist, finalURL: finalURL, fetchedAt: fetchedAt, isStale: newValue, dash: dash)
        }
    }

    /// A live DASH channel's MPD as it was read; `playlist` is then its video seen as HLS
    /// (`DASHLiveWindow.reference`), which drives every session's timeline.
    package var dash: DASHLiveWindow? {
        get { storage.dash }
        set {
            storage = Storage(
                playlist: playlist, finalURL: finalURL, fetchedAt: fetchedAt, isStale: isStale, dash: newValue)
        }
    }

    package init(
        playlist: MediaPlaylist, finalURL: String, fetchedAt: ContinuousClock.Instant, isStale: Bool = false,
        dash: DASHLiveWindow? = nil
    ) {
        storage = Storage(playlist: playlist, finalURL: finalURL, fetchedAt: fetchedAt, isStale: isStale, dash: dash)
    }

    /// The sequence number of the last segment (`mediaSequence - 1` when there are none).
    package var lastSequenceNumber: Int { storage.playlist.mediaSequence + storage.playlist.segments.count - 1 }

    package static func == (lhs: OriginWindow, rhs: OriginWindow) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.playlist == rhs.playlist && lhs.finalURL == rhs.finalURL && lhs.fetchedAt == rhs.fetchedAt
            && lhs.isStale == rhs.isStale && lhs.dash == rhs.dash
    }
}
