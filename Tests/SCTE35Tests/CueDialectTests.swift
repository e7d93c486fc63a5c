import HLS
import Testing
@testable import SCTE35

@Suite("Cue dialects")
struct CueDialectTests {
    static let spliceInsert = SpecSampleTests.spliceInsert  // 14.2: out, event 0x4800008F, 5_426_421 ticks
    static let spliceInsertHex =
        "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"
    static let insertDuration = 5_426_421.0 / 90_000.0
    static let insertEventID = "1207959695"  // 0x4800008F

    @Test("EXT-X-CUE-OUT forms")
    func cueOut() throws {
        let forms: [(String?, Double?)] = [
            ("30", 30), ("30.000", 30), ("DURATION=201.467", 201.467),
            ("Duration=15", 15), (nil, nil), ("0", 0), ("junk", nil),
        ]
        for (value, duration) in forms {
            let signal = try #require(CueDialect.signal(from: CueTag(.cueOut, value: value)))
            #expect(signal.kind == .out)
            #expect(signal.dialect == .cueOutIn)
            #expect(signal.plannedDuration == duration, "\(value ?? "nil")")
        }
    }

    @Test("EXT-X-CUE-OUT-CONT attribute and slash forms")
    func cueOutCont() throws {
        let attributes = try #require(
            CueDialect.signal(
                from: CueTag(
                    .cueOutCont, value: "ElapsedTime=10,Duration=30,SCTE35=\(Self.spliceInsert)")))
        #expect(attributes.kind == .continue)
        #expect(attributes.elapsed == 10)
        #expect(attributes.plannedDuration == 30)
        #expect(attributes.remaining == 20)
        #expect(attributes.section?.spliceInsert?.spliceEventID == 0x4800_008F)
        #expect(attributes.payloadError == nil)

        let slash = try #require(CueDialect.signal(from: CueTag(.cueOutCont, value: "10.5/30")))
        #expect(slash.kind == .continue)
        #expect(slash.elapsed == 10.5)
        #expect(slash.plannedDuration == 30)
        #expect(slash.remaining == 19.5)

        let bare = try #require(CueDialect.signal(from: CueTag(.cueOutCont)))
        #expect(bare.kind == .continue && bare.elapsed == nil && bare.plannedDuration == nil)

        // A broken SCTE35 attribute does not hide what the tag says.
        let broken = try #require(
            CueDialect.signal(from: CueTag(.cueOutCont, value: "ElapsedTime=4,Duration=8,SCTE35=/DAvAAAA")))
        #expect(broken.kind == .continue && broken.elapsed == 4 && broken.plannedDuration == 8)
        #expect(broken.section == nil)
        #expect(broken.payloadError != nil)
    }

    @Test("EXT-X-CUE-IN")
    func cueIn() throws {
        let signal = try #require(CueDialect.signal(from: CueTag(.cueIn)))
        #expect(signal.kind == .in)
    }

    @Test("EXT-OATCLS-SCTE35 and EXT-X-SPLICEPOINT-SCTE35 take their meaning from the section")
    func payloadDialects() throws {
        let out = try #require(CueDialect.signal(from: CueTag(.oatclsSCTE35, value: Self.spliceInsert)))
        #expect(out.kind == .out)
        #expect(out.dialect == .oatcls)
        #expect(out.plannedDuration == Self.insertDuration)
        #expect(out.id == Self.insertEventID)

        let end = try #require(
            CueDialect.signal(from: CueTag(.oatclsSCTE35, value: SpecSampleTests.placementOpportunityEnd)))
        #expect(end.kind == .in)

        let start = try #require(
            CueDialect.signal(
                from: CueTag(
                    .splicepointSCTE35,
                    value: SpecSampleTests.placementOpportunityStart)))
        #expect(start.kind == .out)
        #expect(start.dialect == .splicepoint)
        #expect(start.plannedDuration == 307)
        #expect(start.id == String(0x4800_008E))

        // splice_null, program boundaries and garbage carry no break.
        #expect(CueDialect.signal(from: CueTag(.oatclsSCTE35, value: "/DARAAAAAAAAAP/wAAAAAHpPv/8=")) == nil)
        #expect(CueDialect.signal(from: CueTag(.splicepointSCTE35, value: SpecSampleTests.programEnd)) == nil)
        #expect(CueDialect.signal(from: CueTag(.oatclsSCTE35, value: "not base64!")) == nil)
        #expect(CueDialect.signal(from: CueTag(.oatclsSCTE35)) == nil)
        #expect(CueDialect.signal(from: CueTag(.asset, value: "CAID=0x0000000020FB6501")) == nil)
    }

    @Test("EXT-X-SCTE35 (Anvato/Uplynk)")
    func scte35Tag() throws {
        let out = try #require(
            CueDialect.signal(
                from: CueTag(
                    .scte35, value: "CUE=\"\(Self.spliceInsert)\",ID=\"123\",CUE-OUT=YES")))
        #expect(out.kind == .out)
        #expect(out.dialect == .scte35)
        #expect(out.id == "123")
        #expect(out.plannedDuration == Self.insertDuration)

        let cont = try #require(
            CueDialect.signal(
                from: CueTag(
                    .scte35, value: "CUE=\"\(Self.spliceInsert)\",ID=\"123\",CUE-OUT=CONT,ELAPSED=12.5,DURATION=60")))
        #expect(cont.kind == .continue)
        #expect(cont.elapsed == 12.5)
        #expect(cont.plannedDuration == 60)

        let cueIn = try #require(
            CueDialect.signal(
                from: CueTag(
                    .scte35, value: "CUE=\"\(SpecSampleTests.placementOpportunityEnd)\",CUE-IN=YES")))
        #expect(cueIn.kind == .in)
        #expect(cueIn.plannedDuration == nil)

        let implicit = try #require(CueDialect.signal(from: CueTag(.scte35, value: "CUE=\"\(Self.spliceInsert)\"")))
        #expect(implicit.kind == .out)
        #expect(implicit.id == Self.insertEventID)
    }

    @Test("Adobe EXT-X-CUE")
    func adobe() throws {
        let out = try #require(
            CueDialect.signal(
                from: CueTag(
                    .adobeCue, value: "ID=\"ad-1\",TYPE=\"SpliceOut\",DURATION=30,TIME=1234.5")))
        #expect(out.kind == .out)
        #expect(out.dialect == .adobe)
        #expect(out.id == "ad-1")
        #expect(out.plannedDuration == 30)
        #expect(out.time == 1234.5)

        let back = try #require(
            CueDialect.signal(from: CueTag(.adobeCue, value: "ID=\"ad-1\",TYPE=\"SpliceIn\",TIME=1264.5")))
        #expect(back.kind == .in)
        #expect(back.plannedDuration == nil)

        let untyped = try #require(CueDialect.signal(from: CueTag(.adobeCue, value: "ID=\"x\",DURATION=15")))
        #expect(untyped.kind == .out && untyped.plannedDuration == 15)
        #expect(CueDialect.signal(from: CueTag(.adobeCue, value: "ID=\"x\"")) == nil)
    }

    @Test("EXT-X-DATERANGE SCTE35-OUT / IN / CMD")
    func dateRange() throws {
        let out = CueDialect.signals(
            from: DateRange(
                attributes: AttributeList(
                    parsing:
                        "ID=\"splice-1\",START-DATE=\"2026-11-22T08:00:00Z\",PLANNED-DURATION=60.3,SCTE35-OUT=\(Self.spliceInsertHex)"
                )))
        #expect(out.count == 1)
        #expect(out.first?.kind == .out)
        #expect(out.first?.dialect == .dateRange)
        #expect(out.first?.id == "splice-1")
        #expect(out.first?.plannedDuration == 60.3)
        #expect(out.first?.section?.spliceInsert?.spliceEventID == 0x4800_008F)

        let closed = CueDialect.signals(
            from: DateRange(
                attributes: AttributeList(
                    parsing:
                        "ID=\"splice-1\",START-DATE=\"2026-11-22T08:00:00Z\",DURATION=59.5,SCTE35-OUT=\(Self.spliceInsertHex),SCTE35-IN=0xFC"
                )))
        #expect(closed.map(\.kind) == [.out, .in])
        #expect(closed.first?.plannedDuration == 59.5)
        #expect(closed.last?.payloadError != nil)

        let cmd = CueDialect.signals(
            from: DateRange(
                attributes: AttributeList(
                    parsing:
                        "ID=\"po-1\",START-DATE=\"2026-11-22T08:00:00Z\",SCTE35-CMD=0xFC3034000000000000FFFFF00506FE72BD0050001E021C435545494800008E7FCF0001A599B00808000000002CA0A18A3402009AC9D17E"
                )))
        #expect(cmd.map(\.kind) == [.out])
        #expect(cmd.first?.plannedDuration == 307)

        // The RFC 8216 example's SCTE35-OUT is 49 bytes with section_length 47 (and a zero CRC):
        // the signal is an out all the same, with the payload error noted.
        let rfc = CueDialect.signals(
            from: DateRange(
                attributes: AttributeList(
                    parsing:
                        "ID=\"splice-6FFFFFF0\",START-DATE=\"2014-03-05T11:15:00Z\",PLANNED-DURATION=59.993,SCTE35-OUT=0xFC002F0000000000FF000014056FFFFFF000E011622DCAFF000052636200000000000A0008029896F50000008700000000"
                )))
        #expect(rfc.count == 1)
        #expect(rfc.first?.kind == .out)
        #expect(rfc.first?.plannedDuration == 59.993)
        #expect(rfc.first?.payloadError?.kind == .invalidSectionLength)

        let plain = CueDialect.signals(
            from: DateRange(
                attributes: AttributeList(
                    parsing:
                        "ID=\"x\",START-DATE=\"2026-11-22T08:00:00Z\",CLASS=\"com.apple.hls.interstitial\"")))
        #expect(plain.isEmpty)
    }

    @Test("signals read from a parsed playlist")
    func playlist() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            c1.ts
            #EXT-X-CUE-OUT:30
            #EXT-OATCLS-SCTE35:\(Self.spliceInsert)
            #EXT-X-ASSET:CAID=0x0000000020FB6501
            #EXTINF:10,
            ad1.ts
            #EXT-X-CUE-OUT-CONT:ElapsedTime=10,Duration=30,SCTE35=\(Self.spliceInsert)
            #EXTINF:10,
            ad2.ts
            #EXT-X-CUE-IN
            #EXTINF:10,
            c2.ts

            """
        let playlist = try MediaPlaylist(parsing: text)
        let signals = playlist.segments.map { CueDialect.signals(in: $0) }
        #expect(signals.map { $0.map(\.kind) } == [[], [.out, .out], [.continue], [.in]])
        #expect(signals[1].map(\.plannedDuration) == [30, Self.insertDuration])
        #expect(signals[2].first?.elapsed == 10)
        #expect(signals[2].first?.section != nil)
    }
}

@Suite("Cues with a bad CRC")
struct BadCRCCueTests {
    // Widely copied example cue (also in the HLS module's tests): a splice_insert, event 1, out of
    // network, pts 0x00D80D92, break duration 0x149970 = 1_350_000 ticks = 15 s, auto return.
    // Its stored CRC_32 is 0x5F1523AF but the bytes give 0xE7150B2C.
    static let cue = "/DAlAAAAAAAAAP/wFAUAAAABf+/+ANgNkv4AFJlwAAEBAQAAXxUjrw=="

    @Test("strict decoding rejects it, lenient decoding reads it with a warning")
    func lenient() throws {
        let error = decodeError { _ = try SpliceInfoSection(Self.cue) }
        #expect(error?.kind == .crcMismatch(stored: 0x5F15_23AF, computed: 0xE715_0B2C))
        let section = try SpliceInfoSection(Self.cue, options: .lenient)
        #expect(section.warnings.count == 1)
        let insert = try #require(section.spliceInsert)
        #expect(insert.spliceEventID == 1)
        #expect(insert.outOfNetworkIndicator)
        #expect(insert.spliceTime?.ptsTime == 0x00D8_0D92)
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 1_350_000))
        #expect(section.breakDurationSeconds == 15)

        #expect(CueDialect.signal(from: CueTag(.oatclsSCTE35, value: Self.cue)) == nil)
        let signal = try #require(CueDialect.signal(from: CueTag(.oatclsSCTE35, value: Self.cue), options: .lenient))
        #expect(signal.kind == .out)
        #expect(signal.plannedDuration == 15)
    }
}
