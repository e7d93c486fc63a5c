import Testing
@testable import SCTE35

/// The sample messages of SCTE 35 (2019r1 / 2022) section 14, with the values the specification
/// publishes for each (table_id, section_length, pts_time, segmentation fields, CRC_32 ...).
/// Every value asserted here was also derived by hand from the bytes (the hex is in each comment).
@Suite("SCTE 35 section 14 sample messages")
struct SpecSampleTests {
    // 14.1 time_signal – Placement Opportunity Start
    // 0xFC3034000000000000FFFFF00506FE72BD0050001E021C435545494800008E7FCF0001A599B00808000000002CA0A18A3402009AC9D17E
    static let placementOpportunityStart =
        "/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg=="
    static let placementOpportunityStartHex =
        "0xFC3034000000000000FFFFF00506FE72BD0050001E021C435545494800008E7FCF0001A599B00808000000002CA0A18A3402009AC9D17E"
    // 14.2 splice_insert
    // 0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A
    static let spliceInsert = "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo="
    // 14.3 time_signal – Placement Opportunity End
    static let placementOpportunityEnd = "/DAvAAAAAAAA///wBQb+dGKQoAAZAhdDVUVJSAAAjn+fCAgAAAAALKChijUCAKnMZ1g="
    // 14.4 time_signal – Program Start/End
    static let programStartEnd =
        "/DBIAAAAAAAA///wBQb+ek2ItgAyAhdDVUVJSAAAGH+fCAgAAAAALMvDRBEAAAIXQ1VFSUgAABl/nwgIAAAAACyk26AQAACZcuND"
    // 14.5 time_signal – Program Overlap Start
    static let programOverlapStart = "/DAvAAAAAAAA///wBQb+rr//ZAAZAhdDVUVJSAAACH+fCAgAAAAALKVs9RcAAJUdsKg="
    // 14.6 time_signal – Program Blackout Override / Program End
    static let blackoutOverrideProgramEnd =
        "/DBIAAAAAAAA///wBQb+ky44CwAyAhdDVUVJSAAACn+fCAgAAAAALKCh4xgAAAIXQ1VFSUgAAAl/nwgIAAAAACygoYoRAAC0IX6w"
    // 14.7 time_signal – Program End
    static let programEnd = "/DAvAAAAAAAA///wBQb+rvF8TAAZAhdDVUVJSAAAB3+fCAgAAAAALKVslxEAAMSHai4="
    // 14.8 time_signal – Program Start/End – Placement Opportunity End
    static let programStartEndPlacementOpportunityEnd =
        "/DBhAAAAAAAA///wBQb+qM1E7QBLAhdDVUVJSAAArX+fCAgAAAAALLLXnTUCAAIXQ1VFSUgAACZ/nwgIAAAAACyy150RAAACF0NVRUlIAAAnf58ICAAAAAAsstezEAAAihiGnw=="

    static let all = [
        placementOpportunityStart, spliceInsert, placementOpportunityEnd, programStartEnd,
        programOverlapStart, blackoutOverrideProgramEnd, programEnd,
        programStartEndPlacementOpportunityEnd,
    ]

    /// Header values common to every section 14 sample.
    func expectCommonHeader(_ s: SpliceInfoSection, sectionLength: UInt16) {
        #expect(s.tableID == 0xFC)
        #expect(s.sectionSyntaxIndicator == false)
        #expect(s.privateIndicator == false)
        #expect(s.sapType == 3)
        #expect(s.sectionLength == sectionLength)
        #expect(s.bytes.count == Int(sectionLength) + 3)
        #expect(s.protocolVersion == 0)
        #expect(s.encryptedPacket == false)
        #expect(s.encryptionAlgorithm == 0)
        #expect(s.ptsAdjustment == 0)
        #expect(s.cwIndex == 0xFF)
        #expect(s.tier == 0xFFF)
        #expect(s.warnings.isEmpty)
    }

    /// The "Turner Identifier" (UPID type 0x08, length 8) all samples carry, with delivery
    /// restricted: web delivery allowed, no regional blackout, archive allowed, device restrictions 3.
    func expectSampleSegmentation(
        _ d: SegmentationDescriptor, eventID: UInt32, type: SegmentationType,
        ti: UInt64, segmentNum: UInt8, webDeliveryAllowed: Bool = true
    ) {
        #expect(d.identifier == 0x4355_4549)
        #expect(d.segmentationEventID == eventID)
        #expect(d.segmentationEventCancelIndicator == false)
        #expect(d.programSegmentationFlag)
        #expect(d.deliveryNotRestrictedFlag == false)
        #expect(d.deliveryRestrictions?.webDeliveryAllowed == webDeliveryAllowed)
        #expect(d.deliveryRestrictions?.noRegionalBlackout == true)
        #expect(d.deliveryRestrictions?.archiveAllowed == true)
        #expect(d.deliveryRestrictions?.deviceRestrictions == 3)
        #expect(d.components.isEmpty)
        #expect(d.upid.type == .ti)
        #expect(d.upid.bytes.count == 8)
        #expect(d.upid.bytes == Array(be32(UInt32(ti >> 32)) + be32(UInt32(ti & 0xFFFF_FFFF))))
        #expect(d.upid.text == nil)
        #expect(d.segmentationType == type)
        #expect(d.segmentNum == segmentNum)
        #expect(d.segmentsExpected == 0)
    }

    @Test("14.1 time_signal – Placement Opportunity Start")
    func placementOpportunityStartSample() throws {
        let s = try SpliceInfoSection(base64: Self.placementOpportunityStart)
        expectCommonHeader(s, sectionLength: 52)
        #expect(s.spliceCommandLength == 5)
        #expect(s.spliceCommandType == 0x06)
        #expect(s.command == .timeSignal(SpliceTime(ptsTime: 0x0_72BD_0050)))
        #expect(s.spliceTimePTS == 1_924_989_008)
        let seconds = try #require(s.spliceTimeSeconds)
        #expect(abs(seconds - 21388.766756) < 0.000001)
        #expect(s.descriptorLoopLength == 30)
        #expect(s.descriptors.count == 1)
        let d = try #require(s.descriptors.first?.segmentation)
        // 0xCF: program_segmentation 1, duration 1, delivery_not_restricted 0, web 0, no blackout 1,
        // archive 1, device_restrictions 3.
        expectSampleSegmentation(
            d, eventID: 0x4800_008E, type: .providerPlacementOpportunityStart,
            ti: 0x0000_0000_2CA0_A18A, segmentNum: 2, webDeliveryAllowed: false)
        #expect(d.segmentationEventIDComplianceIndicator)
        #expect(d.segmentationDurationFlag)
        #expect(d.segmentationDuration == 0x00_01A5_99B0)
        #expect(d.segmentationDuration == 27_630_000)
        #expect(d.durationSeconds == 307.0)
        // descriptor_length 28 leaves no room for sub_segment_num / sub_segments_expected.
        #expect(d.subSegmentNum == nil)
        #expect(d.subSegmentsExpected == nil)
        #expect(d.segmentationType.name == "Provider Placement Opportunity Start")
        #expect(s.crc32 == 0x9AC9_D17E)
        #expect(s.isAdStart)
        #expect(!s.isAdEnd)
        #expect(s.breakDurationSeconds == 307.0)
        #expect(s.eventID == 0x4800_008E)
    }

    @Test("14.1 hex and base64 forms decode to the same section")
    func hexAndBase64Agree() throws {
        let fromBase64 = try SpliceInfoSection(base64: Self.placementOpportunityStart)
        let fromHex = try SpliceInfoSection(hex: Self.placementOpportunityStartHex)
        let fromLowerPlainHex = try SpliceInfoSection(
            hex: String(Self.placementOpportunityStartHex.dropFirst(2)).lowercased())
        let autoHex = try SpliceInfoSection(Self.placementOpportunityStartHex)
        let autoPlainHex = try SpliceInfoSection(String(Self.placementOpportunityStartHex.dropFirst(2)))
        let autoBase64 = try SpliceInfoSection(Self.placementOpportunityStart)
        let urlSafe = String(Self.placementOpportunityStart.map { $0 == "/" ? "_" : $0 == "+" ? "-" : $0 })
        let urlSafeUnpadded = String(urlSafe.prefix { $0 != "=" })
        let fromURLSafe = try SpliceInfoSection(base64: urlSafeUnpadded)
        let autoURLSafe = try SpliceInfoSection(urlSafe)
        let unpadded = try SpliceInfoSection(base64: String(Self.placementOpportunityStart.dropLast(2)))
        let spaced = try SpliceInfoSection("  \(Self.placementOpportunityStart)\n")
        for other in [
            fromHex, fromLowerPlainHex, autoHex, autoPlainHex, autoBase64, fromURLSafe, autoURLSafe,
            unpadded, spaced,
        ] {
            #expect(other == fromBase64)
        }
        #expect(fromBase64.hexString == Self.placementOpportunityStartHex)
        #expect(fromBase64.base64String == Self.placementOpportunityStart)
    }

    @Test("14.2 splice_insert")
    func spliceInsertSample() throws {
        let s = try SpliceInfoSection(base64: Self.spliceInsert)
        expectCommonHeader(s, sectionLength: 47)
        #expect(s.spliceCommandLength == 0x14)
        #expect(s.spliceCommandType == 0x05)
        let insert = try #require(s.spliceInsert)
        #expect(insert.spliceEventID == 0x4800_008F)
        #expect(insert.spliceEventCancelIndicator == false)
        // 0xEF: out_of_network 1, program_splice 1, duration 1, splice_immediate 0, compliance 1.
        #expect(insert.outOfNetworkIndicator)
        #expect(insert.programSpliceFlag)
        #expect(insert.durationFlag)
        #expect(insert.spliceImmediateFlag == false)
        #expect(insert.eventIDComplianceFlag)
        #expect(insert.spliceTime == SpliceTime(ptsTime: 0x0_7369_C02E))
        #expect(insert.spliceTime?.ptsTime == 1_936_310_318)
        let seconds = try #require(insert.spliceTime?.seconds)
        #expect(abs(seconds - 21514.559089) < 0.000001)
        #expect(insert.components.isEmpty)
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 0x0_0052_CCF5))
        #expect(insert.breakDuration?.duration == 5_426_421)
        let duration = try #require(insert.breakDuration?.seconds)
        #expect(abs(duration - 60.293567) < 0.000001)
        #expect(insert.uniqueProgramID == 0)
        #expect(insert.availNum == 0)
        #expect(insert.availsExpected == 0)
        #expect(s.descriptorLoopLength == 10)
        #expect(s.descriptors == [.avail(providerAvailID: 0x135)])
        #expect(s.crc32 == 0x62DB_A30A)
        #expect(s.isAdStart)
        #expect(!s.isAdEnd)
        #expect(s.eventID == 0x4800_008F)
        #expect(s.breakDurationSeconds == 5_426_421.0 / 90_000.0)
        #expect(
            s.description
                == "splice_insert event=0x4800008F out pts=1936310318 (21514.559s) duration=60.294s")
    }

    @Test("14.3 time_signal – Placement Opportunity End")
    func placementOpportunityEndSample() throws {
        let s = try SpliceInfoSection(base64: Self.placementOpportunityEnd)
        expectCommonHeader(s, sectionLength: 47)
        #expect(s.command == .timeSignal(SpliceTime(ptsTime: 0x0_7462_90A0)))
        let seconds = try #require(s.spliceTimeSeconds)
        #expect(abs(seconds - 21695.740089) < 0.000001)
        #expect(s.descriptorLoopLength == 25)
        #expect(s.descriptors.count == 1)
        let d = try #require(s.descriptors.first?.segmentation)
        expectSampleSegmentation(
            d, eventID: 0x4800_008E, type: .providerPlacementOpportunityEnd,
            ti: 0x2CA0_A18A, segmentNum: 2)
        #expect(d.segmentationDurationFlag == false)
        #expect(d.segmentationDuration == nil)
        #expect(s.crc32 == 0xA9CC_6758)
        #expect(s.isAdEnd)
        #expect(!s.isAdStart)
        #expect(s.eventID == 0x4800_008E)
    }

    struct Expected: Sendable {
        var eventID: UInt32
        var type: SegmentationType
        var ti: UInt64
        var segmentNum: UInt8 = 0
    }

    @Test(
        "14.4–14.8 time_signal program boundaries",
        arguments: [
            // 14.4 Program Start/End
            (
                programStartEnd, UInt16(72), UInt64(0x0_7A4D_88B6), UInt32(0x9972_E343),
                [
                    Expected(eventID: 0x4800_0018, type: .programEnd, ti: 0x2CCB_C344),
                    Expected(eventID: 0x4800_0019, type: .programStart, ti: 0x2CA4_DBA0),
                ]
            ),
            // 14.5 Program Overlap Start
            (
                programOverlapStart, 47, 0x0_AEBF_FF64, 0x951D_B0A8,
                [
                    Expected(eventID: 0x4800_0008, type: .programOverlapStart, ti: 0x2CA5_6CF5)
                ]
            ),
            // 14.6 Program Blackout Override / Program End
            (
                blackoutOverrideProgramEnd, 72, 0x0_932E_380B, 0xB421_7EB0,
                [
                    Expected(eventID: 0x4800_000A, type: .programBlackoutOverride, ti: 0x2CA0_A1E3),
                    Expected(eventID: 0x4800_0009, type: .programEnd, ti: 0x2CA0_A18A),
                ]
            ),
            // 14.7 Program End
            (
                programEnd, 47, 0x0_AEF1_7C4C, 0xC487_6A2E,
                [
                    Expected(eventID: 0x4800_0007, type: .programEnd, ti: 0x2CA5_6C97)
                ]
            ),
            // 14.8 Program Start/End – Placement Opportunity End
            (
                programStartEndPlacementOpportunityEnd, 97, 0x0_A8CD_44ED, 0x8A18_869F,
                [
                    Expected(
                        eventID: 0x4800_00AD, type: .providerPlacementOpportunityEnd, ti: 0x2CB2_D79D, segmentNum: 2),
                    Expected(eventID: 0x4800_0026, type: .programEnd, ti: 0x2CB2_D79D),
                    Expected(eventID: 0x4800_0027, type: .programStart, ti: 0x2CB2_D7B3),
                ]
            ),
        ])
    func programBoundarySamples(_ sample: (String, UInt16, UInt64, UInt32, [Expected])) throws {
        let (text, sectionLength, pts, crc, expected) = sample
        let s = try SpliceInfoSection(base64: text)
        expectCommonHeader(s, sectionLength: sectionLength)
        #expect(s.spliceCommandLength == 5)
        #expect(s.command == .timeSignal(SpliceTime(ptsTime: pts)))
        #expect(s.descriptorLoopLength == UInt16(25 * expected.count))
        #expect(s.descriptors.count == expected.count)
        for (descriptor, want) in zip(s.descriptors, expected) {
            let d = try #require(descriptor.segmentation)
            expectSampleSegmentation(
                d, eventID: want.eventID, type: want.type, ti: want.ti,
                segmentNum: want.segmentNum)
            #expect(d.segmentationDuration == nil)
        }
        #expect(s.crc32 == crc)
        // Only 14.8 carries an ad-related type (Placement Opportunity End).
        #expect(!s.isAdStart)
        #expect(s.isAdEnd == expected.contains { $0.type == .providerPlacementOpportunityEnd })
    }

    @Test("corrupting any byte of any sample is detected", arguments: all)
    func corruptionDetected(_ text: String) throws {
        let good = try SCTE35Text.decodeBase64(text)
        for index in good.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF, 0x5A] {
                var bad = good
                bad[index] ^= mask
                let error = try #require(
                    decodeError { _ = try SpliceInfoSection(bytes: bad) },
                    "byte \(index) ^ \(mask) was not detected")
                if index >= 3, case .crcMismatch(let stored, let computed) = error.kind {
                    #expect(stored != computed)
                    #expect(error.offset == bad.count - 4)
                } else if index >= 3 {
                    Issue.record("byte \(index) ^ \(mask): expected a CRC mismatch, got \(error)")
                }
            }
        }
    }

    @Test("every truncation of every sample is an error, never a crash", arguments: all)
    func truncations(_ text: String) throws {
        let good = try SCTE35Text.decodeBase64(text)
        for length in 0..<good.count {
            let cut = Array(good.prefix(length))
            #expect(decodeError { _ = try SpliceInfoSection(bytes: cut) } != nil)
            // The same cut with section_length and CRC rewritten reaches the inner parsers.
            let consistent = fixUp(cut)
            #expect(
                decodeError { _ = try SpliceInfoSection(bytes: consistent) } != nil,
                "cut at \(length) decoded")
        }
    }
}
