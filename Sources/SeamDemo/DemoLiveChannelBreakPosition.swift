/// Where one segment of the demo live channel stands in its ad schedule, which is all a cue
/// dialect needs to know to mark it.
package enum DemoLiveChannelBreakPosition: Sendable, Hashable {
    /// Plain content, no cue.
    case content
    /// The first segment of a break.
    case start(eventID: UInt32)
    /// A later segment of the break, `elapsed` seconds after its start.
    case inside(eventID: UInt32, elapsed: Int)
    /// The first content segment after the break that started on segment `startSegment`.
    case end(eventID: UInt32, startSegment: Int)
}
