import Testing
@testable import SCTE35

/// Runs `body` and returns the SCTE35Error it threw, or nil.
func decodeError(_ body: () throws -> Void) -> SCTE35Error? {
    do {
        try body()
        return nil
    } catch let error as SCTE35Error {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

func bytes(hex: String) -> [UInt8] {
    // Test-only convenience: the inputs are literals in this file.
    (try? SCTE35Text.decodeHex(hex)) ?? []
}

func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

/// Builds a splice_info_section with a correct section_length and CRC_32.
func makeSection(
    ptsAdjustment: UInt64 = 0, encrypted: Bool = false, encryptionAlgorithm: UInt8 = 0,
    cwIndex: UInt8 = 0xFF, tier: UInt16 = 0xFFF, commandLength: UInt16? = nil,
    commandType: UInt8, command: [UInt8], descriptorLoopLength: UInt16? = nil,
    descriptors: [UInt8] = [], trailer: [UInt8] = []
) -> [UInt8] {
    let sectionLength = 11 + command.count + 2 + descriptors.count + trailer.count + 4
    var out: [UInt8] = [0xFC, 0x30 | UInt8(sectionLength >> 8 & 0x0F), UInt8(sectionLength & 0xFF), 0x00]
    let fortyBits =
        (encrypted ? UInt64(1) << 39 : 0) | UInt64(encryptionAlgorithm & 0x3F) << 33
        | (ptsAdjustment & ((1 << 33) - 1))
    for shift in stride(from: 32, through: 0, by: -8) { out.append(UInt8(fortyBits >> UInt64(shift) & 0xFF)) }
    out.append(cwIndex)
    let length = commandLength ?? UInt16(command.count)
    out.append(UInt8(tier >> 4 & 0xFF))
    out.append(UInt8((tier & 0x0F) << 4) | UInt8(length >> 8 & 0x0F))
    out.append(UInt8(length & 0xFF))
    out.append(commandType)
    out += command
    let loop = descriptorLoopLength ?? UInt16(descriptors.count)
    out += [UInt8(loop >> 8), UInt8(loop & 0xFF)]
    out += descriptors
    out += trailer
    out += be32(MPEG2CRC32.checksum(out))
    return out
}

/// Rewrites section_length and CRC_32 so that `section` (cut or altered) is self-consistent.
func fixUp(_ section: [UInt8]) -> [UInt8] {
    guard section.count >= 7 else { return section }
    var out = Array(section.dropLast(4))
    let length = out.count + 4 - 3
    out[1] = (out[1] & 0xF0) | UInt8(length >> 8 & 0x0F)
    out[2] = UInt8(length & 0xFF)
    return out + be32(MPEG2CRC32.checksum(out))
}

/// Deterministic generator for fuzz tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
