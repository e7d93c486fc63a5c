import Foundation
import Testing

/// `seam scte35 decode` as ad ops run it, on the SCTE 35 specification's own sample cues
/// (SCTE 35 2022 section 14) and on the forms encoders in the field produce.
@Suite struct SCTE35CommandTests {
    /// 14.1: time_signal, Provider Placement Opportunity Start, TI UPID, 307 s.
    static let timeSignal = "/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg=="
    /// 14.2: splice_insert, out of network, 60.293567 s with auto return, avail_descriptor 309.
    static let spliceInsert =
        "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"

    static func decode(_ arguments: [String]) async throws -> (status: Int32, objects: [[String: Any]])? {
        guard let seam = PlayerTools.seamExecutable() else { return nil }
        let run = try await PlayerTools.runAsync(seam, ["scte35", "decode"] + arguments, timeout: 60)
        let objects = run.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return (run.status, objects)
    }

    /// MPEG-2's CRC_32 (the one splice_info_section ends with), to build sections here.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.dropFirst(hex.hasPrefix("0x") ? 2 : 0))
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
    }

    @Test("The specification's samples: every field, times in ticks and seconds")
    func specificationSamples() async throws {
        guard let run = try await Self.decode([Self.timeSignal, Self.spliceInsert]) else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        #expect(run.status == 0)
        #expect(run.objects.count == 2)
        let signal = run.objects[0]
        let command = signal["splice_command"] as? [String: Any]
        #expect(command?["name"] as? String == "time_signal")
        let pts = (command?["splice_time"] as? [String: Any])?["pts_time"] as? [String: Any]
        #expect(pts?["ticks"] as? Int == 0x0_72BD_0050)
        #expect(pts?["seconds"] as? Double == 21388.766756)
        let segmentation = (signal["descriptors"] as? [[String: Any]])?.first
        #expect(segmentation?["segmentation_event_id"] as? Int == 0x4800_008E)
        #expect(segmentation?["segmentation_type_id"] as? String == "0x34")
        #expect(segmentation?["segmentation_type"] as? String == "Provider Placement Opportunity Start")
        #expect((segmentation?["segmentation_duration"] as? [String: Any])?["seconds"] as? Double == 307)
        let upid = segmentation?["segmentation_upid"] as? [String: Any]
        #expect(upid?["segmentation_upid_type"] as? String == "0x08" && upid?["type_name"] as? String == "TI")
        #expect(upid?["hex"] as? String == "000000002ca0a18a")
        #expect(segmentation?["web_delivery_allowed_flag"] as? Bool == false)
        #expect(segmentation?["device_restrictions"] as? Int == 3)

        let insert = run.objects[1]["splice_command"] as? [String: Any]
        #expect(insert?["name"] as? String == "splice_insert")
        #expect(insert?["splice_event_id"] as? Int == 0x4800_008F)
        #expect(insert?["out_of_network_indicator"] as? Bool == true)
        let duration = insert?["break_duration"] as? [String: Any]
        #expect(duration?["auto_return"] as? Bool == true)
        #expect((duration?["duration"] as? [String: Any])?["ticks"] as? Int == 0x0_0052_CCF5)
        let avail = (run.objects[1]["descriptors"] as? [[String: Any]])?.first
        #expect(avail?["name"] as? String == "avail_descriptor" && avail?["provider_avail_id"] as? Int == 0x135)
    }

    @Test("A bad CRC_32 fails naming the byte and the flag; with it, decoded with a warning")
    func badCRC() async throws {
        var section = Self.bytes(Self.spliceInsert)
        section[section.count - 1] ^= 0x01
        guard let strict = try await Self.decode([Self.hex(section)]) else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        #expect(strict.status == 1)
        let error = strict.objects.first?["error"] as? [String: Any]
        #expect(error?["offset"] as? Int == section.count - 4, "\(strict.objects)")
        #expect((error?["message"] as? String)?.contains("--ignore-crc") == true, "\(strict.objects)")
        let lenient = try #require(try await Self.decode([Self.hex(section), "--ignore-crc"]))
        #expect(lenient.status == 0)
        #expect((lenient.objects.first?["warnings"] as? [String])?.isEmpty == false, "\(lenient.objects)")
    }

    @Test("splice_command_length 0xFFF (legacy encoders) decodes and says so")
    func legacyCommandLength() async throws {
        var section = Array(Self.bytes(Self.spliceInsert).dropLast(4))
        // splice_command_length is the low 12 bits of bytes 11-12.
        section[11] |= 0x0F
        section[12] = 0xFF
        let crc = Self.crc32(section)
        section += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        guard let run = try await Self.decode([Self.hex(section)]) else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        #expect(run.status == 0, "\(run.objects)")
        let object = try #require(run.objects.first)
        #expect(object["splice_command_length"] as? Int == 0xFFF)
        #expect(object["splice_command_length_note"] != nil)
        #expect((object["splice_command"] as? [String: Any])?["splice_event_id"] as? Int == 0x4800_008F)
    }

    @Test("Cues from standard input, one per line; a broken one reported with its text offset")
    func standardInput() async throws {
        guard let seam = PlayerTools.seamExecutable() else {
            Issue.record("the seam executable is not built next to the tests")
            return
        }
        let run = try PlayerTools.runSeparated(
            seam, ["scte35", "decode"], input: "\(Self.timeSignal)\n\n/DA*AAAA\n\(Self.spliceInsert)\n")
        let text = run.output
        let objects = text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(run.status == 1)
        #expect(objects.count == 3, "\(text)")
        #expect(((objects[safe: 1]?["error"]) as? [String: Any])?["offset"] as? Int == 3)
        #expect((objects[safe: 2]?["splice_command"] as? [String: Any])?["name"] as? String == "splice_insert")
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
