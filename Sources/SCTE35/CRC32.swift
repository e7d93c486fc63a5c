/// MPEG-2 CRC-32 (polynomial 0x04C11DB7, initial value 0xFFFFFFFF, no reflection, no final xor),
/// as used by `splice_info_section`.
public enum MPEG2CRC32 {
    static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var crc = UInt32(index) << 24
        for _ in 0..<8 {
            crc = (crc & 0x8000_0000) != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1
        }
        return crc
    }

    public static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)]
        }
        return crc
    }
}
