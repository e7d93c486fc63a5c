/// The JSON a player fetches from an interstitial break's `X-ASSET-LIST` URL:
/// `{"ASSETS":[{"URI":"…","DURATION":15}…]}`, with an optional `SKIP-CONTROL`.
///
/// Every `URI` is absolute: some players resolve a relative one against the page, not the list.
/// `DURATION` is read from the ad's own playlist (not the ad server's declared duration) and
/// rounded to the millisecond, so it is what the player will play and identical on every request
/// for the same break: players stall when an asset's duration changes between fetches.
public struct AssetList: Sendable, Hashable, Codable {
    public struct Asset: Sendable, Hashable, Codable {
        public var uri: String
        /// Seconds.
        public var duration: Double

        public init(uri: String, duration: Double) {
            self.uri = uri
            self.duration = duration
        }

        enum CodingKeys: String, CodingKey {
            case uri = "URI"
            case duration = "DURATION"
        }
    }

    /// `SKIP-CONTROL`: when a skippable ad may be skipped, and for how long the button shows.
    public struct SkipControl: Sendable, Hashable, Codable {
        /// Seconds into the asset list's playback before the skip button appears.
        public var offset: Double
        /// Seconds the button stays; nil for the rest of the break.
        public var duration: Double?
        /// The label the player shows, by id.
        public var labelID: String?

        public init(offset: Double, duration: Double? = nil, labelID: String? = nil) {
            self.offset = offset
            self.duration = duration
            self.labelID = labelID
        }

        enum CodingKeys: String, CodingKey {
            case offset = "OFFSET"
            case duration = "DURATION"
            case labelID = "LABEL-ID"
        }
    }

    public var assets: [Asset]
    public var skipControl: SkipControl?

    public init(assets: [Asset], skipControl: SkipControl? = nil) {
        self.assets = assets
        self.skipControl = skipControl
    }

    enum CodingKeys: String, CodingKey {
        case assets = "ASSETS"
        case skipControl = "SKIP-CONTROL"
    }

    /// What a break without fill answers: `200` with no assets (the reason is in the tracking JSON).
    public static let empty = AssetList(assets: [])

    /// The assets of one break of a plan, in pod order. `pod` is the break's number among the
    /// plan's filled breaks (`BreakPlan.filled`), as ad segment addresses count pods;
    /// `adPlaylistURL(pod, ad)` gives Seam's per-session playlist of that ad, whose segments go
    /// through the beacon redirect. An unfilled break gives `empty`.
    ///
    /// No `SKIP-CONTROL` yet: `PlannedAd` carries no skip offset (VAST `skipoffset` is not mapped
    /// into the plan), and a guessed one would let viewers skip unskippable ads.
    public init(break planned: BreakPlan.Break, pod: Int, adPlaylistURL: (_ pod: Int, _ ad: Int) -> String) {
        assets = planned.ads.enumerated().map { index, ad in
            Asset(uri: adPlaylistURL(pod, index), duration: Self.duration(of: ad))
        }
        skipControl = nil
    }

    /// Sum of the asset durations, each as written: the break's `DURATION` in the primary playlist.
    public var totalDuration: Double {
        Self.milliseconds(assets.reduce(0) { $0 + $1.duration })
    }

    /// An ad's duration as the player will play it: its first variant's playlist (every variant of
    /// a creative is cut alike), the declared duration when the creative has none.
    static func duration(of ad: BreakPlan.Ad) -> Double {
        milliseconds(ad.creative.variants.first?.playlist.duration ?? ad.ad.duration)
    }

    /// Rounded to the millisecond, so float sums of segment durations read the same everywhere.
    static func milliseconds(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return 0 }
        return (seconds * 1000).rounded() / 1000
    }
}
