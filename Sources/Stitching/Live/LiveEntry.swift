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

    // Four words, 32 bytes (every live session holds a few dozen entries: the largest part of
    // its heap). A content entry's origin sequence number is its anchor (the timeline makes
    // them so), so only a break slot needs a word of its own; the discontinuity flag is the
    // duration's sign bit (a duration is never negative).
    /// The origin media sequence number of the content segment during which this entry starts:
    /// a rendition's window shows the entries anchored inside it, so windows of different
    /// renditions line up however their fetches are timed.
    public private(set) var anchor: Int
    /// `contentMark` for a content entry; else the break number's bits above the slot's.
    private var slotBits: UInt64
    /// The duration, negated when the entry starts a discontinuity (-0.0 for an empty one).
    private var signedDuration: Double
    /// Seconds since 1970 (NaN when the origin gives no program date-times).
    private var clock: Double

    private static let contentMark = UInt64.max

    public var source: Source {
        guard slotBits != Self.contentMark else { return .content(anchor) }
        return .breakSlot(
            breakNumber: Int32(bitPattern: UInt32(truncatingIfNeeded: slotBits >> 32)),
            slot: Int32(bitPattern: UInt32(truncatingIfNeeded: slotBits)))
    }

    public var duration: Double { signedDuration.magnitude }

    public var discontinuity: Bool {
        get { signedDuration.sign == .minus }
        set { signedDuration = newValue ? -duration : duration }
    }

    public var programDateTime: Double? { clock.isNaN ? nil : clock }

    /// A content entry's `anchor` is its sequence number (`LiveTimeline` makes every content
    /// entry so; a record that says otherwise is refused when read).
    public init(source: Source, anchor: Int, duration: Double, discontinuity: Bool, programDateTime: Double? = nil) {
        switch source {
        case .content(let sequence):
            assert(sequence == anchor, "a content entry is anchored at its own segment")
            self.anchor = sequence
            slotBits = Self.contentMark
        case .breakSlot(let breakNumber, let slot):
            self.anchor = anchor
            slotBits = UInt64(UInt32(bitPattern: breakNumber)) << 32 | UInt64(UInt32(bitPattern: slot))
        }
        let magnitude = duration.magnitude
        signedDuration = discontinuity ? -magnitude : magnitude
        clock = programDateTime ?? .nan
    }

    /// Whether an entry read from a record is one the timeline could have made: a content entry
    /// anchored at its own segment, a break slot with numbers from 0.
    static func isConsistent(_ source: Source, anchor: Int) -> Bool {
        switch source {
        case .content(let sequence): sequence == anchor
        // Numbers the timeline gives from 0 (and a negative pair would read back as content).
        case .breakSlot(let breakNumber, let slot): breakNumber >= 0 && slot >= 0
        }
    }

    private enum CodingKeys: String, CodingKey {
        case source, anchor, duration, discontinuity, programDateTime
    }

    /// Written with `programDateTime` (absent when there is none): JSON has no NaN.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let source = try container.decode(Source.self, forKey: .source)
        let anchor = try container.decode(Int.self, forKey: .anchor)
        guard Self.isConsistent(source, anchor: anchor) else {
            throw DecodingError.dataCorruptedError(
                forKey: .anchor, in: container, debugDescription: "a content entry is anchored at another segment")
        }
        self.init(
            source: source,
            anchor: anchor,
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
