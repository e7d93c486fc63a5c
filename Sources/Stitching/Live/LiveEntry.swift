import HLS

/// One segment of a live session's stitched timeline. Its position in `LiveTimeline.entries`
/// gives its media sequence number, which never changes once the entry exists.
public struct LiveEntry: Sendable, Equatable {
    public enum Source: Sendable, Hashable {
        /// The content segment with this origin media sequence number.
        case content(Int)
        /// Slot `slot` of break `breakNumber`'s layout.
        case breakSlot(breakNumber: Int32, slot: Int32)
    }

    public var source: Source
    /// The origin media sequence number of the content segment during which this entry starts:
    /// a rendition's window shows the entries anchored inside it, so windows of different
    /// renditions line up however their fetches are timed.
    public var anchor: Int
    public var duration: Double
    public var discontinuity: Bool
    /// Seconds since 1970, when the origin gives program date-times.
    public var programDateTime: Double?
    /// Date ranges of the reference rendition's segment (content entries only): every
    /// rendition shows the same set.
    public var dateRanges: [DateRange]

    public init(source: Source, anchor: Int, duration: Double, discontinuity: Bool,
                programDateTime: Double? = nil, dateRanges: [DateRange] = []) {
        self.source = source
        self.anchor = anchor
        self.duration = duration
        self.discontinuity = discontinuity
        self.programDateTime = programDateTime
        self.dateRanges = dateRanges
    }
}
