/// What a player may do during ads, as HLS Interstitials carries it: `restrict` → `X-RESTRICT`
/// (`SKIP`, `JUMP`), `snap` → `X-SNAP` (`IN`, `OUT`), `resumeOffset` → `X-RESUME-OFFSET` and
/// `playoutLimit` → `X-PLAYOUT-LIMIT`, both in seconds, `repeat` → `CUE="ONCE"` (`once`) or none
/// (`everyTime`). Absent fields keep Seam's defaults (docs/interstitials.md). The server decodes
/// it strictly (an unknown field or value is `400`), so a typo cannot quietly drop a restriction
/// the publisher relies on.
public struct AdPolicy: Sendable, Codable, Equatable {
    public enum Restriction: String, Sendable, Codable, CaseIterable {
        /// The player may not skip (seek forward within) the ad.
        case skip
        /// The player may not jump past the ad by seeking over it.
        case jump
    }

    public enum Snap: String, Sendable, Codable, CaseIterable {
        /// `X-SNAP` `IN`: the player may move the point where the content resumes after the
        /// break to the nearest segment boundary.
        case `in`
        /// `X-SNAP` `OUT`: the player may move the break's start to the nearest segment boundary.
        case out
    }

    /// Whether a break already played plays again when the viewer seeks back over it.
    public enum Repeat: String, Sendable, Codable, CaseIterable {
        case once, everyTime
    }

    /// `X-RESTRICT`: what the player may not do during the ad.
    public var restrict: [Restriction]?
    /// `X-SNAP`.
    public var snap: [Snap]?
    /// `X-RESUME-OFFSET`: seconds of content after the break's start where the primary resumes
    /// (0 or more; 0: live-like join).
    public var resumeOffset: Double?
    /// `X-PLAYOUT-LIMIT`: most seconds the break may play (more than 0).
    public var playoutLimit: Double?
    /// `once` (`CUE="ONCE"`) or `everyTime`. Last, so it sits in the tail padding: live sessions
    /// keep their request, thousands at once.
    public var `repeat`: Repeat?

    public init(
        restrict: [Restriction]? = nil, snap: [Snap]? = nil, resumeOffset: Double? = nil, playoutLimit: Double? = nil,
        repeat: Repeat? = nil
    ) {
        self.repeat = `repeat`
        self.restrict = restrict
        self.snap = snap
        self.resumeOffset = resumeOffset
        self.playoutLimit = playoutLimit
    }
}
