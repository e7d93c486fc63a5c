import HLS

/// How strictly to decode.
public struct SCTE35DecodingOptions: Sendable, Hashable, Codable {
    /// When true (the default) a CRC_32 mismatch is an error; when false it is noted in
    /// `SpliceInfoSection.warnings` and decoding continues.
    public var requireValidCRC: Bool

    public init(requireValidCRC: Bool = true) {
        self.requireValidCRC = requireValidCRC
    }

    public static let strict = SCTE35DecodingOptions()
    public static let lenient = SCTE35DecodingOptions(requireValidCRC: false)
}

/// An SCTE-35 `splice_info_section()` (SCTE 35 2022 section 9.6).
public struct SpliceInfoSection: Sendable, Hashable {
    public static let tableID: UInt8 = 0xFC
    /// `splice_command_length` value meaning "unknown" (legal in old encoders).
    public static let unknownCommandLength: UInt16 = 0xFFF
    static let ptsMask: UInt64 = (1 << 33) - 1

    public var tableID: UInt8
    public var sectionSyntaxIndicator: Bool
    public var privateIndicator: Bool
    /// 2 bits (SCTE 35 2019+; reserved `11` before): 3 = not specified.
    public var sapType: UInt8
    /// 12 bits: bytes following the section_length field.
    public var sectionLength: UInt16
    public var protocolVersion: UInt8
    public var encryptedPacket: Bool
    /// 6 bits: 0 none, 1 DES-ECB, 2 DES-CBC, 3 triple DES EDE3-ECB, 32-63 user private.
    public var encryptionAlgorithm: UInt8
    /// 33 bits, 90 kHz.
    public var ptsAdjustment: UInt64
    public var cwIndex: UInt8
    /// 12 bits.
    public var tier: UInt16
    /// 12 bits; 0xFFF means unknown.
    public var spliceCommandLength: UInt16
    /// nil when the section is encrypted (the type byte is encrypted too).
    public var spliceCommandType: UInt8?
    public var command: SpliceCommand
    /// nil when the section is encrypted.
    public var descriptorLoopLength: UInt16?
    public var descriptors: [SpliceDescriptor]
    /// The CRC_32 stored in the section.
    public var crc32: UInt32
    /// Problems tolerated while decoding (bad CRC in lenient mode, trailing bytes, ...).
    public var warnings: [SCTE35Warning]
    /// The section's bytes (exactly 3 + section_length of them).
    public var bytes: [UInt8]

    // MARK: Decoding

    /// Decodes from text: hexadecimal (`0xFC30...` or plain, any case) or base64 (standard or
    /// URL-safe, padded or not).
    public init(_ text: String, options: SCTE35DecodingOptions = .strict) throws(SCTE35Error) {
        try self.init(bytes: SCTE35Text.decode(text), options: options)
    }

    public init(hex: String, options: SCTE35DecodingOptions = .strict) throws(SCTE35Error) {
        try self.init(bytes: SCTE35Text.decodeHex(hex), options: options)
    }

    public init(base64: String, options: SCTE35DecodingOptions = .strict) throws(SCTE35Error) {
        try self.init(bytes: SCTE35Text.decodeBase64(base64), options: options)
    }

    public init(bytes input: [UInt8], options: SCTE35DecodingOptions = .strict) throws(SCTE35Error) {
        var warnings: [SCTE35Warning] = []
        guard !input.isEmpty else { throw SCTE35Error(.emptyInput, at: 0, "no bytes") }
        var r = BitReader(input)
        let tableID = try r.uint8("table_id")
        guard tableID == Self.tableID else {
            throw SCTE35Error(
                .invalidTableID, at: 0,
                "table_id is 0x\(SCTE35Text.hex([tableID])), expected 0xfc")
        }
        let syntax = try r.flag("section_syntax_indicator")
        let privateIndicator = try r.flag("private_indicator")
        let sapType = UInt8(try r.bits(2, "sap_type"))
        let sectionLength = UInt16(try r.bits(12, "section_length"))
        let total = 3 + Int(sectionLength)
        guard total <= input.count else {
            throw SCTE35Error(
                .invalidSectionLength, at: 1,
                "section_length \(sectionLength) needs \(total) bytes but only \(input.count) are present")
        }
        // 14 header bytes after which come the command, the 2-byte descriptor_loop_length and the CRC.
        guard total >= 20 else {
            throw SCTE35Error(
                .invalidSectionLength, at: 1,
                "section_length \(sectionLength) is shorter than the minimum of 17")
        }
        if total < input.count {
            warnings.append(SCTE35Warning(at: total, "\(input.count - total) bytes after the section ignored"))
        }
        let bytes = Array(input[0..<total])
        let crcOffset = total - 4
        let stored =
            UInt32(bytes[crcOffset]) << 24 | UInt32(bytes[crcOffset + 1]) << 16
            | UInt32(bytes[crcOffset + 2]) << 8 | UInt32(bytes[crcOffset + 3])
        let computed = MPEG2CRC32.checksum(bytes[0..<crcOffset])
        if stored != computed {
            let message =
                "CRC_32 is 0x\(SCTE35Text.hex(bytes[crcOffset...])) but the section's CRC is 0x\(String(computed, radix: 16))"
            if options.requireValidCRC {
                throw SCTE35Error(.crcMismatch(stored: stored, computed: computed), at: crcOffset, message)
            }
            warnings.append(SCTE35Warning(at: crcOffset, message))
        }

        r = BitReader(bytes, start: 3, end: crcOffset)
        self.tableID = tableID
        self.sectionSyntaxIndicator = syntax
        self.privateIndicator = privateIndicator
        self.sapType = sapType
        self.sectionLength = sectionLength
        self.protocolVersion = try r.uint8("protocol_version")
        self.encryptedPacket = try r.flag("encrypted_packet")
        self.encryptionAlgorithm = UInt8(try r.bits(6, "encryption_algorithm"))
        self.ptsAdjustment = try r.bits(33, "pts_adjustment")
        self.cwIndex = try r.uint8("cw_index")
        self.tier = UInt16(try r.bits(12, "tier"))
        self.spliceCommandLength = UInt16(try r.bits(12, "splice_command_length"))
        self.crc32 = stored
        self.bytes = bytes

        if encryptedPacket {
            // splice_command_type through E_CRC_32 are encrypted: keep them as they are.
            spliceCommandType = nil
            command = .encrypted(bytes: try r.bytes(r.bytesRemaining, "encrypted payload"))
            descriptorLoopLength = nil
            descriptors = []
            self.warnings = warnings
            return
        }

        let type = try r.uint8("splice_command_type")
        spliceCommandType = type
        if spliceCommandLength == Self.unknownCommandLength {
            command = try SpliceCommand.read(type: type, &r, lengthKnown: false)
            guard r.isByteAligned else {
                throw SCTE35Error(.invalidValue, at: r.byteOffset, "splice command does not end on a byte boundary")
            }
        } else {
            let commandStart = r.byteOffset
            var c = try r.subReader(Int(spliceCommandLength), "splice_command_length", .invalidCommandLength)
            do {
                command = try SpliceCommand.read(type: type, &c, lengthKnown: true)
            } catch {
                if error.kind == .truncated {
                    throw SCTE35Error(
                        .invalidCommandLength, at: error.offset,
                        "splice_command_length \(spliceCommandLength) (from byte \(commandStart)) is too short: \(error.message)"
                    )
                }
                throw error
            }
            if c.bitsRemaining > 0 {
                warnings.append(
                    SCTE35Warning(
                        at: c.byteOffset,
                        "\(c.bitsRemaining / 8) unused bytes at the end of the splice command"))
            }
        }

        let loopLength = try r.uint16("descriptor_loop_length")
        descriptorLoopLength = loopLength
        var loop = try r.subReader(Int(loopLength), "descriptor_loop_length", .invalidDescriptorLength)
        var descriptors: [SpliceDescriptor] = []
        while loop.bytesRemaining > 0 {
            guard loop.bytesRemaining >= 2 else {
                throw SCTE35Error(
                    .invalidDescriptorLength, at: loop.byteOffset,
                    "descriptor loop ends with \(loop.bytesRemaining) byte, too short for a descriptor header")
            }
            descriptors.append(try SpliceDescriptor.read(&loop))
        }
        self.descriptors = descriptors
        if r.bytesRemaining > 0 {
            warnings.append(SCTE35Warning(at: r.byteOffset, "\(r.bytesRemaining) stuffing bytes before CRC_32"))
        }
        self.warnings = warnings
    }

    // MARK: Helpers

    /// The section as hexadecimal text with a `0x` prefix (upper case).
    public var hexString: String { "0x" + SCTE35Text.hex(bytes).uppercased() }
    /// The section as standard padded base64.
    public var base64String: String { SCTE35Text.base64(bytes) }

    /// Adds `pts_adjustment` to a PTS, modulo 2^33.
    public func adjusted(_ pts: UInt64) -> UInt64 { (pts &+ ptsAdjustment) & Self.ptsMask }

    /// The splice time of a time_signal or program splice_insert, with `pts_adjustment` applied.
    public var spliceTimePTS: UInt64? {
        switch command {
        case .timeSignal(let time): return time.ptsTime.map(adjusted)
        case .spliceInsert(let insert):
            return (insert.spliceTime?.ptsTime ?? insert.components.first?.spliceTime?.ptsTime).map(adjusted)
        default: return nil
        }
    }

    /// `spliceTimePTS` in seconds.
    public var spliceTimeSeconds: Double? { spliceTimePTS.map(Clock90k.seconds) }

    public var segmentationDescriptors: [SegmentationDescriptor] { descriptors.compactMap(\.segmentation) }

    /// The splice_insert command, if that is the command.
    public var spliceInsert: SpliceInsert? {
        if case .spliceInsert(let insert) = command { return insert }
        return nil
    }

    /// Not-cancelled segmentation descriptors that start an ad (provider/distributor
    /// advertisement or placement opportunity start).
    var adStartDescriptors: [SegmentationDescriptor] {
        segmentationDescriptors.filter { !$0.segmentationEventCancelIndicator && $0.segmentationType.isAdStart }
    }

    var adEndDescriptors: [SegmentationDescriptor] {
        segmentationDescriptors.filter { !$0.segmentationEventCancelIndicator && $0.segmentationType.isAdEnd }
    }

    /// True for a splice_insert going out of network, or a time_signal (or any command) carrying a
    /// provider/distributor advertisement or placement opportunity start.
    public var isAdStart: Bool {
        if let insert = spliceInsert {
            return !insert.spliceEventCancelIndicator && insert.outOfNetworkIndicator
        }
        return !adStartDescriptors.isEmpty
    }

    /// True for a splice_insert returning to network, or a provider/distributor advertisement or
    /// placement opportunity end.
    public var isAdEnd: Bool {
        if let insert = spliceInsert {
            return !insert.spliceEventCancelIndicator && !insert.outOfNetworkIndicator
        }
        return !adEndDescriptors.isEmpty
    }

    /// True when the event is a cancellation (splice_insert or the segmentation descriptors).
    public var isCancellation: Bool {
        if let insert = spliceInsert { return insert.spliceEventCancelIndicator }
        let segs = segmentationDescriptors
        return !segs.isEmpty && segs.allSatisfy(\.segmentationEventCancelIndicator)
    }

    /// The planned break duration in seconds: splice_insert break_duration, else the duration of
    /// the ad-start segmentation descriptor.
    /// A duration beyond `PlaylistLimits.maxDurationSeconds` (a day; the fields reach 95,443 s and
    /// 12 million s) is no real break and reads as none.
    public var breakDurationSeconds: Double? {
        let seconds =
            spliceInsert?.breakDuration.map(\.seconds) ?? adStartDescriptors.lazy.compactMap(\.durationSeconds).first
        guard let seconds, PlaylistLimits.isDuration(seconds) else { return nil }
        return seconds
    }

    /// splice_event_id or the ad start/end segmentation_event_id.
    public var eventID: UInt32? {
        if let insert = spliceInsert { return insert.spliceEventID }
        return (adStartDescriptors.first ?? adEndDescriptors.first ?? segmentationDescriptors.first)?
            .segmentationEventID
    }
}

extension SpliceInfoSection: CustomStringConvertible {
    /// One line for logs, e.g.
    /// `splice_insert event=0x4800008F out pts=1936310318 (21514.559s) duration=60.294s`.
    public var description: String {
        var parts = [command.name]
        if let id = eventID { parts.append("event=0x" + String(id, radix: 16, uppercase: true)) }
        if isCancellation {
            parts.append("cancel")
        } else if isAdStart {
            parts.append("out")
        } else if isAdEnd {
            parts.append("in")
        }
        for d in segmentationDescriptors where !d.segmentationEventCancelIndicator {
            parts.append("type=\(d.segmentationType)")
        }
        if let pts = spliceTimePTS {
            parts.append("pts=\(pts) (\(Self.format(Clock90k.seconds(pts)))s)")
        }
        if let seconds = breakDurationSeconds { parts.append("duration=\(Self.format(seconds))s") }
        if !warnings.isEmpty { parts.append("warnings=\(warnings.count)") }
        return parts.joined(separator: " ")
    }

    /// Seconds with three decimals, without Foundation.
    static func format(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds.magnitude < 1e15 else { return "\(seconds)" }
        let millis = Int64((seconds * 1000).rounded())
        let whole = millis / 1000
        let fraction = abs(millis % 1000)
        let padded = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(whole).\(padded)"
    }
}
