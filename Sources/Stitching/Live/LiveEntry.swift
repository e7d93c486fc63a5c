/// One segment of a live session's stitched timeline. Its position in `LiveTimeline.entries`
/// gives its media sequence number, which never changes once the entry exists.
///
/// Kept small (a session holds a few dozen): date ranges live in `LiveTimeline.dateRanges`.
public struct LiveEntry: Sendable, Equatable, Codable {
    public enum Source: Sendable, Hashable, Codable {
        /// The content segment with this origin media sequence number.
        case content(Int)
        /// Slot `slot` of break `breakNumber`'s layout.
        case breakSlot(breakNumber: Int32, slot: Int32)
    }

    // Stored in this order on purpose: the flag fills the byte after `source`'s tag, so an entry
    // takes 40 bytes instead of 48 (every live session holds a few dozen).
    public var source: Source
    public var discontinuity: Bool
    /// The origin media sequence number of the content segment during which this entry starts:
    /// a rendition's window shows the entries anchored inside it, so windows of different
    /// renditions line up however their fetches are timed.
    public var anchor: Int
    public var duration: Double
    /// Seconds since 1970 (NaN when the origin gives no program date-times).
    private var clock: Double

    public var programDateTime: Double? { clock.isNaN ? nil : clock }

    public init(source: Source, anchor: Int, duration: Double, discontinuity: Bool, programDateTime: Double? = nil) {
        self.source = source
        self.anchor = anchor
        self.duration = duration
        self.discontinuity = discontinuity
        clock = programDateTime ?? .nan
    }

    private enum CodingKeys: String, CodingKey {
        case source, anchor, duration, discontinuity, programDateTime
    }

    /// Written with `programDateTime` (absent when there is none): JSON has no NaN.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            source: try container.decode(Source.self, forKey: .source),
            anchor: try container.decode(Int.self, forKey: .anchor),
            duration: try container.decode(Double.self, forKey: .duration),
            discontinuity: try container.decode(Bool.self, forKey: .discontinuity),
            programDateTime: try container.decodeIfPresent(Double.self, forKey: .programDateTime))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(anchor, forKey: .anchor)
        try container.encode(duration, forKey: .duration)
        try container.encode(discontinuity, forKey: .discontinuity)
        try container.encodeIfPresent(programDateTime, forKey: .programDateTime)
    }

    public static func == (a: LiveEntry, b: LiveEntry) -> Bool {
        a.source == b.source && a.anchor == b.anchor && a.duration == b.duration
            && a.discontinuity == b.discontinuity && a.programDateTime == b.programDateTime
    }
}
