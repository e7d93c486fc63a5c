/// How ads reach the player: spliced into the playlists (`stitched`), or announced as HLS
/// Interstitials the player fetches itself (`interstitials`). A session serves both; the mode
/// picks the one `manifestUrl` names.
public enum SessionMode: String, Sendable, Codable, CaseIterable {
    case stitched, interstitials
}

/// Who fires the ad beacons: Seam when ad segments are fetched (`server`), the player from the
/// tracking JSON (`client`), or Seam the impressions and the player the rest (`hybrid`).
public enum TrackingMode: String, Sendable, Codable, CaseIterable {
    case server, client, hybrid
}

/// The linear ad events a viewer reaches, in order: Seam fires their beacons server-side, the
/// tracking JSON lists them for players, and SeamKit reports them to apps.
public enum AdProgressEvent: String, Sendable, Hashable, CaseIterable, Codable {
    case impression
    case start
    case firstQuartile
    case midpoint
    case thirdQuartile
    case complete

    /// Fraction of the ad at which the event happens.
    public var fraction: Double {
        switch self {
        case .impression, .start: return 0
        case .firstQuartile: return 0.25
        case .midpoint: return 0.5
        case .thirdQuartile: return 0.75
        case .complete: return 1
        }
    }
}
