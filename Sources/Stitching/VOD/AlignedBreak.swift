/// Where one break is spliced into every rendition of a title: one entry per rendition, in
/// the order the renditions were given to `BreakAligner`.
public struct AlignedBreak: Sendable, Hashable {
    /// Per rendition, the index of the content segment the pod is inserted before.
    public var segmentIndices: [Int]
    /// Per rendition, the content time (seconds) of that boundary.
    public var contentTimes: [Double]
    /// The largest distance in seconds between two renditions' splice points: how far audio,
    /// video and subtitles drift apart across the break (the tracking document reports it).
    public var worstOffset: Double

    public init(segmentIndices: [Int], contentTimes: [Double]) {
        self.segmentIndices = segmentIndices
        self.contentTimes = contentTimes
        worstOffset = (contentTimes.max() ?? 0) - (contentTimes.min() ?? 0)
    }

    /// The content time of the first (reference) rendition: where the tracking timeline puts the break.
    public var referenceTime: Double { contentTimes.first ?? 0 }
}
