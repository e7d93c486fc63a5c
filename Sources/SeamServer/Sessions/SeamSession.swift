import Foundation
import Stitching

/// A session of either kind: VOD sessions are computed once; live ones are state machines.
package enum SeamSession: Sendable {
    /// Boxed: a VOD session's value is a few hundred bytes of fields, and a store holds its
    /// sessions inline, so unboxed every live session's entry would be as large (tens of
    /// thousands of live sessions per replica).
    indirect case vod(StitchedSession)
    case live(LiveSession)

    package var id: SessionID {
        switch self {
        case .vod(let session): return session.id
        case .live(let session): return session.id
        }
    }

    /// The rendering `manifestUrl` named when the session was created.
    package var mode: SessionMode {
        switch self {
        case .vod(let session): return session.mode
        case .live(let session): return session.mode
        }
    }

    /// Whether the session streams HLS playlists or a DASH MPD (from the URL it started with).
    package var format: StreamFormat {
        switch self {
        case .vod(let session): return session.format
        case .live(let session): return session.format
        }
    }

    /// The main session of a picture-in-picture session (always the root main, never a pip);
    /// nil for a main session.
    package var pipOf: SessionID? {
        switch self {
        case .vod(let session): return session.pipOf
        case .live(let session): return session.pipOf
        }
    }

    /// The session whose claim set this session's server-side beacons go in (`claimBeacons`):
    /// a main and its pips share one, so an ad event fires once whichever of them plays it.
    package var beaconOwner: SessionID { pipOf ?? id }

    /// `vod` or `live`, as traces and logs name a session's kind.
    var kindName: String {
        switch self {
        case .vod: return "vod"
        case .live: return "live"
        }
    }
}

/// What this replica answers for a session id (`SessionRuntime.lookup`).
package enum SessionLookup: Sendable {
    case found(SeamSession)
    /// The store held it, but its time to live had passed (`410`).
    case expired
    /// The store does not hold it: never stored, deleted, or swept (`404` or `410`: the id's
    /// keyed check tells whether this deployment issued it, see `SessionIDKey`).
    case notFound
}
