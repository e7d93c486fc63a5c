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

    // Three words, 24 bytes (every live session holds a few dozen entries: the largest part of
    // its heap). A content entry's origin sequence number is its anchor (the timeline makes
    // them so); the discontinuity flag is the duration's sign bit (a duration is never
    // negative); the third word is a content entry's program date-time or a break slot's
    // numbers, never both: a slot's date is its break's plus where the slot starts in the
    // layout (`LiveTimeline.programDateTime(of:)`), so it is worked out, not kept.
    /// The origin media sequence number of the content segment during which this entry starts:
    /// a rendition's window shows the entries anchored inside it, so windows of different
    /// renditions line up however their fetches are timed.
    public private(set) var anchor: Int
    /// The duration, negated when the entry starts a discontinuity (-0.0 for an empty one).
    private var signedDuration: Double
    /// A content entry: its program date-time's bits, seconds since 1970 (NaN's when the origin
    /// gives none). A break slot: `slotMark` with the break number above `slotWidth` bits of slot.
    private var word: UInt64

    /// The top bits of a negative quiet NaN with one more bit set: no date is stored with them
    /// (finite dates have other exponent bits; a missing one is stored as the positive NaN).
    private static let slotMark: UInt64 = 0xFFFC_0000_0000_0000
    private static let slotWidth: UInt64 = 18
    /// The highest slot number an entry holds (a layout holds at most `LiveBreakLayout.maxSlots`
    /// of ads and slate, and two bumpers).
    public static let maxSlot = Int32((1 << 18) - 1)

    public var source: Source {
        guard word & Self.slotMark == Self.slotMark else { return .content(anchor) }
        let numbers = word & ~Self.slotMark
        return .breakSlot(
            breakNumber: Int32(truncatingIfNeeded: numbers >> Self.slotWidth),
            slot: Int32(truncatingIfNeeded: numbers & ((1 << Self.slotWidth) - 1)))
    }

    public var duration: Double { signedDuration.magnitude }

    public var discontinuity: Bool {
        get { signedDuration.sign == .minus }
        set { signedDuration = newValue ? -duration : duration }
    }

    /// A content entry's program date-time; nil for a break slot, whose date the timeline works
    /// out from its break (`LiveTimeline.programDateTime(of:)`).
    var contentProgramDateTime: Double? {
        guard word & Self.slotMark != Self.slotMark else { return nil }
        let clock = Double(bitPattern: word)
        return clock.isNaN ? nil : clock
    }

    /// A content entry's `anchor` is its sequence number (`LiveTimeline` makes every content
    /// entry so; a record that says otherwise is refused when read). A break slot's numbers are
    /// from 0, its slot at most `maxSlot`.
    /// - Parameter programDateTime: a content segment's date; a break slot's is not kept (its
    ///   break gives it).
    public init(source: Source, anchor: Int, duration: Double, discontinuity: Bool, programDateTime: Double? = nil) {
        switch source {
        case .content(let sequence):
            assert(sequence == anchor, "a content entry is anchored at its own segment")
            self.anchor = sequence
            let clock = programDateTime ?? .nan
            word = clock.isNaN ? Double.nan.bitPattern : clock.bitPattern
        case .breakSlot(let breakNumber, let slot):
            precondition(breakNumber >= 0 && slot >= 0 && slot <= Self.maxSlot, "a break slot's numbers are in range")
            self.anchor = anchor
            word = Self.slotMark | UInt64(breakNumber) << Self.slotWidth | UInt64(slot)
        }
        let magnitude = duration.magnitude
        signedDuration = discontinuity ? -magnitude : magnitude
    }

    /// Whether an entry read from a record is one the timeline could have made: a content entry
    /// anchored at its own segment, a break slot with numbers from 0.
    static func isConsistent(_ source: Source, anchor: Int) -> Bool {
        switch source {
        case .content(let sequence): sequence == anchor
        // Numbers the timeline gives from 0, a slot within what an entry holds.
        case .breakSlot(let breakNumber, let slot): breakNumber >= 0 && slot >= 0 && slot <= maxSlot
        }
    }

    private enum CodingKeys: String, CodingKey {
        case source, anchor, duration, discontinuity, programDateTime
    }

    /// Written with `programDateTime` (absent when there is none: JSON has no NaN; a break
    /// slot's is its break's, not written here). A slot's date read from a record written before
    /// is not kept: its break gives it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let source = try container.decode(Source.self, forKey: .source)
        let anchor = try container.decode(Int.self, forKey: .anchor)
        guard Self.isConsistent(source, anchor: anchor) else {
            throw DecodingError.dataCorruptedError(
                forKey: .anchor, in: container,
                debugDescription: "a content entry anchored at another segment, or a break slot's numbers out of range")
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
        try container.encodeIfPresent(contentProgramDateTime, forKey: .programDateTime)
    }

    public static func == (a: LiveEntry, b: LiveEntry) -> Bool {
        a.source == b.source && a.anchor == b.anchor && a.duration == b.duration
            && a.discontinuity == b.discontinuity && a.contentProgramDateTime == b.contentProgramDateTime
    }
}
