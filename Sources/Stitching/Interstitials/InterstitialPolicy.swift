/// How a session lets viewers move through its interstitial breaks, as the player is told in each
/// break's date range. A value chosen per session (the server maps its configured ad playback
/// policy into it); the renderer only spells it.
public struct InterstitialPolicy: Sendable, Hashable, Codable {
    /// `X-RESTRICT` `SKIP`: the viewer cannot skip or speed through the break while it plays.
    public var restrictSkip: Bool
    /// `X-RESTRICT` `JUMP`: seeking past the break plays it first.
    public var restrictJump: Bool
    /// `X-SNAP` `OUT`: the player leaves the content at the segment boundary nearest the break.
    public var snapOut: Bool
    /// `X-SNAP` `IN`: the player resumes the content at the segment boundary nearest the resume point.
    public var snapIn: Bool
    /// `CUE="ONCE"`: a break already played is not played again when the viewer seeks back over it.
    public var playOnce: Bool
    /// VOD `X-RESUME-OFFSET`: seconds of content after the break's start where the content
    /// resumes. 0 (the default) for inserted ads: a VOD ad replaces no content. Live breaks never
    /// carry one: the viewer resumes at the live point.
    public var resumeOffset: Double
    /// `X-PLAYOUT-LIMIT` cap in seconds: a break plays no longer. Live breaks are always limited
    /// to their own duration; this lowers the limit further.
    public var playoutLimit: Double?

    public init(
        restrictSkip: Bool = true, restrictJump: Bool = true, snapOut: Bool = false, snapIn: Bool = false,
        playOnce: Bool = true, resumeOffset: Double = 0, playoutLimit: Double? = nil
    ) {
        self.restrictSkip = restrictSkip
        self.restrictJump = restrictJump
        self.snapOut = snapOut
        self.snapIn = snapIn
        self.playOnce = playOnce
        self.resumeOffset = resumeOffset
        self.playoutLimit = playoutLimit
    }

    /// The `X-RESTRICT` values in the spec's order, empty when nothing is restricted.
    public var restrictValues: [String] {
        (restrictSkip ? ["SKIP"] : []) + (restrictJump ? ["JUMP"] : [])
    }

    /// The `X-SNAP` values in the spec's order, empty when the player need not snap.
    public var snapValues: [String] {
        (snapOut ? ["OUT"] : []) + (snapIn ? ["IN"] : [])
    }
}
