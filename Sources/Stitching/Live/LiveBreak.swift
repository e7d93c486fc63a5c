/// One ad break of a live session, from the cue (or schedule) that opened it to its end.
public struct LiveBreak: Sendable, Equatable, Codable {
    public enum Phase: Sendable, Equatable, Codable {
        /// Waiting for the ad decision; the timeline stops before the break until it comes.
        case pending
        /// Ads (and slate) replace content.
        case replacing
        /// Nothing to play: content runs through the break.
        case content
        case ended
    }

    /// Numbers breaks within the session (0, 1, ...): ad segment URLs and beacons use it.
    public var number: Int
    /// The cue's id (or `schedule-<n>`), so a cue repeated on later reloads opens no second break.
    public var signalID: String?
    /// Origin media sequence number of the first content segment the break covers.
    public var startSequence: Int
    /// Seconds to fill from `startSequence`: the planned duration less what had elapsed when
    /// the session joined.
    public var duration: Double
    /// Seconds of the break already over when the session first saw it (joined mid-break).
    public var elapsedAtJoin: Double
    /// Program date-time of the break's first segment, seconds since 1970.
    public var programDateTime: Double?
    public var phase: Phase
    /// The origin returned to content before the break was over (`CUE-IN`). Beside `phase` and
    /// the optional date's flag: one byte each, in one word.
    public var endedEarly = false
    public var layout: LiveBreakLayout?
    /// Seconds of content the break has covered so far.
    public var contentElapsed: Double = 0
    /// Slots of the layout already on the timeline.
    public var slotsPlaced: Int = 0
    /// Seconds on the session's stitched timeline where the break starts.
    public var sessionTime: Double = 0

    /// The session's live pre-roll (`live.prerollMaxSeconds`): decided as a pre-roll, laid out
    /// without slate, signalled `CUE="PRE"` in the interstitials rendering.
    public var isPreroll: Bool { signalID == LiveTimeline.prerollSignalID }

    public init(
        number: Int, signalID: String?, startSequence: Int, duration: Double,
        elapsedAtJoin: Double, programDateTime: Double?
    ) {
        self.number = number
        self.signalID = signalID
        self.startSequence = startSequence
        self.duration = duration
        self.elapsedAtJoin = elapsedAtJoin
        self.programDateTime = programDateTime
        phase = .pending
    }
}
