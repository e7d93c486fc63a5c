/// A short clip a filled break plays before its first ad or after its last (`ads.bumpers.*`):
/// a station ident or a "back after these messages" card. A bumper is not an ad: it fires no
/// beacon, raises no ad event, is not fill, and no ad server chose it; the renderings play it
/// like an ad (its own encoding, a discontinuity around it) and the tracking JSON lists it apart
/// (`bumpers`), inside the break's duration.
public struct Bumper: Sendable {
    public enum Position: String, Sendable, Codable, CodingKeyRepresentable, Hashable, CaseIterable {
        /// Before the break's first ad.
        case start
        /// After the break's last ad (and, live, after the slate: the last thing before content).
        case end
    }

    public var position: Position
    /// The clip as loaded (HLS, or an MP4 conditioned for the content); `creative.url` is what plays.
    public var creative: AdCreative
    /// The clip as configured, for the tracking JSON.
    public var configuredURL: String

    /// The number a bumper's interstitial asset is addressed by (`AdAssetAddress.ad`) in a break
    /// of `adCount` ads: after the ads' own numbers, so an ad keeps its number (and its beacons)
    /// with or without bumpers.
    public static func assetNumber(_ position: Position, adCount: Int) -> Int {
        adCount + (position == .start ? 0 : 1)
    }

    public init(position: Position, creative: AdCreative, configuredURL: String) {
        self.position = position
        self.creative = creative
        self.configuredURL = configuredURL
    }
}

extension BreakPlan.Break {
    /// One thing a filled break plays, in play order.
    public enum PodItem: Sendable {
        /// Ad `index` of `ads`.
        case ad(Int)
        case bumper(Bumper)
    }

    /// What the break plays, in order: its start bumper, its ads, its end bumper. The stitched
    /// rendering splices these and the interstitials rendering lists them as assets; a break
    /// without ads plays none of them (bumpers frame ads, they never stand alone).
    public var podItems: [PodItem] {
        guard isFilled else { return [] }
        var items: [PodItem] = bumpers.filter { $0.position == .start }.map { .bumper($0) }
        items += ads.indices.map { .ad($0) }
        items += bumpers.filter { $0.position == .end }.map { .bumper($0) }
        return items
    }

    /// Where ad `index` plays in `podItems`.
    public func podItemIndex(ofAd index: Int) -> Int {
        index + bumpers.count { $0.position == .start }
    }

    /// The number the bumper at `position` is addressed by as an interstitial asset (`Bumper.assetNumber`).
    public func assetNumber(of position: Bumper.Position) -> Int {
        Bumper.assetNumber(position, adCount: ads.count)
    }
}
