import Hummingbird
import HummingbirdCore

/// The HLS draft's interstitial request parameters on an asset list request (appendix D of
/// draft-pantos-hls-rfc8216bis): `_HLS_start_offset`, the seconds from the interstitial's start at
/// which a player that joins a live stream inside it begins (hls.js and Shaka send it, rounded to
/// the millisecond, only when above 0), and `_HLS_primary_id`, the player's id of its primary
/// playback (the value of its `X-Playback-Session-Id`; hls.js, Shaka and AVPlayer send it).
///
/// Seam answers the same list whatever they say (see `AssetList.joinPoint(at:)` for why); it reads
/// them to count and tell where viewers join (`seam_asset_lists_answered_total`, the session's
/// story). A malformed value is `400` naming the parameter: a player that sends one is not one of
/// those, and a silent default would hide it.
struct AssetListQuery: Sendable, Equatable {
    var startOffset: Double?
    var primaryID: String?

    /// Longer ids are refused: players send a UUID (36 characters).
    static let maxPrimaryIDLength = 256

    init(startOffset: Double? = nil, primaryID: String? = nil) {
        self.startOffset = startOffset
        self.primaryID = primaryID
    }

    init(_ parameters: FlatDictionary<Substring, Substring>) throws(SeamError) {
        if let text = parameters.get("_HLS_start_offset") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw SeamError(
                    .invalidRequest,
                    "_HLS_start_offset must be the seconds from the interstitial's start at which playback begins, a decimal number of 0 or more (e.g. _HLS_start_offset=12.5); got \(SessionRequest.quoted(String(text.prefix(40))))"
                )
            }
            startOffset = seconds
        }
        if let text = parameters.get("_HLS_primary_id") {
            guard !text.isEmpty, text.count <= Self.maxPrimaryIDLength,
                text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else {
                throw SeamError(
                    .invalidRequest,
                    "_HLS_primary_id must be the player's playback session id: 1 to \(Self.maxPrimaryIDLength) printable characters without spaces (e.g. a UUID)"
                )
            }
            primaryID = text
        }
    }

    /// A join inside the interstitial: an offset above 0.
    var joinsInside: Bool { (startOffset ?? 0) > 0 }
}
