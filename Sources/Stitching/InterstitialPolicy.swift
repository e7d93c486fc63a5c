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

    public init(restrictSkip: Bool = true, restrictJump: Bool = true, snapOut: Bool = false, snapIn: Bool = false,
                playOnce: Bool = true) {
        self.restrictSkip = restrictSkip
        self.restrictJump = restrictJump
        self.snapOut = snapOut
        self.snapIn = snapIn
        self.playOnce = playOnce
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
