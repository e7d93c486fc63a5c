/// 90 kHz clock helpers.
public enum Clock90k {
    public static let ticksPerSecond: Double = 90_000
    /// Ticks of the 90 kHz clock in seconds.
    public static func seconds(_ ticks: UInt64) -> Double { Double(ticks) / ticksPerSecond }
}

/// `splice_time()`: a PTS when `time_specified_flag` is set, otherwise "immediate/unspecified".
public struct SpliceTime: Sendable, Hashable {
    /// 33-bit PTS in 90 kHz ticks, nil when `time_specified_flag` is 0.
    public var ptsTime: UInt64?

    public init(ptsTime: UInt64?) { self.ptsTime = ptsTime }

    public var timeSpecified: Bool { ptsTime != nil }
    /// The PTS in seconds (without `pts_adjustment`).
    public var seconds: Double? { ptsTime.map(Clock90k.seconds) }

    static func read(_ r: inout BitReader) throws(SCTE35Error) -> SpliceTime {
        let specified = try r.flag("time_specified_flag")
        if specified {
            try r.skip(6, "splice_time reserved")
            return SpliceTime(ptsTime: try r.bits(33, "pts_time"))
        }
        try r.skip(7, "splice_time reserved")
        return SpliceTime(ptsTime: nil)
    }
}

/// `break_duration()`.
public struct BreakDuration: Sendable, Hashable {
    public var autoReturn: Bool
    /// 33-bit duration in 90 kHz ticks.
    public var duration: UInt64

    public init(autoReturn: Bool, duration: UInt64) {
        self.autoReturn = autoReturn
        self.duration = duration
    }

    public var seconds: Double { Clock90k.seconds(duration) }

    static func read(_ r: inout BitReader) throws(SCTE35Error) -> BreakDuration {
        let autoReturn = try r.flag("auto_return")
        try r.skip(6, "break_duration reserved")
        return BreakDuration(autoReturn: autoReturn, duration: try r.bits(33, "duration"))
    }
}

/// `splice_insert()` (command type 0x05).
public struct SpliceInsert: Sendable, Hashable {
    public struct Component: Sendable, Hashable {
        public var componentTag: UInt8
        /// nil when `splice_immediate_flag` is set.
        public var spliceTime: SpliceTime?
    }

    public var spliceEventID: UInt32
    public var spliceEventCancelIndicator: Bool
    /// The fields below are meaningful only when the event is not cancelled.
    public var outOfNetworkIndicator: Bool = false
    public var programSpliceFlag: Bool = false
    public var durationFlag: Bool = false
    public var spliceImmediateFlag: Bool = false
    /// `event_id_compliance_flag` (SCTE 35 2020+; a reserved bit, normally 1, in older versions).
    public var eventIDComplianceFlag: Bool = false
    /// Present when `program_splice_flag` is 1 and `splice_immediate_flag` is 0.
    public var spliceTime: SpliceTime?
    /// Present when `program_splice_flag` is 0.
    public var components: [Component] = []
    public var breakDuration: BreakDuration?
    public var uniqueProgramID: UInt16 = 0
    public var availNum: UInt8 = 0
    public var availsExpected: UInt8 = 0

    public init(spliceEventID: UInt32, spliceEventCancelIndicator: Bool) {
        self.spliceEventID = spliceEventID
        self.spliceEventCancelIndicator = spliceEventCancelIndicator
    }

    static func read(_ r: inout BitReader) throws(SCTE35Error) -> SpliceInsert {
        var insert = SpliceInsert(
            spliceEventID: try r.uint32("splice_event_id"),
            spliceEventCancelIndicator: try r.flag("splice_event_cancel_indicator"))
        try r.skip(7, "splice_insert reserved")
        guard !insert.spliceEventCancelIndicator else { return insert }
        insert.outOfNetworkIndicator = try r.flag("out_of_network_indicator")
        insert.programSpliceFlag = try r.flag("program_splice_flag")
        insert.durationFlag = try r.flag("duration_flag")
        insert.spliceImmediateFlag = try r.flag("splice_immediate_flag")
        insert.eventIDComplianceFlag = try r.flag("event_id_compliance_flag")
        try r.skip(3, "splice_insert reserved")
        if insert.programSpliceFlag {
            if !insert.spliceImmediateFlag { insert.spliceTime = try SpliceTime.read(&r) }
        } else {
            let count = Int(try r.uint8("component_count"))
            for _ in 0..<count {
                let tag = try r.uint8("component_tag")
                let time = insert.spliceImmediateFlag ? nil : try SpliceTime.read(&r)
                insert.components.append(Component(componentTag: tag, spliceTime: time))
            }
        }
        if insert.durationFlag { insert.breakDuration = try BreakDuration.read(&r) }
        insert.uniqueProgramID = try r.uint16("unique_program_id")
        insert.availNum = try r.uint8("avail_num")
        insert.availsExpected = try r.uint8("avails_expected")
        return insert
    }
}

/// `splice_schedule()` (command type 0x04).
public struct SpliceSchedule: Sendable, Hashable {
    public struct Event: Sendable, Hashable {
        public struct Component: Sendable, Hashable {
            public var componentTag: UInt8
            public var utcSpliceTime: UInt32
        }
        public var spliceEventID: UInt32
        public var spliceEventCancelIndicator: Bool
        public var eventIDComplianceFlag: Bool = false
        public var outOfNetworkIndicator: Bool = false
        public var programSpliceFlag: Bool = false
        public var durationFlag: Bool = false
        /// Seconds since 1980-01-06 00:00 UTC (GPS epoch), when `program_splice_flag` is 1.
        public var utcSpliceTime: UInt32?
        public var components: [Component] = []
        public var breakDuration: BreakDuration?
        public var uniqueProgramID: UInt16 = 0
        public var availNum: UInt8 = 0
        public var availsExpected: UInt8 = 0
    }

    public var events: [Event]

    static func read(_ r: inout BitReader) throws(SCTE35Error) -> SpliceSchedule {
        let count = Int(try r.uint8("splice_count"))
        var events: [Event] = []
        for _ in 0..<count {
            var event = Event(
                spliceEventID: try r.uint32("splice_event_id"),
                spliceEventCancelIndicator: try r.flag("splice_event_cancel_indicator"))
            event.eventIDComplianceFlag = try r.flag("event_id_compliance_flag")
            try r.skip(6, "splice_schedule reserved")
            if !event.spliceEventCancelIndicator {
                event.outOfNetworkIndicator = try r.flag("out_of_network_indicator")
                event.programSpliceFlag = try r.flag("program_splice_flag")
                event.durationFlag = try r.flag("duration_flag")
                try r.skip(5, "splice_schedule reserved")
                if event.programSpliceFlag {
                    event.utcSpliceTime = try r.uint32("utc_splice_time")
                } else {
                    let components = Int(try r.uint8("component_count"))
                    for _ in 0..<components {
                        event.components.append(
                            .init(
                                componentTag: try r.uint8("component_tag"),
                                utcSpliceTime: try r.uint32("utc_splice_time")))
                    }
                }
                if event.durationFlag { event.breakDuration = try BreakDuration.read(&r) }
                event.uniqueProgramID = try r.uint16("unique_program_id")
                event.availNum = try r.uint8("avail_num")
                event.availsExpected = try r.uint8("avails_expected")
            }
            events.append(event)
        }
        return SpliceSchedule(events: events)
    }
}

/// The command carried by a splice_info_section.
public enum SpliceCommand: Sendable, Hashable {
    case spliceNull
    case spliceSchedule(SpliceSchedule)
    case spliceInsert(SpliceInsert)
    case timeSignal(SpliceTime)
    case bandwidthReservation
    /// `private_command()`: identifier (registered, e.g. an ASCII four-character code) and bytes.
    case privateCommand(identifier: UInt32, bytes: [UInt8])
    /// A command type this decoder does not know; bytes kept (empty if the length was unknown).
    case unknown(type: UInt8, bytes: [UInt8])
    /// The section is encrypted: command type and bytes from `splice_command_type` up to the
    /// CRC_32, still encrypted.
    case encrypted(bytes: [UInt8])

    /// `splice_command_type`, nil for an encrypted command.
    public var type: UInt8? {
        switch self {
        case .spliceNull: return 0x00
        case .spliceSchedule: return 0x04
        case .spliceInsert: return 0x05
        case .timeSignal: return 0x06
        case .bandwidthReservation: return 0x07
        case .privateCommand: return 0xFF
        case .unknown(let type, _): return type
        case .encrypted: return nil
        }
    }

    public var name: String {
        switch self {
        case .spliceNull: return "splice_null"
        case .spliceSchedule: return "splice_schedule"
        case .spliceInsert: return "splice_insert"
        case .timeSignal: return "time_signal"
        case .bandwidthReservation: return "bandwidth_reservation"
        case .privateCommand: return "private_command"
        case .unknown(let type, _): return "unknown(0x\(String(type, radix: 16)))"
        case .encrypted: return "encrypted"
        }
    }

    /// Reads the command of `type`; `r` is bounded by splice_command_length when it is known.
    static func read(type: UInt8, _ r: inout BitReader, lengthKnown: Bool) throws(SCTE35Error) -> SpliceCommand {
        switch type {
        case 0x00: return .spliceNull
        case 0x04: return .spliceSchedule(try SpliceSchedule.read(&r))
        case 0x05: return .spliceInsert(try SpliceInsert.read(&r))
        case 0x06: return .timeSignal(try SpliceTime.read(&r))
        case 0x07: return .bandwidthReservation
        case 0xFF:
            guard lengthKnown else {
                throw SCTE35Error(
                    .invalidCommandLength, at: r.byteOffset,
                    "private_command with unknown splice_command_length (0xFFF) cannot be delimited")
            }
            let identifier = try r.uint32("private_command identifier")
            return .privateCommand(identifier: identifier, bytes: try r.bytes(r.bytesRemaining, "private_byte"))
        default:
            guard lengthKnown else {
                throw SCTE35Error(
                    .invalidCommandLength, at: r.byteOffset,
                    "unknown splice_command_type 0x\(String(type, radix: 16)) with unknown splice_command_length (0xFFF)"
                )
            }
            return .unknown(type: type, bytes: try r.bytes(r.bytesRemaining, "splice command bytes"))
        }
    }
}
