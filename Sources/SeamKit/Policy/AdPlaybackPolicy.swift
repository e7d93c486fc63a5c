/// What the viewer may do around ads, as the SSAI SDKs let an app choose it (IMA DAI's
/// snapback, SmartLib's ad policy). SeamKit enforces it on the stitched VOD timeline, where ads
/// are part of the stream and only the app can keep a seek from jumping them; the parts HLS
/// Interstitials can carry are also sent to Seam (`serverPolicy`).
public struct AdPlaybackPolicy: Sendable, Equatable {
    /// A forward seek over breaks the viewer has not watched.
    public enum FastForward: String, Sendable, CaseIterable {
        /// Play the last ad of the last break jumped over, then go on to where the viewer seeked.
        case playLastAd
        /// Play every break jumped over, in order, then go on to where the viewer seeked.
        case playAll
        /// Go where the viewer seeked; a landing inside a break goes to its end.
        case skipAll
    }

    /// A backward seek over breaks the viewer has watched: when playback reaches them again.
    public enum Rewind: String, Sendable, CaseIterable {
        case skipAll
        case playAll
    }

    /// The app comes back (from the background, a call) while an ad was playing.
    public enum Interrupt: String, Sendable, CaseIterable {
        case resumeAd
        case restartAd
        case skipAd
    }

    /// Playback starts at a saved position past the pre-roll (resume watching).
    public enum StartPastPreroll: String, Sendable, CaseIterable {
        /// Play the pre-roll, then go to the position.
        case playPreroll
        /// Go straight to the position.
        case skipPreroll
    }

    /// A break the viewer watched and reaches again.
    public enum Repeat: String, Sendable, CaseIterable {
        /// Each break plays once per session: watched breaks are skipped.
        case oncePerSession
        /// Watched breaks play again, unless `rewind` is `skipAll` and a rewind passed over them.
        case everyTime
    }

    public var fastForward: FastForward
    public var rewind: Rewind
    public var interrupt: Interrupt
    public var startPastPreroll: StartPastPreroll
    public var `repeat`: Repeat

    public init(
        fastForward: FastForward = .playLastAd, rewind: Rewind = .skipAll, interrupt: Interrupt = .resumeAd,
        startPastPreroll: StartPastPreroll = .playPreroll, repeat: Repeat = .oncePerSession
    ) {
        self.fastForward = fastForward
        self.rewind = rewind
        self.interrupt = interrupt
        self.startPastPreroll = startPastPreroll
        self.repeat = `repeat`
    }

    /// The part of the policy HLS Interstitials carries, for `SessionOptions.policy` when the app
    /// sets none: `X-RESTRICT="SKIP"` always (as Seam's own default: skippable ads say when in
    /// their asset list's `SKIP-CONTROL`), plus `"JUMP"` when a fast-forward plays breaks (the
    /// player may not seek past an interstitial); `oncePerSession` is `CUE="ONCE"`.
    public var serverPolicy: SessionOptions.Policy {
        SessionOptions.Policy(
            restrict: fastForward == .skipAll ? [.skip] : [.skip, .jump],
            repeat: `repeat` == .oncePerSession ? .once : .everyTime)
    }
}
