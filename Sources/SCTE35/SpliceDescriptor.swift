/// `segmentation_upid()`: raw bytes kept, text offered for ASCII types, MID split into its parts.
public struct SegmentationUPID: Sendable, Hashable {
    public var type: SegmentationUPIDType
    public var bytes: [UInt8]
    /// For MID (0x0D): the contained UPIDs. Empty otherwise, or when the MID is malformed.
    public var parts: [SegmentationUPID]

    public init(type: SegmentationUPIDType, bytes: [UInt8], parts: [SegmentationUPID] = []) {
        self.type = type
        self.bytes = bytes
        self.parts = parts
    }

    /// The value as text when the type is an ASCII type (or a URI/ADI-like value) and every byte
    /// is printable ASCII.
    public var text: String? {
        guard type.isText, !bytes.isEmpty, bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// For MPU (0x0C): the 32-bit format_identifier that starts the value (the private data follows).
    public var mpuFormatIdentifier: UInt32? {
        guard type == .mpu, bytes.count >= 4 else { return nil }
        return UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
    }

    /// Lower-case hex of the bytes.
    public var hex: String { SCTE35Text.hex(bytes) }

    static func make(type: UInt8, bytes: [UInt8]) -> SegmentationUPID {
        var upid = SegmentationUPID(type: SegmentationUPIDType(type), bytes: bytes)
        if type == 0x0D {
            var parts: [SegmentationUPID] = []
            var index = 0
            while index + 2 <= bytes.count {
                let partType = bytes[index]
                let length = Int(bytes[index + 1])
                guard index + 2 + length <= bytes.count else { parts = []; break }
                parts.append(make(type: partType, bytes: Array(bytes[index + 2..<index + 2 + length])))
                index += 2 + length
            }
            upid.parts = index == bytes.count ? parts : []
        }
        return upid
    }
}

/// `segmentation_descriptor()` (tag 0x02, identifier "CUEI").
public struct SegmentationDescriptor: Sendable, Hashable {
    public struct DeliveryRestrictions: Sendable, Hashable {
        public var webDeliveryAllowed: Bool
        public var noRegionalBlackout: Bool
        public var archiveAllowed: Bool
        /// 2 bits: 0 = restrict group 0, 1 = group 1, 2 = group 2, 3 = none.
        public var deviceRestrictions: UInt8
    }

    public struct Component: Sendable, Hashable {
        public var componentTag: UInt8
        /// 33-bit offset in 90 kHz ticks.
        public var ptsOffset: UInt64
    }

    public var identifier: UInt32
    public var segmentationEventID: UInt32
    public var segmentationEventCancelIndicator: Bool
    /// `segmentation_event_id_compliance_indicator` (2020+; reserved bit in older versions).
    public var segmentationEventIDComplianceIndicator: Bool
    public var programSegmentationFlag: Bool = true
    public var segmentationDurationFlag: Bool = false
    public var deliveryNotRestrictedFlag: Bool = true
    /// Present when `delivery_not_restricted_flag` is 0.
    public var deliveryRestrictions: DeliveryRestrictions?
    public var components: [Component] = []
    /// 40-bit duration in 90 kHz ticks, when `segmentation_duration_flag` is set.
    public var segmentationDuration: UInt64?
    public var upid: SegmentationUPID = SegmentationUPID(type: .notUsed, bytes: [])
    public var segmentationType: SegmentationType = .notIndicated
    public var segmentNum: UInt8 = 0
    public var segmentsExpected: UInt8 = 0
    /// Present for 0x34/0x36/0x38/0x3A when the encoder wrote them.
    public var subSegmentNum: UInt8?
    public var subSegmentsExpected: UInt8?

    public init(
        identifier: UInt32 = 0x4355_4549, segmentationEventID: UInt32,
        segmentationEventCancelIndicator: Bool = false,
        segmentationEventIDComplianceIndicator: Bool = true
    ) {
        self.identifier = identifier
        self.segmentationEventID = segmentationEventID
        self.segmentationEventCancelIndicator = segmentationEventCancelIndicator
        self.segmentationEventIDComplianceIndicator = segmentationEventIDComplianceIndicator
    }

    /// Segmentation duration in seconds.
    public var durationSeconds: Double? { segmentationDuration.map(Clock90k.seconds) }

    /// `r` is bounded by the descriptor and positioned after the identifier.
    static func read(identifier: UInt32, _ r: inout BitReader) throws(SCTE35Error) -> SegmentationDescriptor {
        let eventID = try r.uint32("segmentation_event_id")
        let cancel = try r.flag("segmentation_event_cancel_indicator")
        let compliance = try r.flag("segmentation_event_id_compliance_indicator")
        try r.skip(6, "segmentation_descriptor reserved")
        var d = SegmentationDescriptor(
            identifier: identifier, segmentationEventID: eventID,
            segmentationEventCancelIndicator: cancel,
            segmentationEventIDComplianceIndicator: compliance)
        guard !cancel else { return d }
        d.programSegmentationFlag = try r.flag("program_segmentation_flag")
        d.segmentationDurationFlag = try r.flag("segmentation_duration_flag")
        d.deliveryNotRestrictedFlag = try r.flag("delivery_not_restricted_flag")
        if d.deliveryNotRestrictedFlag {
            try r.skip(5, "segmentation_descriptor reserved")
        } else {
            d.deliveryRestrictions = DeliveryRestrictions(
                webDeliveryAllowed: try r.flag("web_delivery_allowed_flag"),
                noRegionalBlackout: try r.flag("no_regional_blackout_flag"),
                archiveAllowed: try r.flag("archive_allowed_flag"),
                deviceRestrictions: UInt8(try r.bits(2, "device_restrictions")))
        }
        if !d.programSegmentationFlag {
            let count = Int(try r.uint8("component_count"))
            for _ in 0..<count {
                let tag = try r.uint8("component_tag")
                try r.skip(7, "component reserved")
                d.components.append(Component(componentTag: tag, ptsOffset: try r.bits(33, "pts_offset")))
            }
        }
        if d.segmentationDurationFlag {
            d.segmentationDuration = try r.bits(40, "segmentation_duration")
        }
        let upidType = try r.uint8("segmentation_upid_type")
        let upidLength = Int(try r.uint8("segmentation_upid_length"))
        d.upid = SegmentationUPID.make(type: upidType, bytes: try r.bytes(upidLength, "segmentation_upid"))
        d.segmentationType = SegmentationType(try r.uint8("segmentation_type_id"))
        d.segmentNum = try r.uint8("segment_num")
        d.segmentsExpected = try r.uint8("segments_expected")
        // sub_segment fields were added in SCTE 35 2016; older encoders omit them.
        if d.segmentationType.mayCarrySubSegments, r.bytesRemaining >= 2 {
            d.subSegmentNum = try r.uint8("sub_segment_num")
            d.subSegmentsExpected = try r.uint8("sub_segments_expected")
        }
        return d
    }
}

/// `time_descriptor()` (tag 0x03): TAI time.
public struct TimeDescriptor: Sendable, Hashable {
    /// 48 bits.
    public var taiSeconds: UInt64
    public var taiNanoseconds: UInt32
    public var utcOffset: UInt16
}

/// `audio_descriptor()` (tag 0x04).
public struct AudioDescriptor: Sendable, Hashable {
    public struct Component: Sendable, Hashable {
        public var componentTag: UInt8
        /// ISO 639-2 language code (3 ASCII characters when well formed).
        public var isoCode: String
        public var bitStreamMode: UInt8
        public var numChannels: UInt8
        public var fullServiceAudio: Bool
    }
    public var components: [Component]
}

/// One entry of the descriptor loop.
public enum SpliceDescriptor: Sendable, Hashable {
    /// `avail_descriptor()` (tag 0x00).
    case avail(providerAvailID: UInt32)
    /// `DTMF_descriptor()` (tag 0x01): pre-roll in tenths of a second and the DTMF characters.
    case dtmf(preroll: UInt8, characters: String)
    case segmentation(SegmentationDescriptor)
    case time(TimeDescriptor)
    case audio(AudioDescriptor)
    /// Any other descriptor, or a known tag with a non-CUEI identifier: kept raw.
    /// `bytes` is everything after descriptor_length (identifier included).
    case raw(tag: UInt8, identifier: UInt32?, bytes: [UInt8])

    public var tag: UInt8 {
        switch self {
        case .avail: return 0x00
        case .dtmf: return 0x01
        case .segmentation: return 0x02
        case .time: return 0x03
        case .audio: return 0x04
        case .raw(let tag, _, _): return tag
        }
    }

    public var segmentation: SegmentationDescriptor? {
        if case .segmentation(let d) = self { return d }
        return nil
    }

    static let cuei: UInt32 = 0x4355_4549

    /// Reads one descriptor; `r` is the descriptor loop.
    static func read(_ r: inout BitReader) throws(SCTE35Error) -> SpliceDescriptor {
        let tag = try r.uint8("splice_descriptor_tag")
        let length = Int(try r.uint8("descriptor_length"))
        var d = try r.subReader(length, "descriptor (tag 0x\(String(tag, radix: 16)))", .invalidDescriptorLength)
        let start = d.byteOffset
        guard length >= 4 else {
            return .raw(tag: tag, identifier: nil, bytes: try d.bytes(length, "descriptor bytes"))
        }
        let identifier = try d.uint32("identifier")
        guard identifier == cuei, tag <= 0x04 else {
            return .raw(tag: tag, identifier: identifier, bytes: Array(r.bytes[start..<start + length]))
        }
        switch tag {
        case 0x00:
            return .avail(providerAvailID: try d.uint32("provider_avail_id"))
        case 0x01:
            let preroll = try d.uint8("preroll")
            let count = Int(try d.bits(3, "dtmf_count"))
            try d.skip(5, "DTMF reserved")
            let chars = try d.bytes(count, "DTMF_char")
            return .dtmf(preroll: preroll, characters: String(decoding: chars, as: UTF8.self))
        case 0x02:
            return .segmentation(try SegmentationDescriptor.read(identifier: identifier, &d))
        case 0x03:
            return .time(
                TimeDescriptor(
                    taiSeconds: try d.bits(48, "TAI_seconds"),
                    taiNanoseconds: try d.uint32("TAI_ns"),
                    utcOffset: try d.uint16("UTC_offset")))
        default:  // 0x04
            let count = Int(try d.bits(4, "audio_count"))
            try d.skip(4, "audio_descriptor reserved")
            var components: [AudioDescriptor.Component] = []
            for _ in 0..<count {
                let tag = try d.uint8("component_tag")
                let iso = try d.bytes(3, "ISO_code")
                components.append(
                    .init(
                        componentTag: tag, isoCode: String(decoding: iso, as: UTF8.self),
                        bitStreamMode: UInt8(try d.bits(3, "Bit_Stream_Mode")),
                        numChannels: UInt8(try d.bits(4, "Num_Channels")),
                        fullServiceAudio: try d.flag("Full_Srvc_Audio")))
            }
            return .audio(AudioDescriptor(components: components))
        }
    }
}
