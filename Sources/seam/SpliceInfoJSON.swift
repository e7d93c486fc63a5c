import Foundation
import SCTE35

/// A splice_info_section as JSON for ad ops: every field of the section, its command and its
/// descriptors, under the specification's names (SCTE 35 2022); 90 kHz times given in ticks and
/// in seconds; UPIDs with their type's name, their bytes in hex and, for text types, the text.
enum SpliceInfoJSON {
    static func object(_ section: SpliceInfoSection) -> [String: Any] {
        var object: [String: Any] = [
            "table_id": hex8(section.tableID),
            "section_syntax_indicator": section.sectionSyntaxIndicator,
            "private_indicator": section.privateIndicator,
            "sap_type": Int(section.sapType),
            "section_length": Int(section.sectionLength),
            "protocol_version": Int(section.protocolVersion),
            "encrypted_packet": section.encryptedPacket,
            "encryption_algorithm": Int(section.encryptionAlgorithm),
            "pts_adjustment": ticks(section.ptsAdjustment),
            "cw_index": Int(section.cwIndex),
            "tier": hex16(section.tier),
            "splice_command_length": Int(section.spliceCommandLength),
            "splice_command": command(section.command),
            "descriptors": section.descriptors.map(descriptor),
            "CRC_32": String(format: "0x%08X", section.crc32),
            "bytes": section.bytes.count,
        ]
        if section.spliceCommandLength == SpliceInfoSection.unknownCommandLength {
            object["splice_command_length_note"] = "0xFFF: unknown (legacy encoders); the command's own length was used"
        }
        if let type = section.spliceCommandType { object["splice_command_type"] = hex8(type) }
        if let length = section.descriptorLoopLength { object["descriptor_loop_length"] = Int(length) }
        if !section.warnings.isEmpty { object["warnings"] = section.warnings.map(\.description) }
        return object
    }

    static func command(_ command: SpliceCommand) -> [String: Any] {
        switch command {
        case .spliceNull:
            return ["name": "splice_null"]
        case .spliceSchedule(let schedule):
            return [
                "name": "splice_schedule",
                "events": schedule.events.map { event -> [String: Any] in
                    var object: [String: Any] = [
                        "splice_event_id": Int(event.spliceEventID),
                        "splice_event_cancel_indicator": event.spliceEventCancelIndicator,
                    ]
                    guard !event.spliceEventCancelIndicator else { return object }
                    object["event_id_compliance_flag"] = event.eventIDComplianceFlag
                    object["out_of_network_indicator"] = event.outOfNetworkIndicator
                    object["program_splice_flag"] = event.programSpliceFlag
                    object["duration_flag"] = event.durationFlag
                    if let utc = event.utcSpliceTime { object["utc_splice_time"] = Int(utc) }
                    if !event.components.isEmpty {
                        object["components"] = event.components.map {
                            ["component_tag": Int($0.componentTag), "utc_splice_time": Int($0.utcSpliceTime)]
                        }
                    }
                    addAvail(
                        to: &object, event.breakDuration, program: event.uniqueProgramID, number: event.availNum,
                        expected: event.availsExpected)
                    return object
                },
            ]
        case .spliceInsert(let insert):
            var object: [String: Any] = [
                "name": "splice_insert",
                "splice_event_id": Int(insert.spliceEventID),
                "splice_event_cancel_indicator": insert.spliceEventCancelIndicator,
            ]
            guard !insert.spliceEventCancelIndicator else { return object }
            object["out_of_network_indicator"] = insert.outOfNetworkIndicator
            object["program_splice_flag"] = insert.programSpliceFlag
            object["duration_flag"] = insert.durationFlag
            object["splice_immediate_flag"] = insert.spliceImmediateFlag
            object["event_id_compliance_flag"] = insert.eventIDComplianceFlag
            if let time = insert.spliceTime { object["splice_time"] = spliceTime(time) }
            if !insert.components.isEmpty {
                object["components"] = insert.components.map { component -> [String: Any] in
                    var item: [String: Any] = ["component_tag": Int(component.componentTag)]
                    if let time = component.spliceTime { item["splice_time"] = spliceTime(time) }
                    return item
                }
            }
            addAvail(
                to: &object, insert.breakDuration, program: insert.uniqueProgramID, number: insert.availNum,
                expected: insert.availsExpected)
            return object
        case .timeSignal(let time):
            return ["name": "time_signal", "splice_time": spliceTime(time)]
        case .bandwidthReservation:
            return ["name": "bandwidth_reservation"]
        case .privateCommand(let identifier, let bytes):
            return ["name": "private_command", "identifier": identifierText(identifier), "private_bytes": hex(bytes)]
        case .unknown(let type, let bytes):
            return ["name": "unknown", "splice_command_type": hex8(type), "bytes": hex(bytes)]
        case .encrypted(let bytes):
            return ["name": "encrypted", "bytes": hex(bytes)]
        }
    }

    static func descriptor(_ descriptor: SpliceDescriptor) -> [String: Any] {
        var object: [String: Any] = ["splice_descriptor_tag": hex8(descriptor.tag)]
        switch descriptor {
        case .avail(let id):
            object["name"] = "avail_descriptor"
            object["provider_avail_id"] = Int(id)
        case .dtmf(let preroll, let characters):
            object["name"] = "DTMF_descriptor"
            object["preroll"] = Int(preroll)
            object["DTMF_chars"] = characters
        case .segmentation(let segmentation):
            object["name"] = "segmentation_descriptor"
            object.merge(self.segmentation(segmentation)) { $1 }
        case .time(let time):
            object["name"] = "time_descriptor"
            object["TAI_seconds"] = Int(time.taiSeconds)
            object["TAI_ns"] = Int(time.taiNanoseconds)
            object["UTC_offset"] = Int(time.utcOffset)
        case .audio(let audio):
            object["name"] = "audio_descriptor"
            object["components"] = audio.components.map {
                [
                    "component_tag": Int($0.componentTag), "ISO_code": $0.isoCode,
                    "Bit_Stream_Mode": Int($0.bitStreamMode), "Num_Channels": Int($0.numChannels),
                    "Full_Srvc_Audio": $0.fullServiceAudio,
                ] as [String: Any]
            }
        case .raw(_, let identifier, let bytes):
            object["name"] = "unknown_descriptor"
            if let identifier { object["identifier"] = identifierText(identifier) }
            object["bytes"] = hex(bytes)
        }
        return object
    }

    static func segmentation(_ descriptor: SegmentationDescriptor) -> [String: Any] {
        var object: [String: Any] = [
            "identifier": identifierText(descriptor.identifier),
            "segmentation_event_id": Int(descriptor.segmentationEventID),
            "segmentation_event_cancel_indicator": descriptor.segmentationEventCancelIndicator,
            "segmentation_event_id_compliance_indicator": descriptor.segmentationEventIDComplianceIndicator,
        ]
        guard !descriptor.segmentationEventCancelIndicator else { return object }
        object["program_segmentation_flag"] = descriptor.programSegmentationFlag
        object["segmentation_duration_flag"] = descriptor.segmentationDurationFlag
        object["delivery_not_restricted_flag"] = descriptor.deliveryNotRestrictedFlag
        if let restrictions = descriptor.deliveryRestrictions {
            object["web_delivery_allowed_flag"] = restrictions.webDeliveryAllowed
            object["no_regional_blackout_flag"] = restrictions.noRegionalBlackout
            object["archive_allowed_flag"] = restrictions.archiveAllowed
            object["device_restrictions"] = Int(restrictions.deviceRestrictions)
        }
        if !descriptor.components.isEmpty {
            object["components"] = descriptor.components.map {
                ["component_tag": Int($0.componentTag), "pts_offset": ticks($0.ptsOffset)] as [String: Any]
            }
        }
        if let duration = descriptor.segmentationDuration { object["segmentation_duration"] = ticks(duration) }
        object["segmentation_upid"] = upid(descriptor.upid)
        object["segmentation_type_id"] = hex8(descriptor.segmentationType.rawValue)
        if let name = descriptor.segmentationType.name { object["segmentation_type"] = name }
        object["segment_num"] = Int(descriptor.segmentNum)
        object["segments_expected"] = Int(descriptor.segmentsExpected)
        if let number = descriptor.subSegmentNum { object["sub_segment_num"] = Int(number) }
        if let expected = descriptor.subSegmentsExpected { object["sub_segments_expected"] = Int(expected) }
        return object
    }

    static func upid(_ upid: SegmentationUPID) -> [String: Any] {
        var object: [String: Any] = [
            "segmentation_upid_type": hex8(upid.type.rawValue), "segmentation_upid_length": upid.bytes.count,
            "hex": upid.hex,
        ]
        if let name = upid.type.name { object["type_name"] = name }
        if let text = upid.text { object["text"] = text }
        if let format = upid.mpuFormatIdentifier { object["format_identifier"] = identifierText(format) }
        if !upid.parts.isEmpty { object["parts"] = upid.parts.map(self.upid) }
        return object
    }

    static func spliceTime(_ time: SpliceTime) -> [String: Any] {
        guard let pts = time.ptsTime else { return ["time_specified_flag": false] }
        return ["time_specified_flag": true, "pts_time": ticks(pts)]
    }

    /// The fields a splice_insert and a splice_schedule event end with.
    static func addAvail(
        to object: inout [String: Any], _ duration: BreakDuration?, program: UInt16, number: UInt8, expected: UInt8
    ) {
        if let duration { object["break_duration"] = breakDuration(duration) }
        object["unique_program_id"] = Int(program)
        object["avail_num"] = Int(number)
        object["avails_expected"] = Int(expected)
    }

    static func breakDuration(_ duration: BreakDuration) -> [String: Any] {
        ["auto_return": duration.autoReturn, "duration": ticks(duration.duration)]
    }

    /// A 90 kHz value, in ticks and in seconds.
    static func ticks(_ value: UInt64) -> [String: Any] {
        ["ticks": Int(value), "seconds": (Double(value) / 90_000 * 1_000_000).rounded() / 1_000_000]
    }

    static func hex8(_ value: UInt8) -> String { String(format: "0x%02X", value) }
    static func hex16(_ value: UInt16) -> String { String(format: "0x%03X", value) }
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// A 32-bit identifier: its four ASCII characters (`CUEI`) when printable, else hex.
    static func identifierText(_ value: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
        return String(format: "0x%08X", value)
    }
}
