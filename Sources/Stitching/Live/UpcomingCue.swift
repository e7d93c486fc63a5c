/// A cue date range whose `START-DATE` lies beyond the segment that carried it: the origin
/// announced a splice ahead of its time (a packager writing the SCTE-35 `splice_insert` it
/// received with pre-roll as `EXT-X-DATERANGE` at once, with the splice point's date). The
/// timeline keeps it until a segment reaches its start and opens the break there; meanwhile the
/// session machine can decide it ahead (`live.prefetchSeconds`).
public struct UpcomingCue: Sendable, Hashable, Codable {
    /// The date range's `ID` (the break's signal id).
    public var signalID: String
    /// Program date-time of the splice point, seconds since 1970.
    public var start: Double
    /// Planned break length in seconds.
    public var duration: Double

    public init(signalID: String, start: Double, duration: Double) {
        self.signalID = signalID
        self.start = start
        self.duration = duration
    }

    /// At most this many are kept (an origin announcing more breaks ahead than this is
    /// announcing a schedule; the oldest are forgotten and open where their tag sits).
    static let limit = 8

    /// Whether the break starts within the segment `[time, time + length)` (half a second of
    /// slack at its end, so a start on the next boundary opens at the next segment), as
    /// (seconds already over when the segment starts), or nil.
    func elapsed(atSegmentStarting time: Double, length: Double) -> Double? {
        guard start < time + length - 0.5 else { return nil }
        return max(0, time - start)
    }

    /// Whether the break is wholly behind a segment starting at `time` (a gap skipped it).
    func isPast(atSegmentStarting time: Double) -> Bool {
        time >= start + duration - 1
    }
}
