/// One segment of a live session's stitched timeline. Its position in `LiveTimeline.entries`
/// gives its media sequence number, which never changes once the entry exists.
///
/// Kept small (a session holds a few dozen): date ranges live in `LiveTimeline.dateRanges`.
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
    /// Seconds since 1970 (NaN when the origin gives no program date-times).
    private var clock: Double
    public var discontinuity: Bool

    public var programDateTime: Double? { clock.isNaN ? nil : clock }

    public init(source: Source, anchor: Int, duration: Double, discontinuity: Bool, programDateTime: Double? = nil) {
        self.source = source
        self.anchor = anchor
        self.duration = duration
        self.discontinuity = discontinuity
        clock = programDateTime ?? .nan
    }

    public static func == (a: LiveEntry, b: LiveEntry) -> Bool {
        a.source == b.source && a.anchor == b.anchor && a.duration == b.duration
            && a.discontinuity == b.discontinuity && a.programDateTime == b.programDateTime
    }
}
