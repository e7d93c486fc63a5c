import Testing
@testable import SCTE35

/// Commands and descriptors the section 14 samples do not exercise, built byte by byte
/// (section_length and CRC_32 computed by `makeSection`).
@Suite("Commands and descriptors")
struct CommandAndDescriptorTests {
    static let cuei: [UInt8] = [0x43, 0x55, 0x45, 0x49]

    @Test("splice_null (a widely reproduced heartbeat cue)")
    func spliceNull() throws {
        // fc 30 11 00 00 00 00 00 00 00 ff f0 00 00 00 00 7a 4f bf ff: cw_index 0, tier 0xFFF, length 0.
        let s = try SpliceInfoSection(base64: "/DARAAAAAAAAAP/wAAAAAHpPv/8=")
        #expect(s.command == .spliceNull)
        #expect(s.spliceCommandType == 0x00)
        #expect(s.spliceCommandLength == 0)
        #expect(s.sectionLength == 17)
        #expect(s.cwIndex == 0)
        #expect(s.tier == 0xFFF)
        #expect(s.descriptors.isEmpty)
        #expect(s.crc32 == 0x7A4F_BFFF)
        #expect(!s.isAdStart && !s.isAdEnd)
        #expect(s.spliceTimePTS == nil)
    }

    @Test("immediate splice_insert with pts_adjustment (common test vector)")
    func immediateSpliceInsert() throws {
        // pts_adjustment 0x107C1 = 67521, event 692, flags 0xDF: out of network, program splice,
        // no duration, immediate; unique_program_id 1, avail 1 of 1.
        let s = try SpliceInfoSection(hex: "fc301b0000000107c100fff00a05000002b47fdf0001010100007c185d61")
        #expect(s.ptsAdjustment == 67521)
        #expect(s.cwIndex == 0)
        let insert = try #require(s.spliceInsert)
        #expect(insert.spliceEventID == 692)
        #expect(insert.outOfNetworkIndicator)
        #expect(insert.programSpliceFlag)
        #expect(!insert.durationFlag)
        #expect(insert.spliceImmediateFlag)
        #expect(insert.spliceTime == nil)
        #expect(insert.breakDuration == nil)
        #expect(insert.uniqueProgramID == 1)
        #expect(insert.availNum == 1)
        #expect(insert.availsExpected == 1)
        #expect(s.isAdStart)
        #expect(s.breakDurationSeconds == nil)
    }

    @Test("splice_insert in component mode, return to network")
    func componentSpliceInsert() throws {
        let command: [UInt8] = [
            0x00, 0x00, 0x00, 0x01, 0x7F,
            0x0F,  // oon 0, program 0, duration 0, immediate 0, compliance 1
            0x02,
            0x01, 0xFE, 0x00, 0x00, 0x00, 0x64,  // tag 1, pts 100
            0x02, 0x7F,  // tag 2, time not specified
            0x00, 0x02, 0x01, 0x02,
        ]
        let s = try SpliceInfoSection(
            bytes: makeSection(
                ptsAdjustment: (1 << 33) - 50, commandType: 0x05,
                command: command))
        let insert = try #require(s.spliceInsert)
        #expect(!insert.programSpliceFlag)
        #expect(!insert.outOfNetworkIndicator)
        #expect(
            insert.components == [
                .init(componentTag: 1, spliceTime: SpliceTime(ptsTime: 100)),
                .init(componentTag: 2, spliceTime: SpliceTime(ptsTime: nil)),
            ])
        #expect(insert.uniqueProgramID == 2)
        #expect(insert.availNum == 1)
        #expect(insert.availsExpected == 2)
        // pts_adjustment wraps modulo 2^33.
        #expect(s.spliceTimePTS == 50)
        #expect(s.isAdEnd)
        #expect(!s.isAdStart)
    }

    @Test("cancelled splice_insert")
    func cancelledSpliceInsert() throws {
        let s = try SpliceInfoSection(bytes: makeSection(commandType: 0x05, command: [0, 0, 0, 5, 0xFF]))
        let insert = try #require(s.spliceInsert)
        #expect(insert.spliceEventID == 5)
        #expect(insert.spliceEventCancelIndicator)
        #expect(s.isCancellation)
        #expect(!s.isAdStart && !s.isAdEnd)
    }

    @Test("time_signal with a distributor placement opportunity, sub-segments and a MID UPID")
    func distributorPlacementOpportunity() throws {
        let mid: [UInt8] = [0x09, 10] + Array("SIGNAL:abc".utf8) + [0x03, 12] + Array("ABCD01234567".utf8)
        var body: [UInt8] =
            Self.cuei + [
                0x00, 0x00, 0x00, 0x10, 0x7F,
                0xFF,  // program 1, duration 1, delivery not restricted, reserved
                0x00, 0x00, 0xA4, 0xCB, 0x80,
            ]  // 10_800_000 ticks = 120 s
        body += [0x0D, UInt8(mid.count)] + mid
        body += [0x36, 1, 3, 1, 4]
        let descriptor: [UInt8] = [0x02, UInt8(body.count)] + body
        let s = try SpliceInfoSection(
            bytes: makeSection(
                commandType: 0x06, command: [0x7F],
                descriptors: descriptor))
        #expect(s.command == .timeSignal(SpliceTime(ptsTime: nil)))
        let d = try #require(s.segmentationDescriptors.first)
        #expect(d.segmentationEventID == 0x10)
        #expect(d.deliveryNotRestrictedFlag)
        #expect(d.deliveryRestrictions == nil)
        #expect(d.segmentationDuration == 10_800_000)
        #expect(d.durationSeconds == 120)
        #expect(d.upid.type == .mid)
        #expect(d.upid.parts.count == 2)
        #expect(d.upid.parts.first?.type == .adi)
        #expect(d.upid.parts.first?.text == "SIGNAL:abc")
        #expect(d.upid.parts.last?.type == .adID)
        #expect(d.upid.parts.last?.text == "ABCD01234567")
        #expect(d.segmentationType == .distributorPlacementOpportunityStart)
        #expect(d.segmentNum == 1)
        #expect(d.segmentsExpected == 3)
        #expect(d.subSegmentNum == 1)
        #expect(d.subSegmentsExpected == 4)
        #expect(s.isAdStart)
        #expect(s.breakDurationSeconds == 120)
        #expect(s.eventID == 0x10)
    }

    @Test("segmentation descriptor with components and without sub-segment fields")
    func segmentationComponents() throws {
        var body: [UInt8] =
            Self.cuei + [
                0x00, 0x00, 0x00, 0x20, 0x7F,
                0x3F,  // program 0, duration 0, not restricted, reserved
                0x01, 0x21, 0xFE, 0x00, 0x00, 0x00, 0x0A,
            ]  // tag 0x21, pts_offset 10
        body += [0x09, 3] + Array("xyz".utf8)
        body += [0x34, 0, 0]  // provider PO start, no sub-segment bytes (pre-2016 encoders)
        let descriptor: [UInt8] = [0x02, UInt8(body.count)] + body
        let s = try SpliceInfoSection(
            bytes: makeSection(
                commandType: 0x06, command: [0xFE, 0, 0, 0, 1],
                descriptors: descriptor))
        let d = try #require(s.segmentationDescriptors.first)
        #expect(!d.programSegmentationFlag)
        #expect(d.components == [.init(componentTag: 0x21, ptsOffset: 10)])
        #expect(d.upid.text == "xyz")
        #expect(d.subSegmentNum == nil)
        #expect(d.segmentationType.isAdStart)
    }

    @Test("overlay placement opportunity with an MPU UPID is not an ad break")
    func overlayWithMPU() throws {
        var body: [UInt8] = Self.cuei + [0x00, 0x00, 0x00, 0x30, 0x7F, 0xBF]  // program 1, no duration
        body += [0x0C, 6] + Array("ABCD".utf8) + [0x01, 0x02]
        body += [0x38, 1, 1, 2, 3]
        let s = try SpliceInfoSection(
            bytes: makeSection(
                commandType: 0x06, command: [0x7F],
                descriptors: [0x02, UInt8(body.count)] + body))
        let d = try #require(s.segmentationDescriptors.first)
        #expect(d.upid.type == .mpu)
        #expect(d.upid.mpuFormatIdentifier == 0x4142_4344)
        #expect(d.upid.text == nil)
        #expect(d.upid.hex == "414243440102")
        #expect(d.segmentationType == .providerOverlayPlacementOpportunityStart)
        #expect(d.segmentationType.description == "Provider Overlay Placement Opportunity Start (0x38)")
        #expect(d.subSegmentNum == 2)
        #expect(d.subSegmentsExpected == 3)
        #expect(!s.isAdStart && !s.isAdEnd)
        #expect(SegmentationType(0x99).name == nil)
        #expect(SegmentationType(0x99).description == "Unknown (0x99)")
    }

    @Test("cancelled segmentation descriptor, DTMF, time, audio and unknown descriptors")
    func otherDescriptors() throws {
        var loop: [UInt8] = []
        loop += [0x02, 9] + Self.cuei + [0x00, 0x00, 0x00, 0x11, 0xFF]
        loop += [0x01, 9] + Self.cuei + [0x32, 0x7F] + Array("123".utf8)
        loop += [0x03, 16] + Self.cuei + [0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x03, 0xE8, 0x00, 0x25]
        loop += [0x04, 10] + Self.cuei + [0x1F, 0x10] + Array("eng".utf8) + [0x0B]
        loop += [0xF0, 6] + Array("ABCD".utf8) + [0x01, 0x02]
        loop += [0x00, 8] + Array("ABCD".utf8) + [0, 0, 0, 1]  // avail tag with a private identifier
        let s = try SpliceInfoSection(bytes: makeSection(commandType: 0x06, command: [0x7F], descriptors: loop))
        #expect(s.descriptors.count == 6)
        let cancelled = try #require(s.descriptors[0].segmentation)
        #expect(cancelled.segmentationEventID == 0x11)
        #expect(cancelled.segmentationEventCancelIndicator)
        #expect(s.isCancellation)
        #expect(!s.isAdStart)
        #expect(s.descriptors[1] == .dtmf(preroll: 0x32, characters: "123"))
        #expect(s.descriptors[2] == .time(TimeDescriptor(taiSeconds: 0x1234_5678, taiNanoseconds: 1000, utcOffset: 37)))
        #expect(
            s.descriptors[3]
                == .audio(
                    AudioDescriptor(components: [
                        .init(
                            componentTag: 0x10, isoCode: "eng", bitStreamMode: 0, numChannels: 5, fullServiceAudio: true
                        )
                    ])))
        #expect(s.descriptors[4] == .raw(tag: 0xF0, identifier: 0x4142_4344, bytes: Array("ABCD".utf8) + [1, 2]))
        #expect(s.descriptors[5].tag == 0x00)
        if case .raw(_, let identifier, _) = s.descriptors[5] {
            #expect(identifier == 0x4142_4344)
        } else {
            Issue.record("non-CUEI avail descriptor should be kept raw")
        }
    }

    @Test("private_command and bandwidth_reservation")
    func privateAndBandwidth() throws {
        let p = try SpliceInfoSection(
            bytes: makeSection(
                commandType: 0xFF,
                command: Array("ABCD".utf8) + [1, 2, 3]))
        #expect(p.command == .privateCommand(identifier: 0x4142_4344, bytes: [1, 2, 3]))
        let b = try SpliceInfoSection(bytes: makeSection(commandType: 0x07, command: []))
        #expect(b.command == .bandwidthReservation)
        let u = try SpliceInfoSection(bytes: makeSection(commandType: 0x42, command: [9, 9]))
        #expect(u.command == .unknown(type: 0x42, bytes: [9, 9]))
    }

    @Test("splice_schedule")
    func spliceSchedule() throws {
        let command: [UInt8] = [
            0x01, 0x00, 0x00, 0x00, 0x42, 0x7F, 0xFF,
            0x4E, 0x6F, 0x70, 0x00,  // utc_splice_time
            0xFE, 0x00, 0x52, 0xCC, 0xF5,  // auto return, 5_426_421
            0x00, 0x01, 0x01, 0x02,
        ]
        let s = try SpliceInfoSection(bytes: makeSection(commandType: 0x04, command: command))
        guard case .spliceSchedule(let schedule) = s.command else {
            Issue.record("expected splice_schedule, got \(s.command)")
            return
        }
        #expect(schedule.events.count == 1)
        let event = try #require(schedule.events.first)
        #expect(event.spliceEventID == 0x42)
        #expect(event.outOfNetworkIndicator && event.programSpliceFlag && event.durationFlag)
        #expect(event.utcSpliceTime == 0x4E6F_7000)
        #expect(event.breakDuration == BreakDuration(autoReturn: true, duration: 5_426_421))
        #expect(event.uniqueProgramID == 1 && event.availNum == 1 && event.availsExpected == 2)
    }

    @Test("encrypted sections decode the header and keep the command opaque")
    func encrypted() throws {
        let payload: [UInt8] = [0x3A, 0x99, 0x10, 0x00, 0xFF, 0x01, 0x02, 0x03, 0x04, 0x05]
        // makeSection lays payload out as type + command + loop length; all of it is "encrypted".
        let section = makeSection(
            ptsAdjustment: 1234, encrypted: true, encryptionAlgorithm: 1, cwIndex: 7,
            commandLength: 5, commandType: payload[0], command: Array(payload[1...5]),
            descriptorLoopLength: 0xFFFF, descriptors: Array(payload[6...]))
        let s = try SpliceInfoSection(bytes: section)
        #expect(s.encryptedPacket)
        #expect(s.encryptionAlgorithm == 1)
        #expect(s.ptsAdjustment == 1234)
        #expect(s.cwIndex == 7)
        #expect(s.spliceCommandLength == 5)
        #expect(s.spliceCommandType == nil)
        #expect(s.command == .encrypted(bytes: Array(payload[0...5]) + [0xFF, 0xFF] + Array(payload[6...])))
        #expect(s.descriptors.isEmpty)
        #expect(!s.isAdStart && !s.isAdEnd)
    }

    @Test("splice_command_length 0xFFF (unknown) is accepted where the command delimits itself")
    func unknownCommandLength() throws {
        let s = try SpliceInfoSection(
            bytes: makeSection(
                commandLength: 0xFFF, commandType: 0x06,
                command: [0xFE, 0, 0, 0, 9]))
        #expect(s.spliceCommandLength == 0xFFF)
        #expect(s.command == .timeSignal(SpliceTime(ptsTime: 9)))
        let error = decodeError {
            _ = try SpliceInfoSection(
                bytes: makeSection(commandLength: 0xFFF, commandType: 0xFF, command: [1, 2, 3, 4]))
        }
        #expect(error?.kind == .invalidCommandLength)
    }

    @Test("length fields that disagree with the data are errors naming the byte")
    func lengthErrors() throws {
        // splice_command_length too short for a time_signal with a PTS.
        let short = decodeError {
            _ = try SpliceInfoSection(
                bytes: makeSection(commandLength: 1, commandType: 0x06, command: [0xFE, 0, 0, 0, 9]))
        }
        #expect(short?.kind == .invalidCommandLength)
        // splice_command_length past the end of the section.
        let long = decodeError {
            _ = try SpliceInfoSection(bytes: makeSection(commandLength: 0x200, commandType: 0x06, command: [0x7F]))
        }
        #expect(long?.kind == .invalidCommandLength)
        #expect(long?.offset == 14)
        // descriptor_loop_length overrunning the section.
        let loop = decodeError {
            _ = try SpliceInfoSection(bytes: makeSection(commandType: 0x00, command: [], descriptorLoopLength: 40))
        }
        #expect(loop?.kind == .invalidDescriptorLength)
        #expect(loop?.offset == 16)
        // descriptor_length overrunning the loop.
        let descriptor = decodeError {
            _ = try SpliceInfoSection(
                bytes: makeSection(
                    commandType: 0x00, command: [],
                    descriptors: [0x02, 30] + Self.cuei))
        }
        #expect(descriptor?.kind == .invalidDescriptorLength)
        // segmentation descriptor whose fields run past descriptor_length.
        let inner = decodeError {
            _ = try SpliceInfoSection(
                bytes: makeSection(
                    commandType: 0x00, command: [],
                    descriptors: [0x02, 10] + Self.cuei + [0, 0, 0, 1, 0x7F, 0xFF]))
        }
        #expect(inner?.kind == .truncated)
        #expect(inner?.message.contains("segmentation") == true)
    }

    @Test("trailing bytes and stuffing are warnings")
    func trailing() throws {
        let good = makeSection(commandType: 0x00, command: [])
        let s = try SpliceInfoSection(bytes: good + [0xFF, 0xFF])
        #expect(s.warnings.count == 1)
        #expect(s.bytes == good)
        let stuffed = try SpliceInfoSection(bytes: makeSection(commandType: 0x00, command: [], trailer: [0xFF]))
        #expect(stuffed.warnings.count == 1)
    }
}

@Suite("Errors and robustness")
struct RobustnessTests {
    static let sample = "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo="

    @Test("bad CRC: error by default, warning when lenient")
    func badCRC() throws {
        var data = try SCTE35Text.decodeBase64(Self.sample)
        data[data.count - 1] ^= 0x01
        let error = try #require(decodeError { _ = try SpliceInfoSection(bytes: data) })
        #expect(error.kind == .crcMismatch(stored: 0x62DB_A30B, computed: 0x62DB_A30A))
        #expect(error.offset == data.count - 4)
        let lenient = try SpliceInfoSection(bytes: data, options: .lenient)
        #expect(lenient.crc32 == 0x62DB_A30B)
        #expect(lenient.warnings.count == 1)
        #expect(lenient.spliceInsert?.spliceEventID == 0x4800_008F)
    }

    @Test("wrong table_id and section_length")
    func headerErrors() throws {
        var data = try SCTE35Text.decodeBase64(Self.sample)
        data[0] = 0xFD
        #expect(decodeError { _ = try SpliceInfoSection(bytes: data) }?.kind == .invalidTableID)
        data[0] = 0xFC
        data[2] = 0x40
        let error = decodeError { _ = try SpliceInfoSection(bytes: data) }
        #expect(error?.kind == .invalidSectionLength)
        #expect(error?.offset == 1)
        #expect(decodeError { _ = try SpliceInfoSection(bytes: []) }?.kind == .emptyInput)
    }

    @Test("text errors name the character")
    func textErrors() {
        let hex = decodeError { _ = try SpliceInfoSection(hex: "0xFC3G") }
        #expect(hex?.kind == .invalidCharacter)
        #expect(hex?.offset == 5)
        #expect(decodeError { _ = try SpliceInfoSection(hex: "FC3") }?.kind == .invalidLength)
        #expect(decodeError { _ = try SpliceInfoSection(hex: "0x") }?.kind == .emptyInput)
        let b64 = decodeError { _ = try SpliceInfoSection(base64: "/DA*AAAA") }
        #expect(b64?.kind == .invalidCharacter)
        #expect(b64?.offset == 3)
        #expect(decodeError { _ = try SpliceInfoSection(base64: "/DAvA") }?.kind == .invalidLength)
        #expect(decodeError { _ = try SpliceInfoSection("") }?.kind == .emptyInput)
        #expect(decodeError { _ = try SpliceInfoSection(base64: "====") }?.kind == .emptyInput)
    }

    @Test("base64 and hex round trips")
    func textRoundTrip() throws {
        var generator = SplitMix64(seed: 7)
        for length in 0..<40 {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let b64 = SCTE35Text.base64(data)
            #expect(try SCTE35Text.decodeBase64(b64 == "" ? "AA" : b64) == (data.isEmpty ? [0] : data))
            if !data.isEmpty {
                #expect(try SCTE35Text.decodeHex(SCTE35Text.hex(data)) == data)
            }
        }
    }

    @Test("random bytes never crash the decoder (seeded)")
    func randomBytes() {
        var generator = SplitMix64(seed: 0x5C7E_3500)
        var decoded = 0
        for round in 0..<20_000 {
            let length = Int.random(in: 0...80, using: &generator)
            var data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 2 == 0, data.count >= 20 {
                // Make half of them pass the header, length and CRC checks so the inner parsers run.
                data[0] = 0xFC
                data[3] = 0
                data = fixUp(data)
                data[4] &= 0x7F  // unencrypted
                data = fixUp(data)
            }
            if (try? SpliceInfoSection(bytes: data, options: round % 3 == 0 ? .lenient : .strict)) != nil {
                decoded += 1
            }
            _ = try? SpliceInfoSection(SCTE35Text.base64(data))
        }
        // Some random sections with valid framing do decode; the point is that none crashed.
        #expect(decoded >= 0)
    }

    @Test("random mutations of real cues never crash", arguments: SpecSampleTests.all)
    func mutations(_ text: String) throws {
        let good = try SCTE35Text.decodeBase64(text)
        var generator = SplitMix64(seed: UInt64(good.count))
        for _ in 0..<2_000 {
            var data = good
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 3..<(data.count - 4), using: &generator)
                data[index] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? SpliceInfoSection(bytes: fixUp(data))
        }
    }
}
