/// Breaks at fixed times, for channels whose streams carry no cues: every `every` seconds of
/// stream time, starting `offset` seconds into each period, lasting `duration` seconds.
/// Stream time is the program date-time when the origin gives one, else media sequence number
/// × target duration, so every session of a channel sees the same breaks.
public struct BreakSchedule: Sendable, Hashable, Codable {
    public var every: Double
    public var offset: Double
    public var duration: Double

    public init(every: Double, offset: Double, duration: Double) {
        self.every = every
        self.offset = offset
        self.duration = duration
    }

    /// The scheduled break that a segment spanning `start..<start+length` begins, as
    /// (period number, seconds of the break already over at `start`), or nil.
    /// With `joining`, a segment inside a break (not only at its start) counts too.
    func breakStarting(at start: Double, length: Double, joining: Bool) -> (period: Int, elapsed: Double)? {
        guard every > 0, duration > 0 else { return nil }
        let period = ((start - offset) / every).rounded(.down)
        // Stream time comes from the origin (date-time or sequence × target duration): a period
        // number no real schedule reaches means no break, not a trapping conversion.
        guard period.isFinite, period.magnitude < 1e15 else { return nil }
        let breakStart = offset + period * every
        let next = breakStart + every
        if next < start + length - 0.001, next >= start - 0.001 { return (Int(period) + 1, 0) }
        let elapsed = start - breakStart
        if elapsed < 0.001 { return (Int(period), 0) }
        if joining, elapsed < duration - 1 { return (Int(period), elapsed) }
        return nil
    }
}
