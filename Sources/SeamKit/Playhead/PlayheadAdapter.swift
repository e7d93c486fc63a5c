/// Where the player is. SeamKit reads it on each sample; an adapter wraps one kind of player
/// (`AVPlayerPlayhead`, a web `<video>` fed through `ManualPlayhead`, a simulated clock).
public protocol PlayheadAdapter: Sendable {
    /// Seconds on the stream's timeline (stitched VOD: the stitched title; live: the session).
    var currentTime: Double { get }
    /// The title's length, or `.infinite` for live: what decides whether breaks are found by
    /// time or on the live timeline.
    var duration: PlayheadDuration { get }
    /// 0...1; ad verification and viewability report it.
    var volume: Float { get }
    var isPlaying: Bool { get }
    /// The program date-time at the playhead, in seconds since 1970, when the stream carries
    /// `EXT-X-PROGRAM-DATE-TIME` and the player maps it (live).
    var currentDate: Double? { get }
    /// Moves the player to `seconds` on the stream's timeline and returns once it is there:
    /// how SeamKit applies the ad playback policy (a seek that owes a break, a watched break
    /// jumped, `skipAd()`).
    func seek(to seconds: Double) async
}

extension PlayheadAdapter {
    public var currentDate: Double? { nil }
}

/// A title's length: known (VOD) or unbounded (live).
public enum PlayheadDuration: Sendable, Equatable {
    case finite(Double)
    case infinite

    /// Live streams report no end; `Double.infinity`, NaN or a negative length all mean that.
    public init(seconds: Double) {
        self = seconds.isFinite && seconds >= 0 ? .finite(seconds) : .infinite
    }

    public var isLive: Bool { self == .infinite }
}
