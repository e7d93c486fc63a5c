/// The JSON a player fetches from an interstitial break's `X-ASSET-LIST` URL:
/// `{"ASSETS":[{"URI":"…","DURATION":15}…]}`, with an optional `SKIP-CONTROL` and, per asset, an
/// optional SVTA2053-2 `X-AD-CREATIVE-SIGNALING` object (see ``AdCreativeSignaling``).
///
/// Every `URI` is absolute: some players resolve a relative one against the page, not the list.
/// `DURATION` is read from the ad's own playlist (not the ad server's declared duration) and
/// rounded to the millisecond, so it is what the player will play and identical on every request
/// for the same break: players stall when an asset's duration changes between fetches.
///
/// `SKIP-CONTROL` rule. The HLS draft gives an asset list one `SKIP-CONTROL` for the whole list,
/// and players read it two ways: AVPlayer shows one skip button over the interstitial and
/// skipping ends the whole interstitial (every asset left in the list); Shaka gives every asset
/// of the list the same skip offset, counted from that asset's start. Seam writes one only when
/// both readings skip nothing that may not be skipped, and never invents a skip offset:
/// - the list must end in a run of skippable ads: an ad `k` whose own skip offset falls inside it
///   (VAST `skipoffset`, less than its `DURATION`), followed only by ads skippable from their
///   first frame (skip offset 0); `k` is the earliest ad for which that holds;
/// - `OFFSET` is `k`'s start in the list plus its skip offset, `DURATION` and `LABEL-ID` are left
///   out (the button stays for the rest of the break; no custom label).
///
/// So a single skippable ad gets `OFFSET` = its skip offset; a pod `[unskippable 15 s, skippable
/// after 5 s]` gets `OFFSET` 20; a pod whose last ad is not skippable gets none, even when earlier
/// ads are (skipping during them would skip the last ad too). Under Shaka's reading no ad before
/// `k` is ever long enough to reach `OFFSET`, and every ad after `k` may be skipped at once.
public struct AssetList: Sendable, Hashable, Codable {
    public struct Asset: Sendable, Hashable, Codable {
        public var uri: String
        /// Seconds.
        public var duration: Double
        /// SVTA2053-2 signaling of the ad this asset plays (`X-AD-CREATIVE-SIGNALING`).
        public var signaling: AdCreativeSignaling?

        public init(uri: String, duration: Double, signaling: AdCreativeSignaling? = nil) {
            self.uri = uri
            self.duration = duration
            self.signaling = signaling
        }

        enum CodingKeys: String, CodingKey {
            case uri = "URI"
            case duration = "DURATION"
            case signaling = "X-AD-CREATIVE-SIGNALING"
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
    /// through the beacon redirect. An unfilled break gives `empty`. Skip offsets are the ads'
    /// own (`PlannedAd.skipOffset`); `tracking` as in `init(entries:tracking:)`.
    public init(
        break planned: BreakPlan.Break, pod: Int, adPlaylistURL: (_ pod: Int, _ ad: Int) -> String,
        tracking: TrackingMode? = nil
    ) {
        self.init(
            entries: planned.podItems.map { item in
                switch item {
                case .ad(let index):
                    let ad = planned.ads[index]
                    return Entry(
                        uri: adPlaylistURL(pod, index),
                        duration: Self.duration(of: ad.creative, declared: ad.ad.duration),
                        ad: ad.ad, skipOffset: ad.ad.skipOffset)
                case .bumper(let bumper):
                    return .bumper(
                        uri: adPlaylistURL(pod, planned.assetNumber(of: bumper.position)),
                        duration: Self.duration(of: bumper.creative, declared: 0))
                }
            }, tracking: tracking)
    }

    /// Sum of the asset durations, each as written: the break's `DURATION` in the primary playlist.
    public var totalDuration: Double {
        Self.milliseconds(assets.reduce(0) { $0 + $1.duration })
    }

    /// An ad's (or bumper's) duration as the player will play it: its first variant's playlist
    /// (every variant of a creative is cut alike), the declared duration when the creative has none.
    static func duration(of creative: AdCreative, declared: Double) -> Double {
        milliseconds(creative.variants.first?.playlist.duration ?? declared)
    }

    /// Rounded to the millisecond, so float sums of segment durations read the same everywhere.
    static func milliseconds(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return 0 }
        return (seconds * 1000).rounded() / 1000
    }
}

extension AssetList {
    /// One ad of a break as the asset list shows it, whoever planned it: a VOD plan's
    /// `PlannedAd` or a live session's decided ad.
    public struct Entry: Sendable {
        /// Seam's absolute URL of the ad's per-session playlist.
        public var uri: String
        /// Seconds, as the ad's playlist plays; written rounded to the millisecond.
        public var duration: Double
        /// Who the ad is and its beacons, for the creative signaling; nil for a bumper, which is
        /// no ad and gets no signaling.
        public var ad: (any TrackedAd)?
        /// Seconds into the ad after which it may be skipped; nil when it may not.
        public var skipOffset: Double?

        public init(uri: String, duration: Double, ad: any TrackedAd, skipOffset: Double? = nil) {
            self.uri = uri
            self.duration = duration
            self.ad = ad
            self.skipOffset = skipOffset
        }

        private init(bumperURI uri: String, duration: Double) {
            self.uri = uri
            self.duration = duration
            ad = nil
            // Nobody paid for a bumper to be watched: for `SKIP-CONTROL` it may be skipped from
            // its first frame, so it never takes a skip button away from the skippable ads
            // before an end bumper, and never gives one to the ads after a start bumper.
            skipOffset = 0
        }

        /// A bumper (`Bumper`) as an asset: Seam's URL of its per-session playlist.
        public static func bumper(uri: String, duration: Double) -> Entry {
            Entry(bumperURI: uri, duration: duration)
        }
    }

    /// The asset list of `entries`, in play order, with `SKIP-CONTROL` by the type's rule.
    ///
    /// - Parameter tracking: the session's tracking mode. When given, every asset carries its
    ///   SVTA2053-2 signaling, listing the beacons the player fires under that mode (none that
    ///   Seam fires itself); nil writes no signaling.
    public init(entries: [Entry], tracking: TrackingMode? = nil) {
        var assets: [Asset] = []
        var skippable: [(duration: Double, skipOffset: Double?, isBumper: Bool)] = []
        var start = 0.0
        for entry in entries {
            let duration = Self.milliseconds(entry.duration)
            let skipOffset = Self.skipOffset(entry.skipOffset, duration: duration)
            var signaling: AdCreativeSignaling?
            if let tracking, let ad = entry.ad {
                signaling = AdCreativeSignaling.slot(
                    for: ad, start: start, duration: duration, skipOffset: skipOffset, mode: tracking)
            }
            assets.append(Asset(uri: entry.uri, duration: duration, signaling: signaling))
            skippable.append((duration, skipOffset, entry.ad == nil))
            start = Self.milliseconds(start + duration)
        }
        self.init(assets: assets, skipControl: Self.skipControl(skippable))
    }

    /// An ad's skip offset as written, or nil when the ad cannot actually be skipped: none
    /// given, not a finite non-negative number, or not before the ad's end.
    static func skipOffset(_ seconds: Double?, duration: Double) -> Double? {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
        let rounded = milliseconds(seconds)
        return rounded < duration ? rounded : nil
    }

    /// `SKIP-CONTROL` by the type's rule, from each asset's duration and usable skip offset.
    static func skipControl(_ ads: [(duration: Double, skipOffset: Double?, isBumper: Bool)]) -> SkipControl? {
        guard var first = ads.indices.last, ads[first].skipOffset != nil else { return nil }
        // Walk back while the ad at `first` may be skipped at once and the one before it may be skipped at all.
        while first > 0, ads[first].skipOffset == 0, ads[first - 1].skipOffset != nil { first -= 1 }
        // A skip button belongs to a skippable ad: never to a run of bumpers alone.
        while first < ads.count, ads[first].isBumper { first += 1 }
        guard first < ads.count else { return nil }
        guard let offset = ads[first].skipOffset else { return nil }
        let start = ads[..<first].reduce(0) { $0 + $1.duration }
        return SkipControl(offset: milliseconds(start + offset))
    }
}
