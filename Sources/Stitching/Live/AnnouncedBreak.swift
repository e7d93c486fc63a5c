/// A break announced on a channel while it runs (the break API), for a stream that carries no
/// usable cue for it: it opens at the first segment starting at (or half a second before) its
/// start, on the stream's program date-time clock, and lasts `duration` seconds from there,
/// stitched as a cued break is (a start inside a segment moves to the next boundary). A session
/// joining after that boundary gets the rest of it. A stream without
/// `EXT-X-PROGRAM-DATE-TIME` has no clock to place it on: it is not opened there.
public struct AnnouncedBreak: Sendable, Hashable, Codable {
    /// Unique on its channel; the timeline's signal id is `announced-<id>`.
    public var id: String
    /// Program date-time of its start, seconds since 1970.
    public var start: Double
    public var duration: Double

    public init(id: String, start: Double, duration: Double) {
        self.id = id
        self.start = start
        self.duration = duration
    }

    /// The signal id of the break it opens on a timeline.
    public var signalID: String { Self.signalPrefix + id }

    public static let signalPrefix = "announced-"

    /// How long after its start a segment still opens the break, as (seconds already over), or
    /// nil: a segment starting at `time` (program date-time) before the start (by more than half
    /// a second) or within the last second of the break opens nothing.
    func elapsed(atSegmentStarting time: Double) -> Double? {
        let lateness = time - start
        guard lateness >= -0.5, lateness < duration - 1 else { return nil }
        return max(0, lateness)
    }
}
