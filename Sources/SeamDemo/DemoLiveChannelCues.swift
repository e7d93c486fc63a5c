import SeamServer
import HLS
import SCTE35

/// The cue tags one segment of the demo live channel carries in one dialect. Each dialect is
/// written pure (no mixing), the way a real packager configured for it would.
struct DemoLiveChannelCues: Sendable {
    let channel: DemoLiveChannel
    let dialect: DemoLiveChannelDialect
    let encoder = SpliceInfoSectionEncoder()

    static let breakTicks = UInt64(DemoLiveChannel.breakDuration) * 90_000

    /// The tag lines to put before segment `k`'s `#EXTINF`.
    func lines(forSegment k: Int) throws(SCTE35Error) -> [String] {
        guard case .cues(let dialect) = dialect else { return [] }
        let duration = DemoLiveChannel.breakDuration
        switch (dialect, DemoLiveChannel.breakPosition(of: k)) {
        case (_, .content):
            return []

        case (.cueOutIn, .start):
            return ["#EXT-X-CUE-OUT:\(duration)"]
        case (.cueOutIn, .inside(_, let elapsed)):
            return ["#EXT-X-CUE-OUT-CONT:ElapsedTime=\(elapsed),Duration=\(duration)"]
        case (.cueOutIn, .end):
            return ["#EXT-X-CUE-IN"]

        case (.oatcls, .start(let id)):
            return ["#EXT-OATCLS-SCTE35:" + (try encoder.base64(Self.spliceOut(id)))]
        case (.oatcls, .end(let id, _)):
            return ["#EXT-OATCLS-SCTE35:" + (try encoder.base64(Self.spliceIn(id)))]

        case (.scte35, .start(let id)):
            return [
                "#EXT-X-SCTE35:CUE=\"\(try encoder.base64(Self.spliceOut(id)))\",ID=\"\(id)\",CUE-OUT=YES,DURATION=\(duration)"
            ]
        case (.scte35, .inside(let id, let elapsed)):
            return [
                "#EXT-X-SCTE35:CUE=\"\(try encoder.base64(Self.spliceOut(id)))\",ID=\"\(id)\",CUE-OUT=CONT,ELAPSED=\(elapsed),DURATION=\(duration)"
            ]
        case (.scte35, .end(let id, _)):
            return ["#EXT-X-SCTE35:CUE=\"\(try encoder.base64(Self.spliceIn(id)))\",ID=\"\(id)\",CUE-IN=YES"]

        case (.splicepoint, .start(let id)):
            let start = SegmentationDescriptor.program(
                eventID: id, type: .providerPlacementOpportunityStart,
                duration: Self.breakTicks)
            return ["#EXT-X-SPLICEPOINT-SCTE35:" + (try encoder.base64(Self.now, descriptors: [.segmentation(start)]))]
        case (.splicepoint, .end(let id, _)):
            let end = SegmentationDescriptor.program(eventID: id, type: .providerPlacementOpportunityEnd)
            return ["#EXT-X-SPLICEPOINT-SCTE35:" + (try encoder.base64(Self.now, descriptors: [.segmentation(end)]))]

        case (.adobe, .start(let id)):
            return ["#EXT-X-CUE:ID=\"\(id)\",TYPE=\"SpliceOut\",DURATION=\(duration),TIME=\(time(ofSegment: k))"]
        case (.adobe, .end(let id, _)):
            return ["#EXT-X-CUE:ID=\"\(id)\",TYPE=\"SpliceIn\",TIME=\(time(ofSegment: k))"]

        case (.dateRange, .start(let id)):
            return ["#EXT-X-DATERANGE:" + (try dateRangeOut(eventID: id, start: k))]
        case (.dateRange, .end(let id, let start)):
            let end = "DURATION=\(duration),SCTE35-IN=\(try encoder.hex(Self.spliceIn(id)))"
            return ["#EXT-X-DATERANGE:" + (try dateRangeOut(eventID: id, start: start)) + "," + end]

        case (.oatcls, .inside), (.splicepoint, .inside), (.adobe, .inside), (.dateRange, .inside):
            // These dialects only mark the edges of a break.
            return []
        }
    }

    /// The attributes the break's date range has from its start; the end repeats them (HLS
    /// requires a repeated ID to keep its attributes) and adds DURATION and SCTE35-IN.
    func dateRangeOut(eventID: UInt32, start: Int) throws(SCTE35Error) -> String {
        "ID=\"break-\(start)\",START-DATE=\"\(channel.programDateTime(of: start).text)\","
            + "PLANNED-DURATION=\(DemoLiveChannel.breakDuration),SCTE35-OUT=\(try encoder.hex(Self.spliceOut(eventID)))"
    }

    /// Adobe `TIME=`: the segment's start in seconds since 1970.
    func time(ofSegment k: Int) -> String { DecimalNumber.format(channel.startTime(of: k)) }

    /// splice_insert out of network, immediate, 24 s break with auto return.
    static func spliceOut(_ id: UInt32) -> SpliceCommand {
        .spliceInsert(.programOut(eventID: id, breakDuration: breakTicks, autoReturn: true))
    }

    static func spliceIn(_ id: UInt32) -> SpliceCommand { .spliceInsert(.programIn(eventID: id)) }

    /// An immediate time_signal: the cue sits on the segment it applies to.
    static let now = SpliceCommand.timeSignal(SpliceTime(ptsTime: nil))
}
