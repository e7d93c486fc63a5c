import HLS
import Testing
@testable import SCTE35

@Suite("SpliceInfoSectionEncoder")
struct SpliceInfoSectionEncoderTests {
    let encoder = SpliceInfoSectionEncoder()

    // MARK: Byte for byte against published samples

    @Test("splice_null matches the widely reproduced heartbeat cue")
    func spliceNullSample() throws {
        // That sample has cw_index 0x00.
        let bytes = try SpliceInfoSectionEncoder(cwIndex: 0).encode(.spliceNull)
        #expect(SCTE35Text.base64(bytes) == "/DARAAAAAAAAAP/wAAAAAHpPv/8=")
    }

    @Test("14.2 splice_insert built from its published values gives the sample's bytes")
    func spliceInsertSample() throws {
        let insert = SpliceInsert.programOut(
            eventID: 0x4800_008F, breakDuration: 0x0_0052_CCF5,
            autoReturn: true, ptsTime: 0x0_7369_C02E)
        let base64 = try encoder.base64(.spliceInsert(insert), descriptors: [.avail(providerAvailID: 0x135)])
        #expect(base64 == SpecSampleTests.spliceInsert)
        let hex = try encoder.hex(.spliceInsert(insert), descriptors: [.avail(providerAvailID: 0x135)])
        #expect(hex == CueDialectTests.spliceInsertHex)
    }

    /// The samples' Turner Identifier segmentation descriptors, restricted delivery.
    func sampleSegmentation(
        eventID: UInt32, type: SegmentationType, duration: UInt64?, ti: UInt32,
        webDeliveryAllowed: Bool
    ) -> SegmentationDescriptor {
        var d = SegmentationDescriptor.program(
            eventID: eventID, type: type, duration: duration,
            upid: SegmentationUPID(type: .ti, bytes: [0, 0, 0, 0] + be32(ti)), segmentNum: 2)
        d.subSegmentNum = nil
        d.subSegmentsExpected = nil
        d.deliveryNotRestrictedFlag = false
        d.deliveryRestrictions = .init(
            webDeliveryAllowed: webDeliveryAllowed, noRegionalBlackout: true,
            archiveAllowed: true, deviceRestrictions: 3)
        return d
    }

    @Test("14.1 and 14.3 time_signal placement opportunity start and end from their values")
    func timeSignalSamples() throws {
        let start = sampleSegmentation(
            eventID: 0x4800_008E, type: .providerPlacementOpportunityStart,
            duration: 27_630_000, ti: 0x2CA0_A18A, webDeliveryAllowed: false)
        #expect(
            try encoder.base64(.timeSignal(SpliceTime(ptsTime: 0x0_72BD_0050)), descriptors: [.segmentation(start)])
                == SpecSampleTests.placementOpportunityStart)
        let end = sampleSegmentation(
            eventID: 0x4800_008E, type: .providerPlacementOpportunityEnd,
            duration: nil, ti: 0x2CA0_A18A, webDeliveryAllowed: true)
        #expect(
            try encoder.base64(.timeSignal(SpliceTime(ptsTime: 0x0_7462_90A0)), descriptors: [.segmentation(end)])
                == SpecSampleTests.placementOpportunityEnd)
    }

    @Test("re-encoding every decoded section 14 sample gives its bytes back", arguments: SpecSampleTests.all)
    func reencodesSpecSamples(_ sample: String) throws {
        let decoded = try SpliceInfoSection(base64: sample)
        let bytes = try SpliceInfoSectionEncoder(header: decoded).encode(
            decoded.command, descriptors: decoded.descriptors)
        #expect(bytes == decoded.bytes)
    }

    // MARK: Round trips through the strict decoder

    @Test("a break_duration beyond a day (the 33-bit field's 95,443 s) reads as no duration")
    func breakDurationBeyondTheNumbersPolicy() throws {
        let longest = try encoder.section(.spliceInsert(.programOut(eventID: 7, breakDuration: 0x1_FFFF_FFFF)))
        #expect(longest.spliceInsert?.breakDuration?.duration == 0x1_FFFF_FFFF)
        #expect(longest.breakDurationSeconds == nil)
        #expect(longest.isAdStart)
        let day = try encoder.section(.spliceInsert(.programOut(eventID: 7, breakDuration: 86_400 * 90_000)))
        #expect(day.breakDurationSeconds == 86_400)
    }

    @Test("splice_insert out, immediate, with a break duration")
    func spliceInsertImmediateOut() throws {
        let s = try encoder.section(.spliceInsert(.programOut(eventID: 7, breakDuration: 24 * 90_000)))
        let insert = try #require(s.spliceInsert)
        #expect(insert.spliceEventID == 7)
        #expect(insert.outOfNetworkIndicator)
        #expect(insert.programSpliceFlag)
        #expect(insert.spliceImmediateFlag)
        #expect(insert.spliceTime == nil)
        #expect(insert.durationFlag)
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 2_160_000))
        #expect(s.breakDurationSeconds == 24)
        #expect(s.isAdStart && !s.isAdEnd)
        #expect(s.warnings.isEmpty)
        // event id 4, two flag bytes, break_duration 5, program id / avail num / avails expected 4.
        #expect(s.spliceCommandLength == 15)
        #expect(s.sectionLength == UInt16(s.bytes.count - 3))
        #expect(s.crc32 == MPEG2CRC32.checksum(s.bytes.dropLast(4)))
    }

    @Test("splice_insert in, with a splice_time and no duration")
    func spliceInsertTimedIn() throws {
        let s = try encoder.section(.spliceInsert(.programIn(eventID: 0xFFFF_FFFF, ptsTime: (1 << 33) - 1)))
        let insert = try #require(s.spliceInsert)
        #expect(insert.spliceEventID == 0xFFFF_FFFF)
        #expect(!insert.outOfNetworkIndicator)
        #expect(!insert.spliceImmediateFlag)
        #expect(insert.spliceTime == SpliceTime(ptsTime: (1 << 33) - 1))
        #expect(insert.breakDuration == nil)
        #expect(!insert.durationFlag)
        #expect(s.isAdEnd && !s.isAdStart)
        #expect(s.eventID == 0xFFFF_FFFF)
    }

    @Test("splice_insert cancellation and pts_adjustment")
    func cancellation() throws {
        let s = try SpliceInfoSectionEncoder(ptsAdjustment: 900)
            .section(.spliceInsert(SpliceInsert(spliceEventID: 9, spliceEventCancelIndicator: true)))
        #expect(s.isCancellation)
        #expect(s.ptsAdjustment == 900)
        #expect(s.spliceCommandLength == 5)
    }

    @Test("time_signal with placement opportunity start (duration, no UPID) and end")
    func timeSignalPlacementOpportunity() throws {
        let start = SegmentationDescriptor.program(
            eventID: 10, type: .providerPlacementOpportunityStart,
            duration: 24 * 90_000)
        let s = try encoder.section(.timeSignal(SpliceTime(ptsTime: 123_456)), descriptors: [.segmentation(start)])
        #expect(s.command == .timeSignal(SpliceTime(ptsTime: 123_456)))
        #expect(s.descriptors == [.segmentation(start)])
        let d = try #require(s.segmentationDescriptors.first)
        #expect(d.segmentationType == .providerPlacementOpportunityStart)
        #expect(d.segmentationDuration == 2_160_000)
        #expect(d.upid.type == .notUsed && d.upid.bytes.isEmpty)
        #expect(d.subSegmentNum == 0 && d.subSegmentsExpected == 0)
        #expect(s.isAdStart && s.breakDurationSeconds == 24 && s.eventID == 10)

        let end = SegmentationDescriptor.program(eventID: 10, type: .providerPlacementOpportunityEnd)
        let e = try encoder.section(.timeSignal(SpliceTime(ptsTime: nil)), descriptors: [.segmentation(end)])
        #expect(e.command == .timeSignal(SpliceTime(ptsTime: nil)))
        #expect(e.descriptors == [.segmentation(end)])
        #expect(e.isAdEnd && e.eventID == 10)
        #expect(e.segmentationDescriptors.first?.segmentationDuration == nil)
    }

    @Test("a short text UPID, a cancelled descriptor and other descriptors survive the round trip")
    func descriptorsRoundTrip() throws {
        let adID = SegmentationDescriptor.program(
            eventID: 11, type: .providerAdvertisementStart, duration: 15 * 90_000,
            upid: SegmentationUPID(type: .adID, bytes: Array("ABCD0123456H".utf8)), segmentNum: 1, segmentsExpected: 2)
        let cancelled = SegmentationDescriptor(segmentationEventID: 12, segmentationEventCancelIndicator: true)
        let descriptors: [SpliceDescriptor] = [
            .segmentation(adID), .segmentation(cancelled), .avail(providerAvailID: 5),
            .dtmf(preroll: 50, characters: "121#"),
            .time(TimeDescriptor(taiSeconds: 1_700_000_037, taiNanoseconds: 500, utcOffset: 37)),
        ]
        let s = try encoder.section(.timeSignal(SpliceTime(ptsTime: 1)), descriptors: descriptors)
        #expect(s.descriptors == descriptors)
        #expect(s.segmentationDescriptors.first?.upid.text == "ABCD0123456H")
        #expect(s.warnings.isEmpty)
    }

    @Test("base64 and hex are the section's bytes and decode with the cue readers")
    func textForms() throws {
        let command = SpliceCommand.spliceInsert(.programOut(eventID: 3, breakDuration: 24 * 90_000))
        let bytes = try encoder.encode(command)
        let base64 = try encoder.base64(command)
        let hex = try encoder.hex(command)
        #expect(try SCTE35Text.decodeBase64(base64) == bytes)
        #expect(try SCTE35Text.decodeHex(hex) == bytes)
        #expect(hex.hasPrefix("0xFC30"))
        let signal = try #require(CueDialect.signal(from: CueTag(.oatclsSCTE35, value: base64)))
        #expect(signal.kind == .out && signal.plannedDuration == 24 && signal.id == "3")
    }

    // MARK: Values that do not fit

    @Test("values wider than their field throw instead of being truncated")
    func overflowThrows() {
        let tooLate = SpliceCommand.timeSignal(SpliceTime(ptsTime: 1 << 33))
        #expect(decodeError { _ = try encoder.encode(tooLate) }?.kind == .invalidValue)
        let longUPID = SegmentationDescriptor.program(
            eventID: 1, type: .providerAdvertisementStart,
            upid: SegmentationUPID(type: .userDefined, bytes: Array(repeating: 0x41, count: 256)))
        #expect(
            decodeError {
                _ = try encoder.encode(.timeSignal(SpliceTime(ptsTime: nil)), descriptors: [.segmentation(longUPID)])
            }?.kind
                == .invalidValue)
        let bigDescriptor = SpliceDescriptor.raw(tag: 0xF0, identifier: nil, bytes: Array(repeating: 0, count: 300))
        #expect(
            decodeError { _ = try encoder.encode(.spliceNull, descriptors: [bigDescriptor]) }?.kind
                == .invalidDescriptorLength)
        #expect(decodeError { _ = try encoder.encode(.encrypted(bytes: [1, 2, 3])) }?.kind == .invalidValue)
    }
}
