/// Writes `splice_info_section()` bytes (SCTE 35 2022 section 9.6), the inverse of
/// `SpliceInfoSection(bytes:)`: what a packager or a test origin needs to put cues into playlists.
///
/// ```swift
/// let out = SpliceInsert.programOut(eventID: 42, breakDuration: 24 * 90_000)
/// let base64 = try SpliceInfoSectionEncoder().base64(.spliceInsert(out))
/// ```
///
/// Lengths (`section_length`, `splice_command_length`, `descriptor_loop_length`,
/// `descriptor_length`) and the CRC_32 are computed; reserved bits are written as 1s. Sections
/// are clear (never encrypted). A value that does not fit its field throws rather than being
/// truncated, so what is written always decodes to what was given.
public struct SpliceInfoSectionEncoder: Sendable, Hashable {
    /// 2 bits; 3 = not specified (what most encoders write).
    public var sapType: UInt8
    public var protocolVersion: UInt8
    /// 33 bits, 90 kHz.
    public var ptsAdjustment: UInt64
    public var cwIndex: UInt8
    /// 12 bits; 0xFFF = all tiers.
    public var tier: UInt16

    public init(
        sapType: UInt8 = 3, protocolVersion: UInt8 = 0, ptsAdjustment: UInt64 = 0,
        cwIndex: UInt8 = 0xFF, tier: UInt16 = 0xFFF
    ) {
        self.sapType = sapType
        self.protocolVersion = protocolVersion
        self.ptsAdjustment = ptsAdjustment
        self.cwIndex = cwIndex
        self.tier = tier
    }

    /// The header fields of `section`, so that re-encoding its command and descriptors gives
    /// the same bytes.
    public init(header section: SpliceInfoSection) {
        self.init(
            sapType: section.sapType, protocolVersion: section.protocolVersion,
            ptsAdjustment: section.ptsAdjustment, cwIndex: section.cwIndex, tier: section.tier)
    }

    // MARK: Output

    /// The whole section, CRC_32 included.
    public func encode(_ command: SpliceCommand, descriptors: [SpliceDescriptor] = []) throws(SCTE35Error) -> [UInt8] {
        var body = BitWriter()
        try Self.write(command, into: &body)
        let commandBytes = body.bytes
        var loop: [UInt8] = []
        for descriptor in descriptors { loop += try Self.encode(descriptor) }

        guard commandBytes.count < Int(SpliceInfoSection.unknownCommandLength) else {
            throw SCTE35Error(
                .invalidCommandLength, at: 13,
                "a \(commandBytes.count)-byte splice command does not fit splice_command_length")
        }
        guard loop.count <= 0xFFFF else {
            throw SCTE35Error(
                .invalidDescriptorLength, at: 14 + commandBytes.count,
                "\(loop.count) descriptor bytes do not fit descriptor_loop_length")
        }
        // protocol_version .. splice_command_length (10), type (1), command, loop length (2), loop, CRC (4).
        let sectionLength = 10 + 1 + commandBytes.count + 2 + loop.count + 4
        guard sectionLength <= 0xFFF else {
            throw SCTE35Error(.invalidSectionLength, at: 1, "section_length \(sectionLength) does not fit 12 bits")
        }

        var w = BitWriter()
        w.write(UInt64(SpliceInfoSection.tableID), 8)
        w.write(0, 1)  // section_syntax_indicator
        w.write(0, 1)  // private_indicator
        try w.write(UInt64(sapType), 2, "sap_type")
        w.write(UInt64(sectionLength), 12)
        w.write(UInt64(protocolVersion), 8)
        w.write(0, 1)  // encrypted_packet
        w.write(0, 6)  // encryption_algorithm
        try w.write(ptsAdjustment, 33, "pts_adjustment")
        w.write(UInt64(cwIndex), 8)
        try w.write(UInt64(tier), 12, "tier")
        w.write(UInt64(commandBytes.count), 12)
        // splice_command_type: every command the writer accepts has one.
        w.write(UInt64(command.type ?? 0), 8)
        w.append(commandBytes)
        w.write(UInt64(loop.count), 16)
        w.append(loop)
        var bytes = w.bytes
        let crc = MPEG2CRC32.checksum(bytes)
        bytes += [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes
    }

    /// The section as standard padded base64 (`EXT-OATCLS-SCTE35`, `EXT-X-SCTE35 CUE=`, ...).
    public func base64(_ command: SpliceCommand, descriptors: [SpliceDescriptor] = []) throws(SCTE35Error) -> String {
        SCTE35Text.base64(try encode(command, descriptors: descriptors))
    }

    /// The section as `0x`-prefixed upper-case hexadecimal (`EXT-X-DATERANGE SCTE35-OUT=`).
    public func hex(_ command: SpliceCommand, descriptors: [SpliceDescriptor] = []) throws(SCTE35Error) -> String {
        "0x" + SCTE35Text.hex(try encode(command, descriptors: descriptors)).uppercased()
    }

    /// Encodes, then decodes with the strict decoder: a section value whose `bytes`,
    /// `base64String` and `hexString` are the encoding.
    public func section(
        _ command: SpliceCommand, descriptors: [SpliceDescriptor] = []
    ) throws(SCTE35Error) -> SpliceInfoSection {
        try SpliceInfoSection(bytes: encode(command, descriptors: descriptors))
    }

    // MARK: Commands

    static func write(_ command: SpliceCommand, into w: inout BitWriter) throws(SCTE35Error) {
        switch command {
        case .spliceNull, .bandwidthReservation:
            break
        case .spliceSchedule(let schedule):
            try write(schedule, into: &w)
        case .spliceInsert(let insert):
            try write(insert, into: &w)
        case .timeSignal(let time):
            try write(time, into: &w)
        case .privateCommand(let identifier, let bytes):
            w.write(UInt64(identifier), 32)
            w.append(bytes)
        case .unknown(_, let bytes):
            w.append(bytes)
        case .encrypted:
            throw SCTE35Error(.invalidValue, at: 13, "encrypted sections cannot be encoded")
        }
    }

    static func write(_ time: SpliceTime, into w: inout BitWriter) throws(SCTE35Error) {
        if let pts = time.ptsTime {
            w.write(1, 1)
            w.reserved(6)
            try w.write(pts, 33, "pts_time")
        } else {
            w.write(0, 1)
            w.reserved(7)
        }
    }

    static func write(_ duration: BreakDuration, into w: inout BitWriter) throws(SCTE35Error) {
        w.write(duration.autoReturn ? 1 : 0, 1)
        w.reserved(6)
        try w.write(duration.duration, 33, "break_duration duration")
    }

    static func write(_ insert: SpliceInsert, into w: inout BitWriter) throws(SCTE35Error) {
        w.write(UInt64(insert.spliceEventID), 32)
        w.write(insert.spliceEventCancelIndicator ? 1 : 0, 1)
        w.reserved(7)
        guard !insert.spliceEventCancelIndicator else { return }
        // The flags are derived from what is present, so they cannot contradict the fields.
        let durationFlag = insert.breakDuration != nil
        let immediate =
            insert.programSpliceFlag
            ? insert.spliceTime == nil
            : insert.components.allSatisfy { $0.spliceTime == nil }
        if !insert.programSpliceFlag, !immediate, insert.components.contains(where: { $0.spliceTime == nil }) {
            throw SCTE35Error(
                .invalidValue, at: 0,
                "splice_insert components must all have a splice_time or none (splice_immediate_flag)")
        }
        w.write(insert.outOfNetworkIndicator ? 1 : 0, 1)
        w.write(insert.programSpliceFlag ? 1 : 0, 1)
        w.write(durationFlag ? 1 : 0, 1)
        w.write(immediate ? 1 : 0, 1)
        w.write(insert.eventIDComplianceFlag ? 1 : 0, 1)
        w.reserved(3)
        if insert.programSpliceFlag {
            if let time = insert.spliceTime { try write(time, into: &w) }
        } else {
            try w.write(UInt64(insert.components.count), 8, "component_count")
            for component in insert.components {
                w.write(UInt64(component.componentTag), 8)
                if let time = component.spliceTime { try write(time, into: &w) }
            }
        }
        if let duration = insert.breakDuration { try write(duration, into: &w) }
        w.write(UInt64(insert.uniqueProgramID), 16)
        w.write(UInt64(insert.availNum), 8)
        w.write(UInt64(insert.availsExpected), 8)
    }

    static func write(_ schedule: SpliceSchedule, into w: inout BitWriter) throws(SCTE35Error) {
        try w.write(UInt64(schedule.events.count), 8, "splice_count")
        for event in schedule.events {
            w.write(UInt64(event.spliceEventID), 32)
            w.write(event.spliceEventCancelIndicator ? 1 : 0, 1)
            w.write(event.eventIDComplianceFlag ? 1 : 0, 1)
            w.reserved(6)
            guard !event.spliceEventCancelIndicator else { continue }
            w.write(event.outOfNetworkIndicator ? 1 : 0, 1)
            w.write(event.programSpliceFlag ? 1 : 0, 1)
            w.write(event.breakDuration != nil ? 1 : 0, 1)
            w.reserved(5)
            if event.programSpliceFlag {
                w.write(UInt64(event.utcSpliceTime ?? 0), 32)
            } else {
                try w.write(UInt64(event.components.count), 8, "component_count")
                for component in event.components {
                    w.write(UInt64(component.componentTag), 8)
                    w.write(UInt64(component.utcSpliceTime), 32)
                }
            }
            if let duration = event.breakDuration { try write(duration, into: &w) }
            w.write(UInt64(event.uniqueProgramID), 16)
            w.write(UInt64(event.availNum), 8)
            w.write(UInt64(event.availsExpected), 8)
        }
    }

    // MARK: Descriptors

    /// One descriptor: tag, descriptor_length and the body.
    static func encode(_ descriptor: SpliceDescriptor) throws(SCTE35Error) -> [UInt8] {
        var w = BitWriter()
        switch descriptor {
        case .avail(let providerAvailID):
            w.write(UInt64(SpliceDescriptor.cuei), 32)
            w.write(UInt64(providerAvailID), 32)
        case .dtmf(let preroll, let characters):
            let chars = Array(characters.utf8)
            w.write(UInt64(SpliceDescriptor.cuei), 32)
            w.write(UInt64(preroll), 8)
            try w.write(UInt64(chars.count), 3, "dtmf_count")
            w.reserved(5)
            w.append(chars)
        case .segmentation(let segmentation):
            try write(segmentation, into: &w)
        case .time(let time):
            w.write(UInt64(SpliceDescriptor.cuei), 32)
            try w.write(time.taiSeconds, 48, "TAI_seconds")
            w.write(UInt64(time.taiNanoseconds), 32)
            w.write(UInt64(time.utcOffset), 16)
        case .audio(let audio):
            w.write(UInt64(SpliceDescriptor.cuei), 32)
            try w.write(UInt64(audio.components.count), 4, "audio_count")
            w.reserved(4)
            for component in audio.components {
                let iso = Array(component.isoCode.utf8)
                guard iso.count == 3 else {
                    throw SCTE35Error(.invalidValue, at: 0, "ISO_code \"\(component.isoCode)\" is not 3 bytes")
                }
                w.write(UInt64(component.componentTag), 8)
                w.append(iso)
                try w.write(UInt64(component.bitStreamMode), 3, "Bit_Stream_Mode")
                try w.write(UInt64(component.numChannels), 4, "Num_Channels")
                w.write(component.fullServiceAudio ? 1 : 0, 1)
            }
        case .raw(_, _, let bytes):
            w.append(bytes)
        }
        let body = w.bytes
        guard body.count <= 0xFF else {
            throw SCTE35Error(
                .invalidDescriptorLength, at: 0,
                "descriptor tag 0x\(String(descriptor.tag, radix: 16)) has \(body.count) bytes, more than descriptor_length allows"
            )
        }
        return [descriptor.tag, UInt8(body.count)] + body
    }

    static func write(_ d: SegmentationDescriptor, into w: inout BitWriter) throws(SCTE35Error) {
        w.write(UInt64(d.identifier), 32)
        w.write(UInt64(d.segmentationEventID), 32)
        w.write(d.segmentationEventCancelIndicator ? 1 : 0, 1)
        w.write(d.segmentationEventIDComplianceIndicator ? 1 : 0, 1)
        w.reserved(6)
        guard !d.segmentationEventCancelIndicator else { return }
        let program = d.components.isEmpty
        w.write(program ? 1 : 0, 1)
        w.write(d.segmentationDuration != nil ? 1 : 0, 1)
        if let restrictions = d.deliveryRestrictions {
            w.write(0, 1)
            w.write(restrictions.webDeliveryAllowed ? 1 : 0, 1)
            w.write(restrictions.noRegionalBlackout ? 1 : 0, 1)
            w.write(restrictions.archiveAllowed ? 1 : 0, 1)
            try w.write(UInt64(restrictions.deviceRestrictions), 2, "device_restrictions")
        } else {
            w.write(1, 1)
            w.reserved(5)
        }
        if !program {
            try w.write(UInt64(d.components.count), 8, "component_count")
            for component in d.components {
                w.write(UInt64(component.componentTag), 8)
                w.reserved(7)
                try w.write(component.ptsOffset, 33, "pts_offset")
            }
        }
        if let duration = d.segmentationDuration { try w.write(duration, 40, "segmentation_duration") }
        w.write(UInt64(d.upid.type.rawValue), 8)
        try w.write(UInt64(d.upid.bytes.count), 8, "segmentation_upid_length")
        w.append(d.upid.bytes)
        w.write(UInt64(d.segmentationType.rawValue), 8)
        w.write(UInt64(d.segmentNum), 8)
        w.write(UInt64(d.segmentsExpected), 8)
        if let number = d.subSegmentNum, let expected = d.subSegmentsExpected {
            w.write(UInt64(number), 8)
            w.write(UInt64(expected), 8)
        }
    }
}

// MARK: Building the common cues

extension SpliceInsert {
    /// A program splice_insert going out of network: `splice_immediate` when `ptsTime` is nil,
    /// with a `break_duration` (90 kHz ticks) when one is given.
    public static func programOut(
        eventID: UInt32, breakDuration: UInt64? = nil, autoReturn: Bool = true,
        ptsTime: UInt64? = nil
    ) -> SpliceInsert {
        var insert = SpliceInsert(spliceEventID: eventID, spliceEventCancelIndicator: false)
        insert.outOfNetworkIndicator = true
        insert.programSpliceFlag = true
        insert.eventIDComplianceFlag = true
        insert.spliceImmediateFlag = ptsTime == nil
        insert.spliceTime = ptsTime.map { SpliceTime(ptsTime: $0) }
        insert.breakDuration = breakDuration.map { BreakDuration(autoReturn: autoReturn, duration: $0) }
        insert.durationFlag = breakDuration != nil
        return insert
    }

    /// A program splice_insert returning to network (`out_of_network_indicator` 0).
    public static func programIn(eventID: UInt32, ptsTime: UInt64? = nil) -> SpliceInsert {
        var insert = programOut(eventID: eventID, ptsTime: ptsTime)
        insert.outOfNetworkIndicator = false
        return insert
    }
}

extension SegmentationDescriptor {
    /// A program-level, unrestricted segmentation descriptor of `type` with a UPID of type 0 (not
    /// used) unless one is given; `duration` in 90 kHz ticks.
    public static func program(
        eventID: UInt32, type: SegmentationType, duration: UInt64? = nil,
        upid: SegmentationUPID = SegmentationUPID(type: .notUsed, bytes: []),
        segmentNum: UInt8 = 0, segmentsExpected: UInt8 = 0
    ) -> SegmentationDescriptor {
        var d = SegmentationDescriptor(segmentationEventID: eventID)
        d.segmentationDurationFlag = duration != nil
        d.segmentationDuration = duration
        d.upid = upid
        d.segmentationType = type
        d.segmentNum = segmentNum
        d.segmentsExpected = segmentsExpected
        if type.mayCarrySubSegments {
            d.subSegmentNum = 0
            d.subSegmentsExpected = 0
        }
        return d
    }
}

/// Appends bit fields most significant bit first.
struct BitWriter: Sendable {
    private(set) var bytes: [UInt8] = []
    private var current: UInt8 = 0
    private var used = 0

    /// Writes the low `count` bits of `value`; the caller guarantees they hold the value.
    mutating func write(_ value: UInt64, _ count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            current = current << 1 | UInt8(value >> UInt64(shift) & 1)
            used += 1
            if used == 8 {
                bytes.append(current)
                current = 0
                used = 0
            }
        }
    }

    /// Writes `value` in `count` bits, throwing when it needs more.
    mutating func write(_ value: UInt64, _ count: Int, _ field: String) throws(SCTE35Error) {
        guard count == 64 || value >> UInt64(count) == 0 else {
            throw SCTE35Error(.invalidValue, at: bytes.count, "\(field) \(value) does not fit \(count) bits")
        }
        write(value, count)
    }

    /// Reserved bits: all 1s.
    mutating func reserved(_ count: Int) { write((1 << UInt64(count)) - 1, count) }

    mutating func append(_ more: [UInt8]) {
        if used == 0 {
            bytes += more
        } else {
            for byte in more { write(UInt64(byte), 8) }
        }
    }
}
